package bench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// TestBareRunProcess: a bare run of a configured command replaces the
// placeholders, finds a program named with a slash in the command's
// directory, adds its environment, and takes the exit statuses the
// command accepts or rejects as runs, any other as an error.
func TestBareRunProcess(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as the transpiler")
	}
	dir := t.TempDir()
	// The command's directory relative to the working directory, the
	// program relative to it (../t.sh from c is t.sh in dir).
	t.Chdir(dir)
	if err := os.Mkdir("c", 0o755); err != nil {
		t.Fatal(err)
	}
	copyTo := filepath.Join(dir, "copy")
	script := "#!/bin/sh\n[ \"$3\" = in.txt ] || exit 9\ncp \"$1\" \"$COPY\" && : > \"$2/out.txt\" && exit \"$CODE\"\n"
	if err := os.WriteFile(filepath.Join(dir, "t.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	req := transpiler.Request{Name: "in.txt", Src: []byte("hello\n")}
	p := func(code string, accept, reject []int) spec.Process {
		return spec.Process{
			Argv: []string{"../t.sh", transpiler.PlaceholderInput, transpiler.PlaceholderOutDir, transpiler.PlaceholderInputName},
			Dir:  "c", Env: spec.Env{"CODE=" + code, "COPY=" + copyTo}, Accept: accept, Reject: reject,
		}
	}
	if err := bareRun(context.Background(), p("0", nil, nil), req); err != nil {
		t.Fatalf("exit 0: %v", err)
	}
	if b, err := os.ReadFile(copyTo); err != nil || string(b) != "hello\n" {
		t.Fatalf("the input the command got: %q, %v", b, err)
	}
	for _, c := range []struct {
		code           string
		accept, reject []int
		ok             bool
	}{{"1", nil, nil, true}, {"3", nil, nil, false}, {"3", nil, []int{3}, true}, {"4", []int{4}, []int{}, true}, {"1", nil, []int{}, false}} {
		err := bareRun(context.Background(), p(c.code, c.accept, c.reject), req)
		if (err == nil) != c.ok {
			t.Errorf("exit %s, accept %v, reject %v: error %v, want ok %v", c.code, c.accept, c.reject, err, c.ok)
		}
	}
}

func TestMedianPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	if m := median(xs); m != 3 {
		t.Errorf("median = %v, want 3", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of four = %v, want 2.5", m)
	}
	if xs[0] != 5 {
		t.Error("median sorted its argument")
	}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {0.5, 3}, {0.99, 5}, {1, 5}} {
		if got := percentile(xs, c.p); got != c.want {
			t.Errorf("percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if !math.IsNaN(median(nil)) || !math.IsNaN(percentile(nil, 0.5)) {
		t.Error("empty samples should give NaN")
	}
}

// benchEnv loads the example with cllc in process only.
func benchEnv(b *testing.B) *env {
	b.Helper()
	opt := Options{Examples: filepath.Join("..", "examples", "cll"), Cllc: "/bin/true"}
	opt.fill()
	e, cleanup, err := load(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	return e
}

// BenchmarkCheck times FollowUp.Check over the check cases of the bench,
// one case per iteration in turn: the hot path of MCP over fuzzing.
func BenchmarkCheck(b *testing.B) {
	e := benchEnv(b)
	cases, _, err := e.checkCases(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		c := cases[i%len(cases)]
		c.fu.Check(c.o, c.o2)
	}
}

// BenchmarkCampaignInProcess runs MCP and fuzz campaigns with cllc in
// process, with 1 and 2 workers.
func BenchmarkCampaignInProcess(b *testing.B) {
	e := benchEnv(b)
	for _, bc := range []struct {
		name    string
		mode    engine.Mode
		workers int
	}{{"mcp-1w", engine.MCP, 1}, {"fuzz-1w", engine.Fuzz, 1}, {"mcp-2w", engine.MCP, 2}, {"fuzz-2w", engine.Fuzz, 2}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				if _, err := e.runCampaign(context.Background(), e.campaign(e.inproc.Transpiler, bc.mode, bc.workers, 500)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(500*b.N)/b.Elapsed().Seconds(), "cases/s")
		})
	}
}

// BenchmarkExternalRun compares one run of the external cllc through the
// command adapter with the same run in the bare loop; the difference is
// the adapter's cost per run.
func BenchmarkExternalRun(b *testing.B) {
	dir := b.TempDir()
	root, err := ModuleRoot(".")
	if err != nil {
		b.Fatal(err)
	}
	cllc, err := BuildCllc(context.Background(), root, dir)
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Examples: filepath.Join("..", "examples", "cll"), Cllc: cllc}
	opt.fill()
	e, cleanup, err := load(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	seed := e.inproc.Seeds[0]
	req := transpiler.Request{Name: filepath.Base(seed.Name), Src: seed.Src, Role: transpiler.FollowUp}
	b.Run("adapter", func(b *testing.B) {
		for range b.N {
			r, err := e.exec.Transpile(context.Background(), req)
			if err != nil || r.Status != transpiler.Accepted {
				b.Fatal(r, err)
			}
		}
	})
	b.Run("bare", func(b *testing.B) {
		for range b.N {
			if err := bareRun(context.Background(), cllcProcess(cllc), req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
