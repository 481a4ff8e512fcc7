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
