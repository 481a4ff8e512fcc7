package spec

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// fields lists every settable field of a Spec, embedded ones included, by
// index path.
func fields(t reflect.Type, prefix []int) [][]int {
	var out [][]int
	for i := range t.NumField() {
		f := t.Field(i)
		path := append(slices.Clone(prefix), i)
		if f.Anonymous {
			out = append(out, fields(f.Type, path)...)
			continue
		}
		out = append(out, path)
	}
	return out
}

// set gives v a value other than its zero.
func set(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		set(t, s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf("v"))
		v.Set(m)
	default:
		t.Fatalf("no value for a %s field: teach the test", v.Kind())
	}
}

// TestEveryFieldCounts: whatever field a Spec has, now or added later, a
// change of it makes two specs differ for --trust and the fingerprint, and
// a recipe keeps it.
func TestEveryFieldCounts(t *testing.T) {
	base := Spec{Kind: Command, Process: Process{Argv: []string{"t"}}}
	for _, path := range fields(reflect.TypeOf(Spec{}), nil) {
		name := reflect.TypeOf(Spec{}).FieldByIndex(path).Name
		s := base
		s.Process.Argv = slices.Clone(base.Argv)
		set(t, reflect.ValueOf(&s).Elem().FieldByIndex(path))
		if s.Equal(base) || s.Fingerprint() == base.Fingerprint() {
			t.Errorf("%s: a change is not seen", name)
		}
		var back Spec
		if err := json.Unmarshal(s.JSON(), &back); err != nil || !back.Equal(s) {
			t.Errorf("%s: the JSON round trip loses it: %v %s", name, err, back.JSON())
		}
	}
}

// TestNilIsNotEmpty: no exit code (an empty list) is not the default (nil),
// and a worker's empty arguments are not its default ones.
func TestNilIsNotEmpty(t *testing.T) {
	a := Spec{Kind: Worker}
	for _, b := range []Spec{{Kind: Worker, Process: Process{Reject: []int{}}}, {Kind: Worker, Process: Process{Accept: []int{}}}, {Kind: Worker, Arguments: []string{}}} {
		if a.Equal(b) {
			t.Errorf("%s equals %s", a.JSON(), b.JSON())
		}
	}
}

// TestEarlierRecipes: the transpiler of a recipe written by an earlier
// version of mcpt, without a kind, decodes to the same spec.
func TestEarlierRecipes(t *testing.T) {
	for in, want := range map[string]Spec{
		`{"builtin":"cllc","faults":["f"]}`:                     {Kind: Builtin, Builtin: "cllc", Faults: []string{"f"}},
		`{"command":["t","{input}"],"dir":"/d","timeout_ns":5}`: {Kind: Command, Process: Process{Argv: []string{"t", "{input}"}, Dir: "/d", Timeout: 5}},
		`{"worker":["w"],"arguments":["{input}"]}`:              {Kind: Worker, Process: Process{Argv: []string{"w"}}, Arguments: []string{"{input}"}},
	} {
		var got Spec
		if err := json.Unmarshal([]byte(in), &got); err != nil || !got.Equal(want) {
			t.Errorf("%s: %s, %v; want %s", in, got.JSON(), err, want.JSON())
		}
	}
}

func TestRuns(t *testing.T) {
	for _, c := range []struct {
		s    Spec
		want []string
	}{
		{Spec{Kind: Builtin, Builtin: "cllc"}, nil},
		{Spec{Kind: Command, Process: Process{Argv: []string{"t"}}}, []string{"t"}},
		{Spec{Kind: Worker, Process: Process{Argv: []string{"w"}}}, []string{"w"}},
		{Spec{Kind: HTTP, URL: "http://h/"}, []string{"http://h/"}},
	} {
		if got := c.s.Runs(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Runs %q, want %q", c.s.JSON(), got, c.want)
		}
	}
}
