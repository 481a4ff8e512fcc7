package main

import (
	"os"
	"path/filepath"
	"testing"
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
	if code := run([]string{"run", "-q", "-c", cfg, "-o", filepath.Join(dir, "out"), "--max-cases", "10"}); code != exitBroken {
		t.Errorf("exit status %d, want %d", code, exitBroken)
	}
}
