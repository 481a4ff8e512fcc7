package yamlpos

import (
	"strings"
	"testing"
)

type itemT struct {
	Name String `yaml:"name"`
	N    *Int   `yaml:"n"`
}

type fileT struct {
	Top   *Int             `yaml:"top"`
	Items []itemT          `yaml:"items"`
	ByKey map[string]itemT `yaml:"by_key"`
	Words []String         `yaml:"words"`
}

// TestDecodeAll: every unknown key (at any depth: in a mapping, a list
// item, a map value), key given twice and value of the wrong kind is
// reported, and the values that are right are decoded all the same.
func TestDecodeAll(t *testing.T) {
	src := `top: 3
tpo: 4
items:
  - {name: a, n: 1, m: 2}
  - {name: b, n: many}
by_key:
  x: {name: c, nmae: d}
  x: {name: e}
words: [one, {two: 2}]
top: 5
`
	var v fileT
	errs, ok := DecodeAll("f.yaml", []byte(src), &v)
	if !ok {
		t.Fatalf("the decoding stopped: %v", errs)
	}
	want := []string{
		`f.yaml:2:1: unknown field "tpo", did you mean "top"?`,
		`f.yaml:4:21: unknown field "m", did you mean "n"?`,
		`f.yaml:5:18: want an integer, found "many"`,
		`f.yaml:7:16: unknown field "nmae", did you mean "name"?`,
		`f.yaml:8:3: x given twice (first at line 7)`,
		`f.yaml:9:14: want a string, found a mapping`,
		`f.yaml:10:1: top given twice (first at line 1)`,
	}
	if got := errs.Err().Error(); got != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if len(v.Items) != 2 || v.Items[0].N.Value != 1 || v.Items[1].Name.Value != "b" || v.Words[0].Value != "one" {
		t.Errorf("the values that are right were not decoded: %+v", v)
	}
	// Text that is no YAML stops the decoding.
	if errs, ok := DecodeAll("g.yaml", []byte("top: [1,\n"), &v); ok || len(errs) == 0 {
		t.Errorf("bad YAML: ok %v, %v", ok, errs)
	}
}

// TestErrorListCap: an ErrorList prints MaxErrors errors and counts the
// rest; each error once.
func TestErrorListCap(t *testing.T) {
	var l ErrorList
	for i := range MaxErrors + 3 {
		l.Add(Errorf(Pos{File: "f", Line: i + 1, Col: 1}, "e"))
	}
	l.Add(Errorf(Pos{File: "f", Line: 1, Col: 1}, "e"))
	lines := strings.Split(l.Err().Error(), "\n")
	if len(lines) != MaxErrors+1 || lines[MaxErrors] != "and 3 more errors" {
		t.Errorf("%d lines, the last %q", len(lines), lines[len(lines)-1])
	}
}

type renamedT struct {
	If    *String    `yaml:"if" was:"when"`
	Items []renamedT `yaml:"items"`
	Keep  String     `yaml:"keep"`
}

// TestDecodeOldNames: a key written with a field's old name decodes as the
// new one, with a warning at the key naming the new one; both given is a
// key given twice.
func TestDecodeOldNames(t *testing.T) {
	src := `when: a
items:
  - {keep: b, when: c}
  - if: d
    when: e
`
	var v renamedT
	var warns ErrorList
	errs, ok := DecodeAllWarn("f.yaml", []byte(src), &v, &warns)
	if !ok {
		t.Fatalf("the decoding stopped: %v", errs)
	}
	if got, want := errs.Error(), "f.yaml:5:5: if given twice (first at line 4)"; got != want {
		t.Errorf("errors:\n%s\nwant\n%s", got, want)
	}
	wantWarns := "f.yaml:1:1: when is deprecated: write if (the old spelling loads the same)\n" +
		"f.yaml:3:15: when is deprecated: write if (the old spelling loads the same)\n" +
		"f.yaml:5:5: when is deprecated: write if (the old spelling loads the same)"
	if got := warns.Error(); got != wantWarns {
		t.Errorf("warnings:\n%s\nwant\n%s", got, wantWarns)
	}
	if v.If == nil || v.If.Value != "a" || v.If.Pos.Line != 1 || v.Items[0].If == nil || v.Items[0].If.Value != "c" || v.Items[0].Keep.Value != "b" {
		t.Errorf("decoded %+v", v)
	}
	var plain renamedT
	if errs, _ := DecodeAll("f.yaml", []byte("when: a\n"), &plain); len(errs) != 0 || plain.If == nil || plain.If.Value != "a" {
		t.Errorf("without a warning list: %v, %+v", errs, plain)
	}
}
