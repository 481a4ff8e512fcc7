package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInterruptParse: an interrupt stops a seed's parse (here with a
// grammar that reads a sum in many ways, which takes minutes before the
// parse's step budget ends it): validate exits 4 at once.
func TestInterruptParse(t *testing.T) {
	bin := buildTools(t)
	dir := t.TempDir()
	group := "(" + strings.Repeat("1 + ", 999) + "1)"
	seed := strings.Repeat(group+" * ", 599) + group + "\n"
	files := map[string]string{
		"sum.grammar": "program = expr;\nexpr = expr \" + \" expr | expr \" * \" expr | \"(\" expr \")\" | [0-9];\n",
		"rels/r.yaml": `syntax: ../sum.grammar
regions:
  top: {node: [program]}
kinds:
  term: {region: top, node: [expr], match: '^(?P<name>.*)$'}
relations:
  - name: add-term
    doc: Add a term.
    spots: {boundaries: top}
    text: '1'
    checks:
      - equivalence: {}
`,
		"big.sum":   seed,
		"mcpt.yaml": "transpiler:\n  command: [cat, '{input}']\nseeds:\n  files: ['*.sum']\nrelations:\n  files: ['rels/*.yaml']\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(filepath.Join(bin, "mcpt"), "validate", "--no-run")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // (the relations load; the parse starts)
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if procExit(err) != exitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
			t.Fatalf("exit %v after an interrupt, want %d\n%s", err, exitInterrupted, stderr.String())
		}
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("validate went on parsing for minutes after an interrupt\n%s", stderr.String())
	}
}
