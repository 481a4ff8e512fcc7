package result

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestSaveEncoding: Save, which encodes the findings one at a time,
// writes the bytes of json.MarshalIndent and a newline, whatever the
// findings hold (text that looks like the report's own fields, markup,
// no findings at all).
func TestSaveEncoding(t *testing.T) {
	tricky := "\n  \"findings\": [],\n  \"groups\": <b>&</b> \u2032"
	reports := map[string]*Report{
		"nil findings":   {Tool: "mcpt", ByRelation: map[string]RelationStats{}},
		"empty findings": {Tool: "mcpt", Findings: []Finding{}},
		"findings": {
			Tool: "mcpt", Mode: "mcp", Config: tricky, Seeds: SeedStats{Total: 2, Rejected: []string{tricky}},
			Findings: []Finding{
				{ID: "c1-r-1", Message: tricky, Expected: "a\nb\n", Bindings: map[string]string{"N": "x", "A": tricky}, Fresh: []string{"N"}},
				{ID: "c2-r-1", Kind: Crash, Signal: "SIGSEGV", Spot: Spot{Index: 1, Desc: tricky}},
				{ID: "c3-r-1"},
			},
			Groups:     []Group{{Signature: "s", Title: tricky, Findings: []string{"c1-r-1", "c2-r-1"}}},
			ByRelation: map[string]RelationStats{"r": {TestCases: 3, Checkers: map[string]CheckerStats{"c": {Decided: 1}}}},
			Cases:      []CaseSummary{{Seed: "a.cll", Relation: "r", TestCases: 3, Findings: 3}},
		},
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			want, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "report.json")
			if err := r.Save(path); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, append(want, '\n')) {
				t.Errorf("Save wrote\n%s\nwant\n%s", got, want)
			}
		})
	}
}
