package result

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestComparedBounds: a comparison keeps MaxComparedLines lines and counts
// the rest, and cuts a long line at a character boundary, marked; a
// finding without one (a report of an earlier mcpt) reads back without.
func TestComparedBounds(t *testing.T) {
	var c Compared
	long := strings.Repeat("é", MaxComparedText) // two bytes each
	for i := range MaxComparedLines + 7 {
		c.Add(CmpLine{O2: Ref(i+1, long), Want: long, Role: RoleUnexplained})
	}
	if len(c.Lines) != MaxComparedLines || c.More != 7 {
		t.Errorf("%d lines and %d more, want %d and 7", len(c.Lines), c.More, MaxComparedLines)
	}
	for _, s := range []string{c.Lines[0].O2.Text, c.Lines[0].Want} {
		if len(s) > MaxComparedText+len("…") || !strings.HasSuffix(s, "…") || !utf8.ValidString(s) {
			t.Errorf("a long text kept as %d bytes, valid UTF-8 %v", len(s), utf8.ValidString(s))
		}
	}
	var f Finding
	if err := json.Unmarshal([]byte(`{"id":"c1","kind":"oracle","expected":"x"}`), &f); err != nil || f.Compared != nil {
		t.Errorf("an old finding: %v, compared %+v", err, f.Compared)
	}
	b, _ := json.Marshal(Finding{ID: "c1", Compared: &Compared{Kind: CmpOrder, Order: []string{"a", "b", "c"}}})
	if !strings.Contains(string(b), `"compared":{"kind":"order","expects":"","order":["a","b","c"]}`) {
		t.Errorf("JSON %s", b)
	}
}

// TestStripCompared: a finding counted in its group keeps no evidence,
// what its checker compared neither; its case, seed, spot, signature and
// message stay, to make it again.
func TestStripCompared(t *testing.T) {
	f := Finding{ID: "c7-r", Case: 7, CaseSeed: 9, SeedFile: "a.idl", Signature: "r/c/a.h/1", Message: "a.h in o′: 2 lines unexplained",
		Diff: "-x\n+y\n", Compared: &Compared{Kind: "lines", Expects: "o′ is o with the new member"}, Bindings: map[string]string{"N": "zq"}}
	f.Strip()
	line, err := json.Marshal(&f)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"compared", "diff", "bindings", "o′ is o"} {
		if strings.Contains(string(line), gone) {
			t.Errorf("a counted finding keeps %s: %s", gone, line)
		}
	}
	if !f.Counted || f.Case != 7 || f.CaseSeed != 9 || f.Signature == "" || f.Message == "" {
		t.Errorf("a counted finding lost what makes it again: %+v", f)
	}
}
