package faultinject

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// extract writes the files of a txtar archive in testdata to dir.
func extract(t testing.TB, name, dir string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sampleFixture is the sample module of testdata/sample.txtar, built as it
// is and instrumented; it is made once for all tests.
type sampleFixture struct {
	src, out string // the module and its instrumented copy
	orig     string // the original binary
	m        *Manifest
}

var (
	sampleOnce sync.Once
	sample     *sampleFixture
	sampleErr  error
	sampleTmp  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sampleTmp != "" {
		os.RemoveAll(sampleTmp)
	}
	os.Exit(code)
}

func getSample(t *testing.T) *sampleFixture {
	t.Helper()
	sampleOnce.Do(func() {
		sampleTmp, sampleErr = os.MkdirTemp("", "faultinject-test-")
		if sampleErr != nil {
			return
		}
		fx := &sampleFixture{src: filepath.Join(sampleTmp, "src"), out: filepath.Join(sampleTmp, "out")}
		extract(t, "sample.txtar", fx.src)
		fx.orig = filepath.Join(sampleTmp, "orig-sample")
		cmd := exec.Command("go", "build", "-trimpath", "-o", fx.orig, "./cmd/sample")
		cmd.Dir = fx.src
		if b, err := cmd.CombinedOutput(); err != nil {
			sampleErr = errors.New(string(b))
			return
		}
		fx.m, sampleErr = Instrument(context.Background(), Options{ModuleDir: fx.src, OutDir: fx.out, Main: "./cmd/sample"})
		sample = fx
	})
	if sampleErr != nil {
		t.Fatal(sampleErr)
	}
	return sample
}

// runResult is the outcome of one run of a sample binary.
type runResult struct {
	out    string // the content of out.txt
	stderr string
	code   int
}

// runBin runs a sample binary on the integers of input, with env added to
// the environment of the test.
func runBin(t *testing.T, bin, input string, env ...string) runResult {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, in, dir)
	cmd.Env = append(cleanEnv(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var r runResult
	r.stderr = stderr.String()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err == nil {
		r.out = string(b)
	}
	return r
}

// cleanEnv is the test's environment without the fault-injection variables.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPT_") {
			env = append(env, kv)
		}
	}
	return env
}

var labelRx = regexp.MustCompile(`L:([a-z-]+)`)

// labels maps each labelled line of the sample's files, "file:line", to
// its label.
func (fx *sampleFixture) labels(t *testing.T) map[string]string {
	t.Helper()
	labels := map[string]string{}
	for _, file := range []string{"cmd/sample/main.go", "lib/lib.go"} {
		b, err := os.ReadFile(filepath.Join(fx.src, file))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := labelRx.FindStringSubmatch(line); m != nil {
				labels[file+":"+strconv.Itoa(i+1)] = m[1]
			}
		}
	}
	return labels
}

// site returns the n-th site (from 0, in id order) of the given construct
// on the labelled line.
func (fx *sampleFixture) site(t *testing.T, label string, c Construct, n int) Site {
	t.Helper()
	labels := fx.labels(t)
	var found []Site
	for _, s := range fx.m.Sites {
		if labels[s.File+":"+strconv.Itoa(s.Line)] == label && s.Construct == c {
			found = append(found, s)
		}
	}
	if n >= len(found) {
		t.Fatalf("%d sites %s on the line labelled %s, want at least %d", len(found), c, label, n+1)
	}
	return found[n]
}
