package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// exitInterrupted is mcpt's exit status after an interrupt.
const exitInterrupted = 4

var (
	toolsOnce sync.Once
	toolsDir  string
	toolsErr  error
)

// buildTools builds mcpt and cllc once into a temporary directory, removed
// by TestMain.
func buildTools(t *testing.T) string {
	t.Helper()
	toolsOnce.Do(func() {
		toolsDir, toolsErr = os.MkdirTemp("", "mcpt-tools-")
		for _, cmd := range []string{"mcpt", "cllc"} {
			if toolsErr != nil {
				return
			}
			b := exec.Command("go", "build", "-o", filepath.Join(toolsDir, cmd), "github.com/mcpt-tool/mcpt/cmd/"+cmd)
			if out, err := b.CombinedOutput(); err != nil {
				toolsErr = fmt.Errorf("building %s: %v\n%s", cmd, err, out)
			}
		}
	})
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsDir
}

// killAfterFindings starts cmd, reads the findings it prints and kills it
// with SIGKILL after the nth; it returns their IDs.
func killAfterFindings(t *testing.T, cmd *exec.Cmd, n int) []string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var printed []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "finding "); ok {
			id, _, _ = strings.Cut(id, ":")
			printed = append(printed, id)
			if len(printed) == n {
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
	}
	cmd.Wait()
	if len(printed) < n {
		t.Fatalf("the run ended before it could be killed (%d findings printed)", len(printed))
	}
	return printed
}

// TestKillAndResume kills a campaign with SIGKILL while it runs, checks that
// every finding it had printed is in its journal, resumes it, and compares
// the final findings with those of an uninterrupted run.
func TestKillAndResume(t *testing.T) {
	testtier.Long(t, "campaigns of an external cllc killed and resumed")
	bin := buildTools(t)
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	dir := t.TempDir()
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	mcpt := filepath.Join(bin, "mcpt")

	// --fault needs a builtin transpiler: the external cllc gets it through
	// its own flag instead, from a configuration written here.
	cfg := filepath.Join(dir, "mcpt.yaml")
	os.WriteFile(cfg, []byte(strings.Join([]string{
		"transpiler:",
		"  command: [cllc, --fault, sorted-resets, '{input}', -o, '{outdir}']",
		"seeds: {files: ['" + examples + "/*.cll']}",
		"relations: {files: ['" + examples + "/relations/*.yaml']}",
	}, "\n")+"\n"), 0o644)
	args := func(out string, extra ...string) []string {
		a := []string{"run", "-c", cfg, "--seed", "3", "--max-cases", "400", "--workers", "2", "-v"}
		return append(append(a, extra...), "-o", out)
	}

	full := exec.Command(mcpt, args(filepath.Join(dir, "full"))...)
	full.Env = env
	if out, err := full.CombinedOutput(); procExit(err) != 1 {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := reportIDs(t, filepath.Join(dir, "full"))
	if len(want) == 0 {
		t.Fatal("the campaign has no findings")
	}

	killed := filepath.Join(dir, "killed")
	cmd := exec.Command(mcpt, args(killed)...)
	cmd.Env = env
	printed := killAfterFindings(t, cmd, 5)
	journal, err := os.ReadFile(filepath.Join(killed, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(killed, "report.json")); err == nil {
		t.Fatal("the killed run wrote its report: it was not killed in the middle")
	}
	for _, id := range printed {
		if !bytes.Contains(journal, []byte(`"id":"`+id+`"`)) {
			t.Errorf("finding %s was printed but is not in the journal", id)
		}
		// The archive is there whole: it reads back.
		if _, err := bundle.Load(filepath.Join(killed, filepath.FromSlash(bundle.Path(id)))); err != nil {
			t.Errorf("finding %s was printed but its bundle is missing: %v", id, err)
		}
	}

	resume := exec.Command(mcpt, append(args(killed)[:len(args(killed))-2], "--resume", killed)...)
	resume.Env = env
	if out, err := resume.CombinedOutput(); procExit(err) != 1 {
		t.Fatalf("resumed run: %v\n%s", err, out)
	}
	if got := reportIDs(t, killed); !slices.Equal(got, want) {
		t.Errorf("after kill -9 and resume: %d findings, uninterrupted: %d", len(got), len(want))
	}
}

func procExit(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func reportIDs(t *testing.T, dir string) []string {
	t.Helper()
	r, err := result.Load(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, f.ID+" "+f.Signature)
	}
	return ids
}

// TestInterrupt: the first SIGINT finishes the test cases in flight, writes
// the report of what ran and exits 4: the campaign is incomplete.
func TestInterrupt(t *testing.T) {
	bin := buildTools(t)
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(filepath.Join(bin, "mcpt"), "run", "-c", filepath.Join(examples, "mcpt-exec.yaml"),
		"--max-cases", "100000", "-o", out)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until test cases are being journaled, then interrupt.
	for i := 0; ; i++ {
		b, _ := os.ReadFile(filepath.Join(out, "journal.jsonl"))
		if bytes.Count(b, []byte("\n")) > 20 {
			break
		}
		if i > 6000 {
			cmd.Process.Kill()
			t.Fatal("the campaign journaled nothing")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if procExit(err) != exitInterrupted {
		t.Fatalf("exit %v after an interrupt, want %d\n%s", err, exitInterrupted, stderr.String())
	}
	r, err := result.Load(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Stopped != "interrupted" || r.TestCases == 0 || r.TestCases >= 100000 {
		t.Errorf("report after an interrupt: stopped %q, %d test cases", r.Stopped, r.TestCases)
	}
	if !strings.Contains(stderr.String(), "finishing the test cases in flight") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
