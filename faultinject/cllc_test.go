package faultinject

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"github.com/mcpt-tool/mcpt/tree"
)

// cllcFixture is the CLL transpiler of this repository, built as it is and
// with its cll/... packages instrumented.
type cllcFixture struct {
	orig string
	m    *Manifest
}

func getCLLC(t *testing.T) *cllcFixture {
	t.Helper()
	tmp := t.TempDir()
	orig := filepath.Join(tmp, "cllc")
	build := exec.Command("go", "build", "-trimpath", "-o", orig, "./cmd/cllc")
	build.Dir = ".."
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cllc: %v\n%s", err, b)
	}
	start := time.Now()
	m, err := Instrument(context.Background(), Options{
		ModuleDir: "..", OutDir: filepath.Join(tmp, "instrumented"), Packages: []string{"./cll/..."}, Main: "./cmd/cllc",
	})
	if err != nil {
		t.Fatal(err)
	}
	counts := m.Count()
	var cs []string
	for c, n := range counts {
		cs = append(cs, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(cs)
	t.Logf("instrumented %d packages of cllc in %v: %d branch sites, %d faults (%s); %d constructs skipped",
		len(m.Packages), time.Since(start).Round(time.Millisecond), len(m.Sites), 2*len(m.Sites), strings.Join(cs, ", "), len(m.Skipped))
	for _, s := range m.Skipped {
		t.Logf("skipped %s %s: %s", s.Pos, s.Construct, s.Reason)
	}
	return &cllcFixture{orig: orig, m: m}
}

func cllcExamples(t *testing.T) []string {
	t.Helper()
	ex, err := filepath.Glob(filepath.Join("..", "examples", "cll", "*.cll"))
	if err != nil || len(ex) == 0 {
		t.Fatalf("no CLL examples (%v)", err)
	}
	return ex
}

// runCLLC runs a cllc binary on an example and returns its exit code,
// standard error and output tree.
func runCLLC(t *testing.T, bin, input string, env ...string) (int, string, tree.Tree) {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(bin, input, "-o", out)
	cmd.Env = append(cleanEnv(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	files, err := tree.Read(out, tree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String(), files
}

// TestCLLCInstrumentedCleanIdentical: instrumented cllc with no active
// fault gives byte-identical output to cllc on every example.
func TestCLLCInstrumentedCleanIdentical(t *testing.T) {
	fx := getCLLC(t)
	for _, ex := range cllcExamples(t) {
		wantCode, wantErr, want := runCLLC(t, fx.orig, ex)
		if wantCode != 0 || len(want) != 8 {
			t.Errorf("%s: cllc exits %d with %d files:\n%s", ex, wantCode, len(want), wantErr)
		}
		for _, env := range [][]string{nil, {EnvRole + "=base"}, {EnvRole + "=follow-up"}} {
			code, stderr, got := runCLLC(t, fx.m.Binary, ex, env...)
			if code != wantCode || stderr != wantErr {
				t.Errorf("%s %v: instrumented cllc exits %d, want %d:\n%s", ex, env, code, wantCode, stderr)
			}
			if !equalTrees(got, want) {
				t.Errorf("%s %v: instrumented cllc writes %v, cllc %v, or their contents differ", ex, env, got.Names(), want.Names())
			}
		}
	}
}

// TestCLLCPreparation runs the preparatory step on cllc with traffic.cll
// as the sample and reports its figures. It takes minutes; set
// MCPT_TEST_CLLC_PREPARE=1 to run it.
func TestCLLCPreparation(t *testing.T) {
	if os.Getenv("MCPT_TEST_CLLC_PREPARE") == "" {
		t.Skip("set MCPT_TEST_CLLC_PREPARE=1 to run the preparatory step on cllc")
	}
	fx := getCLLC(t)
	sample := filepath.Join("..", "examples", "cll", "traffic.cll")
	cmd := transpiler.Command{Process: spec.Process{Argv: []string{fx.m.Binary, "{input}", "-o", "{outdir}"}}}
	statuses := map[transpiler.Status]int{}
	start := time.Now()
	dropped, err := Prepare(context.Background(), cmd, sample, fx.m, PrepareOptions{
		Exhaustive: os.Getenv("MCPT_TEST_CLLC_PREPARE") == "exhaustive",
		OnRun:      func(r FaultRun) { statuses[r.Status]++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("preparation on %s: %v; %d forced runs %v; %d of %d faults dropped",
		sample, time.Since(start).Round(time.Millisecond), statuses[0]+statuses[1]+statuses[2]+statuses[3], statuses, len(dropped), 2*len(fx.m.Sites))
}

func equalTrees(a, b tree.Tree) bool {
	if len(a) != len(b) {
		return false
	}
	for n, x := range a {
		if y, ok := b[n]; !ok || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}
