package transpiler

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// fakeEnv, when set in the environment, turns the test binary into a fake
// transpiler whose behaviour is chosen by its first argument.
const fakeEnv = "MCPT_FAKE_TRANSPILER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		os.Exit(fake(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fake behaves as a transpiler; it returns its exit code.
func fake(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "fake: no mode")
		return 99
	}
	mode, args := args[0], args[1:]
	must := func(err error) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake:", err)
			os.Exit(98)
		}
	}
	switch mode {
	case "copy": // copy INPUT OUTDIR ARGS…: echoes its input, arguments and environment
		src, err := os.ReadFile(args[0])
		must(err)
		out := args[1]
		must(os.WriteFile(filepath.Join(out, "main.c"), src, 0o644))
		must(os.Mkdir(filepath.Join(out, "meta"), 0o755))
		js, err := json.Marshal(os.Args[1:])
		must(err)
		must(os.WriteFile(filepath.Join(out, "meta", "args.json"), js, 0o644))
		must(os.WriteFile(filepath.Join(out, "meta", "role"), []byte(os.Getenv("MCPT_ROLE")), 0o644))
		must(os.WriteFile(filepath.Join(out, "meta", "extra"), []byte(os.Getenv("MCPT_TEST_EXTRA")), 0o644))
		cwd, err := os.Getwd()
		must(err)
		must(os.WriteFile(filepath.Join(out, "meta", "cwd"), []byte(cwd), 0o644))
		stdin, err := os.ReadFile("/dev/stdin")
		must(err)
		must(os.WriteFile(filepath.Join(out, "meta", "stdin"), stdin, 0o644))
		return 0
	case "reject": // reject INPUT
		fmt.Fprintf(os.Stderr, "%s:1:1: expected logic, found garbage\n", filepath.Base(args[0]))
		return 1
	case "diagnose": // diagnose INPUT: tsc's way, rejects on standard output naming the input relative to the working directory
		cwd, err := os.Getwd()
		must(err)
		rel, err := filepath.Rel(cwd, args[0])
		must(err)
		fmt.Printf("%s(3,5): error TS1005: ';' expected.\n%s(4,1): error TS1128: Declaration or statement expected.\n", rel, rel)
		return 1
	case "exit": // exit CODE
		code, err := strconv.Atoi(args[0])
		must(err)
		fmt.Fprintf(os.Stderr, "exiting with %d\n", code)
		return code
	case "noisy": // noisy N: N lines of standard error, then a crash
		n, err := strconv.Atoi(args[0])
		must(err)
		fmt.Fprint(os.Stderr, noise(n))
		return 3
	case "stdout":
		fmt.Fprintln(os.Stdout, "on stdout")
		fmt.Fprintln(os.Stderr, "on stderr")
		return 0
	case "files": // files N SIZE OUTDIR
		n, err := strconv.Atoi(args[0])
		must(err)
		size, err := strconv.Atoi(args[1])
		must(err)
		for i := range n {
			must(os.WriteFile(filepath.Join(args[2], fmt.Sprintf("f%03d.c", i)), make([]byte, size), 0o644))
		}
		return 0
	case "symlink": // symlink OUTDIR
		must(os.WriteFile(filepath.Join(args[0], "ok.c"), []byte("int x;\n"), 0o644))
		must(os.Symlink("/etc/passwd", filepath.Join(args[0], "passwd.c")))
		return 0
	case "readonly": // readonly OUTDIR: output the tester may read but not delete
		dir := filepath.Join(args[0], "ro")
		must(os.Mkdir(dir, 0o755))
		must(os.WriteFile(filepath.Join(dir, "x.c"), []byte("int x;\n"), 0o444))
		must(os.Chmod(dir, 0o555))
		return 0
	case "hang", "orphan": // hang|orphan PIDFILE: start a sleeping grandchild, then hang or exit
		self, err := os.Executable()
		must(err)
		gc := exec.Command(self, "sleep")
		gc.Stderr = os.Stderr // the grandchild holds the stderr pipe too
		must(gc.Start())
		tmp := args[0] + ".tmp"
		must(os.WriteFile(tmp, fmt.Appendf(nil, "%d %d", os.Getpid(), gc.Process.Pid), 0o644))
		must(os.Rename(tmp, args[0]))
		fmt.Fprintln(os.Stderr, "started")
		if mode == "orphan" {
			return 0
		}
		time.Sleep(time.Hour)
		return 97
	case "sleep":
		time.Sleep(time.Hour)
		return 97
	case "print": // print STDOUT [STDERR]: writes them, then exits 0
		fmt.Print(args[0])
		if len(args) > 1 {
			fmt.Fprint(os.Stderr, args[1])
		}
		return 0
	case "worker": // a persistent worker; see fakeWorker
		return fakeWorker()
	case "parent": // parent PIDFILE: run "hang PIDFILE" as a transpiler, as mcpt would
		self, err := os.Executable()
		must(err)
		tr, err := NewCommand(Command{Process: spec.Process{Argv: []string{self, "hang", args[0]}}})
		must(err)
		_, err = tr.Transpile(context.Background(), Request{Name: "x.cll"})
		must(err)
		return 97
	}
	fmt.Fprintln(os.Stderr, "fake: unknown mode", mode)
	return 99
}

// noise is n numbered lines, so that any tail of it is recognisable.
func noise(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %06d of the noise\n", i)
	}
	return b.String()
}

// fakeWorker serves WorkRequests whose arguments are INPUT OUTDIR [ROLE].
// What it does depends on the input: DIE exits in the middle of the
// request, HANG never answers, GARBAGE answers with something else, WRONGID
// answers another request, REJECT answers exit code 1, EXIT7 exit code 7,
// TWICE answers exit code 7 twice;
// anything else is copied to OUTDIR/main.c, with the worker's pid, the
// number of requests it served and the role in OUTDIR/meta, and the
// request's arguments in OUTDIR/args.json.
func fakeWorker() int {
	in := bufio.NewScanner(os.Stdin)
	served := 0
	for in.Scan() {
		var req struct {
			Arguments []string
			RequestID int64
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			return 98
		}
		served++
		src, err := os.ReadFile(req.Arguments[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			return 98
		}
		respond := func(code int, output string) {
			b, _ := json.Marshal(map[string]any{"exitCode": code, "output": output, "requestId": req.RequestID})
			os.Stdout.Write(append(b, '\n'))
		}
		switch s := string(src); {
		case strings.Contains(s, "DIE"):
			fmt.Fprintln(os.Stderr, "dying")
			return 3
		case strings.Contains(s, "HANG"):
			time.Sleep(time.Hour)
		case strings.Contains(s, "GARBAGE"):
			fmt.Println("Exception in thread main")
		case strings.Contains(s, "WRONGID"):
			req.RequestID += 100
			respond(0, "")
		case strings.Contains(s, "REJECT"):
			respond(1, "input:1:1: rejected")
		case strings.Contains(s, "EXIT7"):
			respond(7, "internal error")
		case strings.Contains(s, "TWICE"):
			respond(7, "once")
			respond(7, "twice")
		default:
			role := ""
			if len(req.Arguments) > 2 {
				role = req.Arguments[2]
			}
			out := req.Arguments[1]
			if err := os.WriteFile(filepath.Join(out, "main.c"), src, 0o644); err != nil {
				respond(2, err.Error())
				continue
			}
			args, _ := json.Marshal(req.Arguments)
			if err := os.WriteFile(filepath.Join(out, "args.json"), args, 0o644); err != nil {
				respond(2, err.Error())
				continue
			}
			meta := fmt.Sprintf("%d %d %s", os.Getpid(), served, role)
			if err := os.WriteFile(filepath.Join(out, "meta"), []byte(meta), 0o644); err != nil {
				respond(2, err.Error())
				continue
			}
			respond(0, "ok")
		}
	}
	return 0
}
