package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestNothingCheckedExitStatus: a campaign whose every seed the transpiler
// rejects checked nothing and exits with status 3, not 0.
func TestNothingCheckedExitStatus(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcpt.yaml")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "bad.cll"), "this is not CLL\n")
	write(cfg, "transpiler: {builtin: cllc}\nseeds: {files: [bad.cll]}\nrelations: {files: ['"+filepath.Join(examples, "relations", "*.yaml")+"']}\n")
	if code := Run([]string{"run", "-q", "-c", cfg, "-o", filepath.Join(dir, "out"), "--max-cases", "10"}, &setup.Tools{Builtins: cllc.Builtins()}); code != exitBroken {
		t.Errorf("exit status %d, want %d", code, exitBroken)
	}
}

// TestResumeRefusedExitStatus: resuming under other faults than the
// journal's, or from a journal damaged in the middle, is a usage error
// (exit status 2), not a campaign mixing two transpilers.
func TestResumeRefusedExitStatus(t *testing.T) {
	cfg, err := filepath.Abs(filepath.Join("..", "..", "examples", "cll", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "-q", "-c", cfg, "--max-cases", "30"}
	if code := Run(append(args, "-o", out, "--fault", "reverse-enums"), &setup.Tools{Builtins: cllc.Builtins()}); code != exitFindings {
		t.Fatalf("first run: exit status %d", code)
	}
	if code := Run(append(args, "--resume", out), &setup.Tools{Builtins: cllc.Builtins()}); code != exitUsage {
		t.Errorf("resume without the fault: exit status %d, want %d", code, exitUsage)
	}
	journal := filepath.Join(out, "journal.jsonl")
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[5] = "{\"case\": 4,\n"
	if err := os.WriteFile(journal, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := Run(append(args, "--resume", out, "--fault", "reverse-enums"), &setup.Tools{Builtins: cllc.Builtins()}); code != exitUsage {
		t.Errorf("resume from a damaged journal: exit status %d, want %d", code, exitUsage)
	}
}
