package result

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSaveEncoding: Save, which encodes the findings one at a time,
// writes the bytes of json.MarshalIndent and a newline, whatever the
// findings hold (text that looks like the report's own fields, markup,
// no findings at all), but for the findings: one a line, unindented,
// those with a bundle lean.
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
				{ID: "c4-r-1", Expected: tricky, Actual: "b\n", Diff: "-a\n+b\n", Bundle: "findings/c4-r-1"},
			},
			Groups:     []Group{{Signature: "s", Title: tricky, Findings: []string{"c1-r-1", "c2-r-1"}}},
			ByRelation: map[string]RelationStats{"r": {TestCases: 3, Checkers: map[string]CheckerStats{"c": {Decided: 1}}}},
			Cases:      []CaseSummary{{Seed: "a.cll", Relation: "r", TestCases: 3, Findings: 3}},
		},
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			lean := *r
			if r.Findings != nil {
				lean.Findings = make([]Finding, len(r.Findings))
				for i, f := range r.Findings {
					lean.Findings[i] = f.Lean()
				}
			}
			want, err := json.MarshalIndent(&lean, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			want = oneLine(t, want)
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
			if name == "findings" && (!bytes.Contains(got, []byte(`"evidence_sum":"sha256:`)) || bytes.Contains(got, []byte(`"actual":"b\n"`))) {
				t.Errorf("the finding with a bundle is not lean:\n%s", got)
			}
		})
	}
}

// TestDecode: Decode, which reads the findings one at a time, reads what
// json.Unmarshal reads (the findings in any place, under a key in any
// case, null or absent), and refuses what it refuses.
func TestDecode(t *testing.T) {
	f1 := `{"id":"c1-r-1","message":"\"findings\": [","bindings":{"N":"x"},"spot":{"index":1}}`
	docs := map[string]string{
		"findings first":  `{"findings":[` + f1 + `,{"id":"c2-r-1","kind":"crash"}],"tool":"mcpt","seed":7,"groups":[{"signature":"s","findings":["c1-r-1"]}]}`,
		"findings last":   `{"tool":"mcpt","by_relation":{"r":{"test_cases":3}},"findings":[` + f1 + `]}`,
		"key in capitals": `{"Findings":[` + f1 + `],"TOOL":"mcpt"}`,
		"null findings":   `{"tool":"mcpt","findings":null}`,
		"empty findings":  `{"tool":"mcpt","findings":[]}`,
		"no findings":     "{\"tool\":\"mcpt\"}\n\n",
	}
	for name, doc := range docs {
		var want Report
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(strings.NewReader(doc))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: decoded %+v, want %+v", name, *got, want)
		}
	}
	for _, doc := range []string{
		`{"tool":"mcpt","findings":[` + f1,
		`{"tool":"mcpt","findings":[` + f1 + `]`,
		`{"tool":"mcpt"} {}`,
		`{"tool":"mcpt","findings":7}`,
		`{"tool":"mcpt","findings":[{"case":1e400}]}`,
		`{"tool":"mcpt","test_cases":1e400}`,
		`[]`,
		strings.Repeat("[", 100000),
	} {
		if err := json.Unmarshal([]byte(doc), new(Report)); err == nil {
			t.Fatalf("json.Unmarshal took %.40q", doc)
		}
		if _, err := Decode(strings.NewReader(doc)); err == nil {
			t.Errorf("Decode took %.40q", doc)
		}
	}
}

// TestLeanFill: a lean finding keeps no whole file of its evidence but
// its hash, and takes it back from its bundle's finding only when that is
// the evidence it had; a finding without a bundle stays whole.
func TestLeanFill(t *testing.T) {
	f := Finding{ID: "c1-r-1", Expected: "a\nb\n", Actual: "b\na\n", Diff: "-a\n+a\n", Bundle: "findings/c1-r-1"}
	if g := (Finding{ID: "c2", Expected: "x", Actual: "y"}).Lean(); g.Expected != "x" || g.IsLean() {
		t.Errorf("a finding without a bundle was made lean: %+v", g)
	}
	lean := f.Lean()
	if !lean.IsLean() || lean.Expected != "" || lean.Actual != "" || lean.Diff != f.Diff || lean.EvidenceSum == "" {
		t.Fatalf("lean finding %+v", lean)
	}
	// Expected and Actual are told apart: the same bytes split elsewhere
	// are other evidence.
	moved := f
	moved.Expected, moved.Actual = "a\n", "b\nb\na\n"
	if EvidenceSum(moved.Expected, moved.Actual) == lean.EvidenceSum {
		t.Fatal("the sum does not tell expected from actual")
	}
	for name, bf := range map[string]Finding{"other evidence": moved, "other finding": {ID: "c9", Expected: f.Expected, Actual: f.Actual}} {
		g := lean
		if g.Fill(&bf) || !g.IsLean() {
			t.Errorf("%s: filled %+v", name, g)
		}
	}
	g := lean
	if !g.Fill(&f) || g.Expected != f.Expected || g.Actual != f.Actual || g.EvidenceSum != "" {
		t.Errorf("not filled from its own evidence: %+v", g)
	}
	if g.Fill(&f) {
		t.Error("a whole finding was filled again")
	}
}

// oneLine rewrites the findings of an indented report (b, as
// json.MarshalIndent writes it) one a line, unindented, as Save does.
func oneLine(t *testing.T, b []byte) []byte {
	t.Helper()
	head, rest, ok := bytes.Cut(b, []byte("\n  \"findings\": [\n"))
	if !ok {
		return b
	}
	body, tail, ok := bytes.Cut(rest, []byte("\n  ]"))
	if !ok {
		t.Fatal("no end of the findings")
	}
	var fs []json.RawMessage
	if err := json.Unmarshal(append(append([]byte("["), body...), ']'), &fs); err != nil {
		t.Fatal(err)
	}
	out := append(head, "\n  \"findings\": ["...)
	for i, f := range fs {
		var c bytes.Buffer
		if err := json.Compact(&c, f); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(out, "\n    "...), c.Bytes()...)
	}
	return append(append(out, "\n  ]"...), tail...)
}
