package jsshape

import (
	"encoding/json"
	"strings"
	"testing"
)

// shapeOf reads a shape written as the worker writes it.
func shapeOf(t *testing.T, s string) *Shape {
	t.Helper()
	var sh Shape
	if err := json.Unmarshal([]byte(s), &sh); err != nil {
		t.Fatal(err)
	}
	return &sh
}

func num(v string) *Value { return &Value{T: "number", V: v} }

// A class with a static field, an instance field and a method, and an
// enum object with a member each way.
const baseShape = `{"exports":[
 {"k":"Box","v":{"t":"class","name":"Box","len":0,
   "props":[{"k":"size","w":true,"e":true,"c":true,"v":{"t":"number","v":"4"}}],
   "proto":[{"k":"grow","w":true,"c":true,"v":{"t":"function","name":"grow","len":0}}],
   "inst":{"props":[{"k":"x","w":true,"e":true,"c":true,"v":{"t":"number","v":"0"}}]}}},
 {"k":"Tone","v":{"t":"object","props":[
   {"k":"1","w":true,"e":true,"c":true,"v":{"t":"string","v":"\"Low\""}},
   {"k":"Low","w":true,"e":true,"c":true,"v":{"t":"number","v":"1"}}]}}]}`

// TestPredictCompare: o′'s shape passes when it is o's plus the predicted
// members, and each departure is said, with where it is.
func TestPredictCompare(t *testing.T) {
	base := shapeOf(t, baseShape)
	cases := []struct {
		name    string
		members []Member
		edit    func(s string) string // o′'s shape, from o's JSON
		want    []string              // the differences, in order ("" none)
	}{
		{"static field", []Member{{Name: "zq", In: InStatic, Of: "Box", Value: num("7"), After: "size"}},
			func(s string) string {
				return strings.Replace(s, `"v":{"t":"number","v":"4"}}]`, `"v":{"t":"number","v":"4"}},{"k":"zq","w":true,"e":true,"c":true,"v":{"t":"number","v":"7"}}]`, 1)
			}, nil},
		{"static field with another value", []Member{{Name: "zq", In: InStatic, Of: "Box", Value: num("7")}},
			func(s string) string {
				return strings.Replace(s, `"v":{"t":"number","v":"4"}}]`, `"v":{"t":"number","v":"4"}},{"k":"zq","w":true,"e":true,"c":true,"v":{"t":"undefined","v":"undefined"}}]`, 1)
			}, []string{"export Box.zq = undefined, predicted 7"}},
		{"static field before its neighbour", []Member{{Name: "zq", In: InStatic, Of: "Box", After: "size"}},
			func(s string) string {
				return strings.Replace(s, `"props":[{"k":"size"`, `"props":[{"k":"zq","w":true,"e":true,"c":true,"v":{"t":"number","v":"1"}},{"k":"size"`, 1)
			}, []string{"export Box.zq: created before size, predicted after it"}},
		{"declared field made an own property", []Member{{Name: "zq", In: InInstance, Of: "Box", Absent: true}},
			func(s string) string {
				return strings.Replace(s, `"v":{"t":"number","v":"0"}}]}`, `"v":{"t":"number","v":"0"}},{"k":"zq","w":true,"e":true,"c":true,"v":{"t":"undefined","v":"undefined"}}]}`, 1)
			}, []string{"export Box.instance.zq: is an own property (undefined [w e c]), predicted none"}},
		{"declared field absent", []Member{{Name: "zq", In: InInstance, Of: "Box", Absent: true}},
			func(s string) string { return s }, nil},
		{"method not predicted", nil,
			func(s string) string {
				return strings.Replace(s, `"proto":[`, `"proto":[{"k":"zq","w":true,"c":true,"v":{"t":"function","name":"zq","len":0}},`, 1)
			}, []string{"export Box.prototype.zq: in o′ (function zq(0)), not predicted"}},
		{"method enumerable", []Member{{Name: "zq", In: InPrototype, Of: "Box"}},
			func(s string) string {
				return strings.Replace(s, `"proto":[`, `"proto":[{"k":"zq","w":true,"e":true,"c":true,"v":{"t":"function","name":"zq","len":0}},`, 1)
			}, []string{"export Box.prototype.zq: descriptor [w e c], predicted [w - c]"}},
		{"enum member and its number", []Member{{Name: "Mid", In: InEnum, Of: "Tone", Value: num("5"), After: "Low"}},
			func(s string) string {
				s = strings.Replace(s, `"v":{"t":"string","v":"\"Low\""}}`, `"v":{"t":"string","v":"\"Low\""}},{"k":"5","w":true,"e":true,"c":true,"v":{"t":"string","v":"\"Mid\""}}`, 1)
				return strings.Replace(s, `"v":{"t":"number","v":"1"}}]`, `"v":{"t":"number","v":"1"}},{"k":"Mid","w":true,"e":true,"c":true,"v":{"t":"number","v":"5"}}]`, 1)
			}, nil},
		{"enum member without its number", []Member{{Name: "Mid", In: InEnum, Of: "Tone", Value: num("5")}},
			func(s string) string {
				return strings.Replace(s, `"v":{"t":"number","v":"1"}}]`, `"v":{"t":"number","v":"1"}},{"k":"Mid","w":true,"e":true,"c":true,"v":{"t":"number","v":"5"}}]`, 1)
			}, []string{`export Tone.5: missing, predicted "Mid" [w e c]`}},
		{"an old export gone", []Member{{Name: "zq", In: InExport}},
			func(s string) string {
				return strings.Replace(s, `{"k":"Tone"`, `{"k":"zq","v":{"t":"number","v":"1"}},{"k":"Tonf"`, 1)
			}, []string{`export Tone: missing in o′, o has it (object)`, `export Tonf: in o′ (object), not predicted`}},
		{"an export of the wrong kind", []Member{{Name: "zq", In: InExport, Kind: "object"}},
			func(s string) string {
				return strings.Replace(s, `{"k":"Tone"`, `{"k":"zq","v":{"t":"undefined","v":"undefined"}},{"k":"Tone"`, 1)
			}, []string{`export zq = undefined, predicted an object`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := predict(base, c.members)
			if err != nil {
				t.Fatal(err)
			}
			got := p.compare(shapeOf(t, c.edit(baseShape)))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestPredictUndecidable: a member whose holder o lacks, or that o has
// already, cannot be predicted.
func TestPredictUndecidable(t *testing.T) {
	base := shapeOf(t, baseShape)
	for _, m := range []Member{
		{Name: "zq", In: InStatic, Of: "Crate"},
		{Name: "zq", In: InStatic, Of: "Box.size.deeper"},
		{Name: "zq", In: InPrototype, Of: "Tone"},
		{Name: "zq", In: InInstance, Of: "Tone"},
		{Name: "size", In: InStatic, Of: "Box"},
	} {
		if _, err := predict(base, []Member{m}); err == nil {
			t.Errorf("%+v: predicted", m)
		}
	}
	throws := shapeOf(t, strings.Replace(baseShape, `"inst":{"props":[{"k":"x","w":true,"e":true,"c":true,"v":{"t":"number","v":"0"}}]}`, `"inst":{"throws":"TypeError: no"}`, 1))
	if _, err := predict(throws, []Member{{Name: "zq", In: InInstance, Of: "Box"}}); err == nil || !strings.Contains(err.Error(), "throws") {
		t.Errorf("an instance that cannot be made: %v", err)
	}
}

// TestParseWhereKind: the places and kinds of members, and their
// misspellings.
func TestParseWhereKind(t *testing.T) {
	for _, s := range []string{"export", "static", "prototype", "instance", "enum", "property"} {
		w, err := ParseWhere(s)
		if err != nil || w.String() != s {
			t.Errorf("%s: %v %v", s, w, err)
		}
	}
	if _, err := ParseWhere("statics"); err == nil {
		t.Error("statics is a place")
	}
	if CheckKind("method") != nil || CheckKind("") != nil || CheckKind("fn") == nil {
		t.Error("kinds")
	}
}

// TestShapeText: the listing of a shape, a line per member.
func TestShapeText(t *testing.T) {
	got := shapeOf(t, baseShape).Text()
	want := `export Box = class Box(0)
  size = 4 [w e c]
  prototype.grow = function grow(0) [w - c]
  instance.x = 0 [w e c]
export Tone = object
  1 = "Low" [w e c]
  Low = 1 [w e c]
`
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}
