package transpiler

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

func TestRelease(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := spec.Env{fakeEnv + "=1", "GORACE=atexit_sleep_ms=0"}
	version := func(args ...string) spec.Spec {
		return spec.Spec{Kind: spec.Command, Version: append([]string{self}, args...), Process: spec.Process{Env: env, Timeout: 5 * time.Second}}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"print", "Version 5.9.3\n"}, "5.9.3"},
		{[]string{"print", "", "protoc-gen-go v1.36.12\n"}, "v1.36.12"}, // on standard error
		{[]string{"print", "node 20\ntsc 3.5.0-beta\n"}, "3.5.0-beta"},
	} {
		v, ok, err := Release(context.Background(), version(c.args...))
		if err != nil || !ok || v.Text != c.want {
			t.Errorf("%q: %q %v %v, want %q", c.args, v.Text, ok, err, c.want)
		}
	}
	for _, c := range []struct {
		s    spec.Spec
		want string
	}{
		{version("print", "no number here\n"), `printed no version number such as 5.9.3 or v1.26.0: "no number here"`},
		{version("print", ""), "printed nothing"},
		{version("exit", "3"), `exit status 3: "exiting with 3"`},
		{spec.Spec{Kind: spec.Worker, Version: []string{"mcpt-no-such-tsc", "--version"}}, `"mcpt-no-such-tsc": not found in $PATH`},
		{spec.Spec{Kind: spec.Command, Version: []string{self, "sleep"}, Process: spec.Process{Env: env, Timeout: 100 * time.Millisecond}}, "did not finish within 100ms"},
	} {
		_, ok, err := Release(context.Background(), c.s)
		if !ok || err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "transpiler version command") {
			t.Errorf("%q: %v, want an error with %q", c.s.Version, err, c.want)
		}
	}
	if _, ok, err := Release(context.Background(), spec.Spec{Kind: spec.Command}); ok || err != nil {
		t.Errorf("no version command: %v %v", ok, err)
	}
	// A builtin or a service runs no command, a version command neither
	// (a bundle's builtin runs without --trust).
	for _, k := range []spec.Kind{spec.Builtin, spec.HTTP} {
		s := version("print", "Version 5.9.3\n")
		s.Kind = k
		if _, ok, err := Release(context.Background(), s); ok || err != nil {
			t.Errorf("%s: %v %v", k, ok, err)
		}
	}
}
