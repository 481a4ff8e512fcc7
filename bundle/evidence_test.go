package bundle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// TestEvidencePacked: a bundle keeps a finding's expected and actual
// content as edits of its follow-up output's failing file, which Load,
// FillEvidence and FindingEvidence give back whole; a finding whose file
// the bundle lacks keeps them whole; a file edited since gives nothing
// back rather than other evidence.
func TestEvidencePacked(t *testing.T) {
	var raw, actual strings.Builder
	for i := range 200 {
		line := "  write(field" + strings.Repeat("x", i%7) + ", _iter"
		raw.WriteString(line + string(rune('0'+i%10)) + ");\n")
		actual.WriteString(line + "N);\n")
	}
	expected := strings.Replace(actual.String(), "  write(fieldxx, _iterN);\n", "  write(zqnew, _iterN);\n  write(fieldxx, _iterN);\n", 1)
	f := result.Finding{ID: "c1-r", SeedFile: "a.idl", File: "gen/a.cpp", Expected: expected, Actual: actual.String(), Diff: "-x\n+y\n", Bundle: "findings/c1-r"}
	out := t.TempDir()
	write := func(f result.Finding, files tree.Tree) string {
		dir := filepath.Join(out, "findings", f.ID)
		if err := writeDir(dir, &Bundle{Finding: f, Base: []byte("a\n"), FollowUp: []byte("b\n"), FollowUpOut: files}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dir := write(f, tree.Tree{"gen/a.cpp": []byte(raw.String()), "gen/b.cpp": []byte("b\n")})
	data, err := os.ReadFile(filepath.Join(dir, FindingFile))
	if err != nil {
		t.Fatal(err)
	}
	var kept map[string]any
	if err := json.Unmarshal(data, &kept); err != nil {
		t.Fatal(err)
	}
	if kept["expected"] != nil || kept["actual"] != nil || kept["evidence"] == nil || kept["evidence_sum"] == nil || len(data) >= len(expected)+len(f.Actual) {
		t.Fatalf("finding.json of %d bytes keeps %v", len(data), kept)
	}
	rd, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	b, err := rd.Load("findings/c1-r")
	if err != nil {
		t.Fatal(err)
	}
	if b.Finding.Expected != expected || b.Finding.Actual != f.Actual || b.Finding.Evidence != nil || b.Finding.EvidenceSum != "" {
		t.Errorf("Load gave back expected %d bytes (want %d), actual %d (want %d)", len(b.Finding.Expected), len(expected), len(b.Finding.Actual), len(f.Actual))
	}
	lean := []result.Finding{f.Lean()}
	rd.FillEvidence(lean)
	if lean[0].Expected != expected || lean[0].Actual != f.Actual {
		t.Error("FillEvidence did not give the evidence back")
	}

	// Edited since: nothing is given back.
	p := filepath.Join(dir, FollowOutDir, "gen", "a.cpp")
	if err := os.WriteFile(p, []byte(strings.Replace(raw.String(), "write(fieldx,", "write(fieldy,", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err = rd.Load("findings/c1-r"); err != nil || b.Finding.Expected != "" || b.Finding.Evidence == nil {
		t.Errorf("an edited file gave evidence back: %v, %d bytes", err, len(b.Finding.Expected))
	}
	lean = []result.Finding{f.Lean()}
	if rd.FillEvidence(lean); !lean[0].IsLean() {
		t.Error("FillEvidence filled from an edited file")
	}

	// Without normalization, the edits are the prediction's alone.
	h := f
	h.ID, h.Bundle = "c3-r", "findings/c3-r"
	dir = write(h, tree.Tree{"gen/a.cpp": []byte(actual.String())})
	if data, err = os.ReadFile(filepath.Join(dir, FindingFile)); err != nil || len(data) > 1000 {
		t.Errorf("finding.json of the file as the check read it: %v, %d bytes", err, len(data))
	}
	if b, err = rd.Load("findings/c3-r"); err != nil || b.Finding.Expected != expected || b.Finding.Actual != f.Actual {
		t.Errorf("Load: %v", err)
	}

	// With the recipe's normalize rules, the actual content is the file
	// normalized again: no edit of its own; a recipe whose rules changed
	// since gives nothing back.
	replace := "_iterN"
	recipe := &Recipe{Normalize: oracle.Normalizer{{Files: []string{"*.cpp"}, Match: regexp.MustCompile(`_iter[0-9]`), Replace: &replace}}}
	n := f
	n.ID, n.Bundle = "c4-r", "findings/c4-r"
	dir = filepath.Join(out, "findings", n.ID)
	if err := writeDir(dir, &Bundle{Finding: n, Recipe: recipe, Base: []byte("a\n"), FollowUp: []byte("b\n"), FollowUpOut: tree.Tree{"gen/a.cpp": []byte(raw.String())}}); err != nil {
		t.Fatal(err)
	}
	if data, err = os.ReadFile(filepath.Join(dir, FindingFile)); err != nil || len(data) > 1000 || !strings.Contains(string(data), `"normalized": true`) {
		t.Errorf("finding.json of a normalized file: %v, %d bytes\n%.600s", err, len(data), data)
	}
	if b, err = rd.Load("findings/c4-r"); err != nil || b.Finding.Expected != expected || b.Finding.Actual != f.Actual {
		t.Errorf("Load of a normalized file: %v", err)
	}
	lean = []result.Finding{n.Lean()}
	if rd.FillEvidence(lean); lean[0].Expected != expected || lean[0].Actual != f.Actual {
		t.Error("FillEvidence did not give the evidence of a normalized file back")
	}
	rp := filepath.Join(dir, RecipeFile)
	if err := os.WriteFile(rp, []byte(`{"normalize": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err = rd.Load("findings/c4-r"); err != nil || b.Finding.Expected != "" || b.Finding.Evidence == nil {
		t.Errorf("a recipe without the rules gave evidence back: %v, %d bytes", err, len(b.Finding.Expected))
	}
	lean = []result.Finding{n.Lean()}
	if rd.FillEvidence(lean); !lean[0].IsLean() {
		t.Error("FillEvidence filled without the rules")
	}
	if err := os.WriteFile(rp, []byte(`{"normalize": [{"files": ["*.cpp"]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lean = []result.Finding{n.Lean()}
	if rd.FillEvidence(lean); !lean[0].IsLean() {
		t.Error("FillEvidence filled with a rule without a pattern")
	}

	// Without the failing file in the bundle, the finding keeps it whole.
	g := f
	g.ID, g.Bundle = "c2-r", "findings/c2-r"
	dir = write(g, tree.Tree{"gen/b.cpp": []byte("b\n")})
	if data, err = os.ReadFile(filepath.Join(dir, FindingFile)); err != nil || !strings.Contains(string(data), `"expected": "`) || strings.Contains(string(data), `"evidence"`) {
		t.Errorf("without its file: %v\n%.300s", err, data)
	}
}
