package matrix

import (
	"slices"
	"strings"
	"testing"
)

var ts = Matrix{
	{Name: "target", Values: []Value{{"es2017", []string{"--target", "es2017"}}, {"es2022", []string{"--target", "es2022"}}, {"esnext", []string{"--target", "esnext"}}}},
	{Name: "classFields", Values: []Value{{"define", []string{"--useDefineForClassFields", "true"}}, {"assign", nil}}},
}

func names(cs []Combination) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestCombinations(t *testing.T) {
	cs := ts.Combinations()
	want := []string{
		"target=es2017,classFields=define", "target=es2017,classFields=assign",
		"target=es2022,classFields=define", "target=es2022,classFields=assign",
		"target=esnext,classFields=define", "target=esnext,classFields=assign",
	}
	if got := names(cs); !slices.Equal(got, want) || ts.Size() != len(want) {
		t.Fatalf("combinations %q (size %d), want %q", got, ts.Size(), want)
	}
	if got := cs[2].Args(); !slices.Equal(got, []string{"--target", "es2022", "--useDefineForClassFields", "true"}) {
		t.Errorf("args of %s: %q", cs[2], got)
	}
	if got := cs[1].Args(); !slices.Equal(got, []string{"--target", "es2017"}) {
		t.Errorf("args of %s: %q", cs[1], got)
	}
	if m := cs[5].Map(); m["target"] != "esnext" || m["classFields"] != "assign" || len(m) != 2 {
		t.Errorf("map of %s: %v", cs[5], m)
	}
	// The combinations share no backing array: one changed leaves the
	// others as they are.
	cs[0][0].Value = "changed"
	if cs[1][0].Value != "es2017" {
		t.Error("combinations share their settings")
	}
	none := Matrix(nil).Combinations()
	if len(none) != 1 || none[0].String() != "" || none[0].Args() != nil {
		t.Errorf("a matrix without dimensions: %q", names(none))
	}
}

func TestCheck(t *testing.T) {
	if err := ts.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    Matrix
		want string
	}{
		{Matrix{{Name: "2x", Values: []Value{{Name: "a"}}}}, "not an identifier"},
		{Matrix{{Name: "t", Values: []Value{{Name: "a=b"}}}}, `"a=b"`},
		{Matrix{{Name: "t", Values: []Value{{Name: "a,b"}}}}, `"a,b"`},
		{Matrix{{Name: "t", Values: []Value{{Name: ".a"}}}}, `".a"`},
		{Matrix{{Name: "t"}}, "no value"},
		{Matrix{{Name: "t", Values: []Value{{Name: "a"}}}, {Name: "t", Values: []Value{{Name: "b"}}}}, "given twice"},
		{Matrix{{Name: "t", Values: []Value{{Name: "a"}, {Name: "a"}}}}, "value a given twice"},
	} {
		if err := c.m.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.m, err, c.want)
		}
	}
}

func TestRestrict(t *testing.T) {
	pairs, err := ParsePairs("target=es2022", "target=esnext,classFields=assign")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ts.Restrict(pairs)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(r.Combinations()); !slices.Equal(got, []string{"target=es2022,classFields=assign", "target=esnext,classFields=assign"}) {
		t.Errorf("restricted: %q", got)
	}
	if len(ts[0].Values) != 3 {
		t.Error("Restrict changed the matrix it restricts")
	}
	for _, c := range []struct{ in, want string }{
		{"tagret=es2022", `no flag dimension tagret (dimensions: target, classFields), did you mean "target"?`},
		{"target=es5", "target has no value es5 (values: es2017, es2022, esnext)"},
		{"target=es2023", `did you mean "es2022"?`},
	} {
		p, err := ParsePairs(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.Restrict(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := Matrix(nil).Restrict([]Pair{{"target", "es5"}}); err == nil || !strings.Contains(err.Error(), "has no flags") {
		t.Errorf("restricting no matrix: %v", err)
	}
	for _, bad := range []string{"target", "=es5", "target=", "a=b,c"} {
		if _, err := ParsePairs(bad); err == nil {
			t.Errorf("ParsePairs(%q): no error", bad)
		}
	}
}

func TestCombinationOf(t *testing.T) {
	for _, c := range ts.Combinations() {
		p, err := ParsePairs(c.String())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ts.Combination(p)
		if err != nil || back.String() != c.String() || !slices.Equal(back.Args(), c.Args()) {
			t.Errorf("%s read back as %s (%q), %v", c, back, back.Args(), err)
		}
	}
	// In another order, the matrix's order.
	back, err := ts.Combination([]Pair{{"classFields", "assign"}, {"target", "es2017"}})
	if err != nil || back.String() != "target=es2017,classFields=assign" {
		t.Errorf("%s, %v", back, err)
	}
	for _, c := range []struct {
		pairs []Pair
		want  string
	}{
		{[]Pair{{"target", "es2017"}}, "no value for classFields"},
		{[]Pair{{"target", "es2017"}, {"target", "es2022"}, {"classFields", "assign"}}, "target given twice"},
		{[]Pair{{"target", "es5"}, {"classFields", "assign"}}, "no value es5"},
	} {
		if _, err := ts.Combination(c.pairs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.pairs, err, c.want)
		}
	}
	if c, err := Matrix(nil).Combination(nil); err != nil || c.String() != "" {
		t.Errorf("the zero combination: %q, %v", c, err)
	}
}

func TestFingerprint(t *testing.T) {
	a := ts.Fingerprint()
	other := slices.Clone(ts)
	other[1] = Dimension{Name: "classFields", Values: []Value{{"define", []string{"--useDefineForClassFields", "false"}}, {"assign", nil}}}
	if a == other.Fingerprint() {
		t.Error("an argument changed, the fingerprint is the same")
	}
	if a != ts.Fingerprint() {
		t.Error("the fingerprint changes")
	}
	want := `target: es2017 ["--target" "es2017"], es2022 ["--target" "es2022"], esnext ["--target" "esnext"]; classFields: define ["--useDefineForClassFields" "true"], assign []`
	if a != want {
		t.Errorf("fingerprint\n%s\nwant\n%s", a, want)
	}
}
