//go:build unix

package transpiler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// fakeCommand returns a command that runs the test binary as a fake
// transpiler with the given arguments. Each run's private directory is
// created below c.TempDir, which defaults to a fresh test directory.
func fakeCommand(t *testing.T, c Command, args ...string) Transpiler {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c.Argv = append([]string{self}, args...)
	// Under -race, a Go program that exits 0 sleeps a second first.
	c.Env = append(c.Env, fakeEnv+"=1", "GORACE=atexit_sleep_ms=0")
	if c.TempDir == "" {
		c.TempDir = t.TempDir()
	}
	tr, err := NewCommand(c)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// run transpiles src as traffic.cll and fails the test on an error.
func run(t *testing.T, tr Transpiler, role Role, src string) *Result {
	t.Helper()
	res, err := tr.Transpile(context.Background(), Request{Name: "traffic.cll", Src: []byte(src), Role: role})
	if err != nil {
		t.Fatalf("Transpile: %v", err)
	}
	return res
}

// wantEmptyDir fails the test unless dir is empty: every run directory
// below it has been removed.
func wantEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("%s still holds %v after the run", dir, entries[0].Name())
	}
}

func TestCommandAccepted(t *testing.T) {
	tmp, dir := t.TempDir(), t.TempDir()
	tr := fakeCommand(t, Command{Process: spec.Process{Dir: dir, Env: []string{"MCPT_TEST_EXTRA=extra value", "MCPT_ROLE=forged"}}, TempDir: tmp},
		"copy", "{input}", "{outdir}", "--name={inputname}", "a b $HOME", "{workdir}", `'q' "x"; echo $(id) *`)
	res := run(t, tr, FollowUp, "logic Traffic\n")
	wantStatus(t, res, Accepted)
	if res.ExitCode != 0 || res.Signal != "" {
		t.Errorf("exit %d, signal %q; want 0, none", res.ExitCode, res.Signal)
	}
	wantNames := []string{"main.c", "meta/args.json", "meta/cwd", "meta/extra", "meta/role", "meta/stdin"}
	if got := res.Files.Names(); !slices.Equal(got, wantNames) {
		t.Fatalf("output tree %v, want %v", got, wantNames)
	}
	if got := string(res.Files["main.c"]); got != "logic Traffic\n" {
		t.Errorf("main.c = %q, want the input", got)
	}
	if got := string(res.Files["meta/role"]); got != "follow-up" {
		t.Errorf("MCPT_ROLE = %q, want follow-up (Env must not override it)", got)
	}
	if got := string(res.Files["meta/extra"]); got != "extra value" {
		t.Errorf("MCPT_TEST_EXTRA = %q, want the value from Env", got)
	}
	if got := res.Files["meta/stdin"]; len(got) != 0 {
		t.Errorf("stdin = %q, want empty", got)
	}
	if got, want := evalSymlinks(t, string(res.Files["meta/cwd"])), evalSymlinks(t, dir); got != want {
		t.Errorf("working directory %s, want %s", got, want)
	}

	var args []string
	if err := json.Unmarshal(res.Files["meta/args.json"], &args); err != nil {
		t.Fatal(err)
	}
	if len(args) != 7 {
		t.Fatalf("arguments %q, want 7", args)
	}
	input, out, work := args[1], args[2], args[5]
	if !filepath.IsAbs(input) || filepath.Base(input) != "traffic.cll" || filepath.Dir(input) != filepath.Join(work, "in") {
		t.Errorf("{input} = %q, want <workdir>/in/traffic.cll with workdir %q", input, work)
	}
	if out != filepath.Join(work, "out") {
		t.Errorf("{outdir} = %q, want %s/out", out, work)
	}
	if filepath.Dir(work) != tmp {
		t.Errorf("{workdir} = %q, want a directory in %s", work, tmp)
	}
	if args[3] != "--name=traffic.cll" || args[4] != "a b $HOME" || args[6] != `'q' "x"; echo $(id) *` {
		t.Errorf("arguments %q: placeholders wrong or text not kept literally", args[3:])
	}
	wantEmptyDir(t, tmp)
}

func evalSymlinks(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The flags of a run take the place of {flags}, an argument of its own:
// none, one or several arguments, kept literally.
func TestCommandFlags(t *testing.T) {
	tr := fakeCommand(t, Command{}, "copy", "{input}", "{outdir}", "{flags}", "--last")
	for _, flags := range [][]string{nil, {"--strict"}, {"--target", "es 2022", "{input}", "$HOME"}} {
		res, err := tr.Transpile(context.Background(), Request{Name: "a.cll", Src: []byte("x"), Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, res, Accepted)
		var args []string
		if err := json.Unmarshal(res.Files["meta/args.json"], &args); err != nil {
			t.Fatal(err)
		}
		if len(args) != 4+len(flags) || !slices.Equal(args[3:3+len(flags)], flags) || args[len(args)-1] != "--last" {
			t.Errorf("flags %q: arguments %q", flags, args)
		}
	}
}

func TestCommandRole(t *testing.T) {
	tr := fakeCommand(t, Command{}, "copy", "{input}", "{outdir}")
	for _, role := range []Role{Base, FollowUp} {
		res := run(t, tr, role, "x")
		wantStatus(t, res, Accepted)
		if got := string(res.Files["meta/role"]); got != role.String() {
			t.Errorf("role %v: MCPT_ROLE = %q", role, got)
		}
	}
}

func TestCommandDefaultInputName(t *testing.T) {
	tr := fakeCommand(t, Command{Process: spec.Process{InputName: "seed.cll"}}, "copy", "{input}", "{outdir}", "{inputname}")
	res, err := tr.Transpile(context.Background(), Request{Src: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, Accepted)
	var args []string
	if err := json.Unmarshal(res.Files["meta/args.json"], &args); err != nil {
		t.Fatal(err)
	}
	if args[3] != "seed.cll" {
		t.Errorf("{inputname} = %q, want seed.cll", args[3])
	}
}

func TestCommandBadRequestName(t *testing.T) {
	tmp := t.TempDir()
	tr := fakeCommand(t, Command{TempDir: tmp}, "copy", "{input}", "{outdir}")
	for _, name := range []string{"../x.cll", "dir/x.cll", ".."} {
		if _, err := tr.Transpile(context.Background(), Request{Name: name}); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("name %q: error %v, want one naming it", name, err)
		}
	}
	wantEmptyDir(t, tmp)
}

func TestCommandRejected(t *testing.T) {
	tr := fakeCommand(t, Command{}, "reject", "{input}")
	res := run(t, tr, Base, "garbage")
	wantStatus(t, res, Rejected)
	if res.ExitCode != 1 || res.Files != nil {
		t.Errorf("exit %d, files %v; want 1, none", res.ExitCode, res.Files)
	}
	if want := "traffic.cll:1:1: expected logic, found garbage\n"; string(res.Stderr) != want {
		t.Errorf("stderr %q, want %q", res.Stderr, want)
	}
}

func TestCommandExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name           string
		accept, reject []int
		code           int
		want           Status
	}{
		{"default reject", nil, nil, 1, Rejected},
		{"unexpected code", nil, nil, 3, Crashed},
		{"custom reject", nil, []int{4}, 4, Rejected},
		{"custom reject leaves 1", nil, []int{4}, 1, Crashed},
		{"no reject code", nil, []int{}, 1, Crashed},
		{"custom accept", []int{0, 2}, nil, 2, Accepted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := fakeCommand(t, Command{Process: spec.Process{Accept: tc.accept, Reject: tc.reject}}, "exit", strconv.Itoa(tc.code))
			res := run(t, tr, Base, "")
			wantStatus(t, res, tc.want)
			if res.ExitCode != tc.code || res.Signal != "" {
				t.Errorf("exit %d, signal %q; want %d, none", res.ExitCode, res.Signal, tc.code)
			}
			if want := fmt.Sprintf("exiting with %d\n", tc.code); string(res.Stderr) != want {
				t.Errorf("stderr %q, want %q", res.Stderr, want)
			}
		})
	}
}

func TestCommandSignals(t *testing.T) {
	for _, sig := range []string{"SEGV", "KILL", "ABRT"} {
		t.Run(sig, func(t *testing.T) {
			tr, err := NewCommand(Command{Process: spec.Process{Argv: []string{"/bin/sh", "-c", "echo dying >&2; kill -" + sig + " $$", "{input}"}}, TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			res := run(t, tr, Base, "")
			wantStatus(t, res, Crashed)
			if res.Signal != "SIG"+sig || res.ExitCode != -1 {
				t.Errorf("signal %q, exit %d; want SIG%s, -1", res.Signal, res.ExitCode, sig)
			}
			if string(res.Stderr) != "dying\n" {
				t.Errorf("stderr %q, want the text written before the signal", res.Stderr)
			}
		})
	}
}

func TestCommandStderrBounded(t *testing.T) {
	const max = 1000
	tr := fakeCommand(t, Command{MaxStderrBytes: max}, "noisy", "5000")
	res := run(t, tr, Base, "")
	wantStatus(t, res, Crashed)
	all := noise(5000)
	if want := all[len(all)-max:]; string(res.Stderr) != want {
		t.Errorf("stderr is %d bytes ending %q; want the last %d bytes ending %q",
			len(res.Stderr), tailOf(res.Stderr), max, tailOf([]byte(want)))
	}
}

func tailOf(b []byte) string { return string(b[max(0, len(b)-40):]) }

func TestCommandStdout(t *testing.T) {
	res := run(t, fakeCommand(t, Command{}, "stdout"), Base, "")
	wantStatus(t, res, Accepted)
	if string(res.Stderr) != "on stderr\n" {
		t.Errorf("stderr %q, want standard output left out", res.Stderr)
	}
	res = run(t, fakeCommand(t, Command{CaptureStdout: true}, "stdout"), Base, "")
	if string(res.Stderr) != "on stdout\non stderr\n" {
		t.Errorf("stderr %q, want both streams with CaptureStdout", res.Stderr)
	}
}

// TestCommandDiagnostic: a transpiler that writes its diagnostics on
// standard output only, naming its input relative to its working directory
// as tsc does, has them as its standard error, and the diagnostic names the
// input {input}, not by a path of the run's directory.
func TestCommandDiagnostic(t *testing.T) {
	root := t.TempDir()
	dir, tmp := filepath.Join(root, "work", "pack"), filepath.Join(root, "tmp")
	for _, d := range []string{dir, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	res := run(t, fakeCommand(t, Command{Process: spec.Process{Dir: dir}, TempDir: tmp}, "diagnose", "{input}"), FollowUp, "enum {")
	wantStatus(t, res, Rejected)
	if !strings.Contains(string(res.Stderr), "../../tmp/mcpt-run-") {
		t.Errorf("stderr %q, want the diagnostics written on standard output", res.Stderr)
	}
	if got, want := res.Diagnostic(), "{input}(3,5): error TS1005: ';' expected."; got != want {
		t.Errorf("diagnostic %q, want %q", got, want)
	}
}

func TestCommandOutputCaps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     Command
		args  []string
		want  Status
		inErr string
	}{
		{"within caps", Command{Process: spec.Process{MaxOutputFiles: 3, MaxOutputBytes: 300}}, []string{"files", "3", "100", "{outdir}"}, Accepted, ""},
		{"too many files", Command{Process: spec.Process{MaxOutputFiles: 3}}, []string{"files", "4", "1", "{outdir}"}, Crashed, "more than 3 files"},
		{"too many bytes", Command{Process: spec.Process{MaxOutputBytes: 300}}, []string{"files", "3", "101", "{outdir}"}, Crashed, "more than 300 bytes"},
		{"no caps", Command{Process: spec.Process{MaxOutputFiles: -1, MaxOutputBytes: -1}}, []string{"files", "20", "1000", "{outdir}"}, Accepted, ""},
		{"symlink", Command{}, []string{"symlink", "{outdir}"}, Crashed, "passwd.c: a symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			tc.c.TempDir = tmp
			res := run(t, fakeCommand(t, tc.c, tc.args...), Base, "")
			wantStatus(t, res, tc.want)
			if tc.want == Crashed {
				if res.Files != nil || res.ExitCode != 0 {
					t.Errorf("files %v, exit %d; want none, 0", res.Files, res.ExitCode)
				}
				if !bytes.Contains(res.Stderr, []byte("mcpt: output tree: ")) || !bytes.Contains(res.Stderr, []byte(tc.inErr)) {
					t.Errorf("stderr %q, want an mcpt note containing %q", res.Stderr, tc.inErr)
				}
			}
			wantEmptyDir(t, tmp)
		})
	}
}

func TestCommandReadOnlyOutputRemoved(t *testing.T) {
	tmp := t.TempDir()
	res := run(t, fakeCommand(t, Command{TempDir: tmp}, "readonly", "{outdir}"), Base, "")
	wantStatus(t, res, Accepted)
	if string(res.Files["ro/x.c"]) != "int x;\n" {
		t.Errorf("output %v, want ro/x.c", res.Files.Names())
	}
	wantEmptyDir(t, tmp)
}

// readPids waits for the fake transpiler to write its own pid and its
// grandchild's into file.
func readPids(t *testing.T, file string, wait time.Duration) (child, grandchild int) {
	t.Helper()
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(file)
		if err == nil {
			if _, err := fmt.Sscan(string(b), &child, &grandchild); err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			return child, grandchild
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake transpiler did not write %s: %v", file, err)
		}
	}
}

// wantGone fails the test unless process pid ends (is reaped, or is a
// zombie nobody reaps) within a generous delay: the processes were killed,
// the delay is only the kernel's.
func wantGone(t *testing.T, what string, pid int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if gone(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) still runs", what, pid)
			_ = unix.Kill(pid, unix.SIGKILL)
			return
		}
	}
}

func gone(pid int) bool {
	if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) STATE …; comm may contain spaces and parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

func TestCommandTimeoutKillsGroup(t *testing.T) {
	t.Parallel() // it waits for its timeout
	tmp := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	const timeout = 5 * time.Second // long enough for the fake to start its grandchild
	tr := fakeCommand(t, Command{Process: spec.Process{Timeout: timeout}, TempDir: tmp}, "hang", pids)
	res := run(t, tr, Base, "")
	wantStatus(t, res, TimedOut)
	if res.Signal != "SIGKILL" || res.ExitCode != -1 || res.Files != nil {
		t.Errorf("signal %q, exit %d, files %v; want SIGKILL, -1, none", res.Signal, res.ExitCode, res.Files)
	}
	if string(res.Stderr) != "started\n" {
		t.Errorf("stderr %q, want what the fake wrote before it hung", res.Stderr)
	}
	child, grandchild := readPids(t, pids, 0)
	wantGone(t, "transpiler", child)
	wantGone(t, "grandchild", grandchild)
	wantEmptyDir(t, tmp)
}

func TestCommandContextDeadline(t *testing.T) {
	tmp := t.TempDir()
	tr := fakeCommand(t, Command{TempDir: tmp}, "sleep")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := tr.Transpile(ctx, Request{Name: "x.cll"})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, TimedOut)
	wantEmptyDir(t, tmp)

	// A context that is over before the run starts starts nothing.
	res, err = tr.Transpile(ctx, Request{Name: "x.cll"})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, TimedOut)
}

func TestCommandCancelKillsGroup(t *testing.T) {
	tmp := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	tr := fakeCommand(t, Command{TempDir: tmp}, "hang", pids)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type ret struct {
		res *Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := tr.Transpile(ctx, Request{Name: "x.cll"})
		done <- ret{res, err}
	}()
	child, grandchild := readPids(t, pids, 30*time.Second)
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) || r.res != nil {
		t.Fatalf("Transpile = %v, %v; want no result and context.Canceled", r.res, r.err)
	}
	wantGone(t, "transpiler", child)
	wantGone(t, "grandchild", grandchild)
	wantEmptyDir(t, tmp)

	if _, err := tr.Transpile(ctx, Request{Name: "x.cll"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Transpile with a cancelled context: %v, want context.Canceled", err)
	}
	wantEmptyDir(t, tmp)
}

// A grandchild that keeps standard error open after the transpiler exited
// must neither hang the run nor outlive it.
func TestCommandLingeringGrandchild(t *testing.T) {
	tmp := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	tr := fakeCommand(t, Command{TempDir: tmp, WaitDelay: 50 * time.Millisecond}, "orphan", pids)
	res := run(t, tr, Base, "")
	wantStatus(t, res, Accepted)
	if string(res.Stderr) != "started\n" {
		t.Errorf("stderr %q", res.Stderr)
	}
	child, grandchild := readPids(t, pids, 0)
	wantGone(t, "transpiler", child)
	wantGone(t, "grandchild", grandchild)
	wantEmptyDir(t, tmp)
}

// The group is killed when the transpiler exits: a grandchild holding
// standard error open costs no wait, however long WaitDelay is.
func TestCommandLingeringGrandchildNoWait(t *testing.T) {
	tmp := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	tr := fakeCommand(t, Command{TempDir: tmp, WaitDelay: time.Hour}, "orphan", pids)
	done := make(chan *Result, 1)
	go func() {
		res, err := tr.Transpile(context.Background(), Request{Name: "x.cll"})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	child, grandchild := readPids(t, pids, 30*time.Second)
	select {
	case res := <-done:
		if res != nil {
			wantStatus(t, res, Accepted)
		}
	case <-time.After(20 * time.Second): // the grandchild sleeps an hour
		t.Errorf("the run waits for a grandchild that holds standard error")
		_ = unix.Kill(grandchild, unix.SIGKILL)
		<-done
	}
	wantGone(t, "transpiler", child)
	wantGone(t, "grandchild", grandchild)
	wantEmptyDir(t, tmp)
}

func TestCommandConcurrent(t *testing.T) {
	tmp := t.TempDir()
	counter := Counting(fakeCommand(t, Command{TempDir: tmp}, "copy", "{input}", "{outdir}"))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			role := Role(i % 2)
			src := fmt.Sprintf("program %d\n", i)
			res, err := counter.Transpile(context.Background(), Request{Name: "p.cll", Src: []byte(src), Role: role})
			switch {
			case err != nil:
				errs[i] = err
			case res.Status != Accepted:
				errs[i] = fmt.Errorf("status %v, stderr %q", res.Status, res.Stderr)
			case string(res.Files["main.c"]) != src || string(res.Files["meta/role"]) != role.String():
				errs[i] = fmt.Errorf("output %q role %q, want %q %v", res.Files["main.c"], res.Files["meta/role"], src, role)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	if s := counter.Stats(); s.Base != 4 || s.FollowUp != 4 || s.Accepted != 8 || s.Errors != 0 {
		t.Errorf("stats %+v, want 4 base and 4 follow-up runs, all accepted", s)
	}
	wantEmptyDir(t, tmp)
}

func TestNewCommandErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notexec")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "tool")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    Command
		want string // in the error
	}{
		{"empty", Command{}, "empty command line"},
		{"empty program", Command{Process: spec.Process{Argv: []string{""}}}, "empty command line"},
		{"missing", Command{Process: spec.Process{Argv: []string{"mcpt-no-such-transpiler"}}}, `"mcpt-no-such-transpiler": not found in $PATH`},
		{"missing path", Command{Process: spec.Process{Argv: []string{filepath.Join(dir, "absent")}}}, "absent"},
		{"not executable", Command{Process: spec.Process{Argv: []string{plain}}}, plain + `": not an executable file`},
		{"not executable in dir", Command{Process: spec.Process{Argv: []string{"./notexec"}, Dir: dir}}, `"./notexec" (in ` + dir + `): not an executable file`},
		{"directory", Command{Process: spec.Process{Argv: []string{dir}}}, dir},
		{"missing dir", Command{Process: spec.Process{Argv: []string{"true"}, Dir: filepath.Join(dir, "nodir")}}, "nodir"},
		{"dir is a file", Command{Process: spec.Process{Argv: []string{"true"}, Dir: plain}}, "not a directory"},
		{"missing temp dir", Command{Process: spec.Process{Argv: []string{"true"}}, TempDir: filepath.Join(dir, "notmp")}, "notmp"},
		{"unknown placeholder", Command{Process: spec.Process{Argv: []string{"true", "--in={inptu}"}}}, "unknown placeholder {inptu}"},
		{"flags in an argument", Command{Process: spec.Process{Argv: []string{"true", "--opts={flags}"}}}, "{flags} stands for several arguments: write it as an argument of its own"},
		{"placeholder in program", Command{Process: spec.Process{Argv: []string{"{workdir}/tool"}}}, "cannot contain placeholders"},
		{"bad env", Command{Process: spec.Process{Argv: []string{"true"}, Env: []string{"NOEQUALS"}}}, `"NOEQUALS"`},
		{"negative timeout", Command{Process: spec.Process{Argv: []string{"true"}, Timeout: -time.Second}}, "negative timeout"},
		{"negative wait delay", Command{Process: spec.Process{Argv: []string{"true"}}, WaitDelay: -time.Second}, "negative wait delay"},
		{"negative stderr", Command{Process: spec.Process{Argv: []string{"true"}}, MaxStderrBytes: -1}, "negative standard error limit"},
		{"no accept", Command{Process: spec.Process{Argv: []string{"true"}, Accept: []int{}}}, "no exit code is accepted"},
		{"overlap", Command{Process: spec.Process{Argv: []string{"true"}, Reject: []int{0}}}, "exit code 0 both accepts and rejects"},
		{"bad code", Command{Process: spec.Process{Argv: []string{"true"}, Accept: []int{256}}}, "256"},
		{"bad input name", Command{Process: spec.Process{Argv: []string{"true"}, InputName: "a/b"}}, `"a/b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCommand(tc.c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewCommand: %v, want an error containing %q", err, tc.want)
			}
		})
	}

	// The same names resolve when they are fine.
	for _, c := range []Command{
		{Process: spec.Process{Argv: []string{"true"}}},
		{Process: spec.Process{Argv: []string{"./tool"}, Dir: dir}},
		{Process: spec.Process{Argv: []string{script, "{input}", "{outdir}", "{inputname}", "{workdir}", "{flags}", "{not a placeholder}", "{}"}}},
	} {
		if _, err := NewCommand(c); err != nil {
			t.Errorf("NewCommand(%q): %v", c.Argv, err)
		}
	}
}

// The command does not depend on the caller's later changes to the
// Command it was built from.
func TestNewCommandCopies(t *testing.T) {
	argv := []string{"/bin/sh", "-c", "exit 0"}
	tr, err := NewCommand(Command{Process: spec.Process{Argv: argv}, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	argv[2] = "exit 7"
	wantStatus(t, run(t, tr, Base, ""), Accepted)
}

func TestTail(t *testing.T) {
	var all []byte
	tl := newTail(10)
	for i, chunk := range []string{"abc", "defghij", "k", "", "lmnopqrstuvwxyz0123", "45", "6", "789"} {
		if n, err := tl.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
		all = append(all, chunk...)
		want := all[max(0, len(all)-10):]
		if got := tl.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("after write %d: %q, want %q", i, got, want)
		}
	}
}
