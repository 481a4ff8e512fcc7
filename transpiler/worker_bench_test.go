//go:build unix

package transpiler

import (
	"context"
	"os"
	"testing"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// BenchmarkStartUp compares a run of the fake transpiler (the test binary,
// so a Go program's start-up) as a command per run and as a warm worker:
// the gain a worker brings for a transpiler that starts fast; slow starters
// (node, a JVM) gain more.
func BenchmarkStartUp(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	env := []string{fakeEnv + "=1", "GORACE=atexit_sleep_ms=0"}
	cmd, err := NewCommand(Command{Process: spec.Process{Argv: []string{self, "copy", "{input}", "{outdir}"}, Env: env}, TempDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWorker(Worker{Command: Command{Process: spec.Process{Argv: []string{self, "worker"}, Env: env}, TempDir: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for _, tc := range []struct {
		name string
		t    Transpiler
	}{{"command", cmd}, {"worker", w}} {
		b.Run(tc.name, func(b *testing.B) {
			req := Request{Name: "p.cll", Src: []byte("logic P\n")}
			for b.Loop() {
				res, err := tc.t.Transpile(context.Background(), req)
				if err != nil || res.Status != Accepted {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
