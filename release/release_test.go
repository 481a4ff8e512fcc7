package release

import (
	"encoding/json"
	"testing"
)

func TestFind(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"Version 5.9.3\n", "5.9.3"},
		{"protoc-gen-go v1.36.12\n", "v1.36.12"},
		{"libprotoc 29.3", "29.3"},
		{"go version go1.26.0 linux/amd64", "1.26.0"},
		{"tsc 5.9.0-beta (node 20)", "5.9.0-beta"},
		{"Thrift version 0.19.0\n", "0.19.0"},
		{"flatc version 24.3.25+build.7", "24.3.25+build.7"},
		{"built on 2024 with node 20: 3.5.3", "3.5.3"},
		{"release 4.4.", "4.4"},
	} {
		v, ok := Find(c.out)
		if !ok || v.Text != c.want {
			t.Errorf("Find(%q) = %q, %v; want %q", c.out, v.Text, ok, c.want)
		}
	}
	for _, out := range []string{"", "no version here", "node 20", "v 1 . 2"} {
		if v, ok := Find(out); ok {
			t.Errorf("Find(%q) = %q, want none", out, v.Text)
		}
	}
}

func TestCompare(t *testing.T) {
	// Each older than the next.
	order := []string{"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2", "v1.10.0", "3.5.3", "5.9.0-beta", "5.9.0", "5.10", "v6"}
	for i := range order {
		for j := range order {
			a, err := Parse(order[i])
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Parse(order[j])
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
	a, _ := Parse("4.4")
	b, _ := Parse("v4.4.0+meta")
	if Compare(a, b) != 0 {
		t.Errorf("4.4 and v4.4.0+meta differ")
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "x", "4.", "4.4.4.4", "1.2-", ">=1", "99999999999999999999.1"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q): no error", s)
		}
	}
}

func TestRange(t *testing.T) {
	for _, c := range []struct {
		rng string
		in  []string
		out []string
	}{
		{">=3.5.0 <6", []string{"3.5.0", "4.4.4", "5.9.3", "v5.99", "6.0.0-beta"}, []string{"3.4.9", "3.5.0-rc.1", "6.0.0", "7"}},
		{"=5.9.3", []string{"5.9.3", "v5.9.3"}, []string{"5.9.2", "5.9.3-beta"}},
		{"5.9", []string{"5.9.0"}, []string{"5.9.1"}},
		{">= 1.26 <1.30 || >=1.31", []string{"1.26.0", "1.29.9", "1.31", "2.0"}, []string{"1.25", "1.30.0", "1.30.5"}},
		{">1 <=2", []string{"1.0.1", "2.0.0"}, []string{"1.0.0", "2.0.1"}},
	} {
		r, err := ParseRange(c.rng)
		if err != nil {
			t.Fatalf("%s: %v", c.rng, err)
		}
		for _, s := range c.in {
			if v, _ := Parse(s); !r.Contains(v) {
				t.Errorf("%s does not contain %s", c.rng, s)
			}
		}
		for _, s := range c.out {
			if v, _ := Parse(s); r.Contains(v) {
				t.Errorf("%s contains %s", c.rng, s)
			}
		}
	}
	for _, s := range []string{"", "   ", ">=", ">=x", "3.5 ||", "~3.5", "^3"} {
		if _, err := ParseRange(s); err == nil {
			t.Errorf("ParseRange(%q): no error", s)
		}
	}
	var zero Range
	if v, _ := Parse("0.0.1"); !zero.Contains(v) || !zero.IsZero() {
		t.Error("the zero Range does not hold every version")
	}
}

func TestRangeJSON(t *testing.T) {
	r := MustParseRange(">=3.5.0   <6")
	b, err := json.Marshal(r)
	if err != nil || string(b) != `"\u003e=3.5.0 \u003c6"` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	var back Range
	if err := json.Unmarshal(b, &back); err != nil || back.String() != r.String() {
		t.Fatalf("unmarshal: %v, %v", back, err)
	}
	if v, _ := Parse("6"); back.Contains(v) {
		t.Error("the range read back contains 6")
	}
	if err := json.Unmarshal([]byte(`">=x"`), &back); err == nil {
		t.Error("a wrong range reads without error")
	}
}

func TestAtLeast(t *testing.T) {
	for _, c := range []struct {
		v, min string
		want   bool
	}{{"4.4.2", "4.4", true}, {"4.3.9", "4.4", false}, {"v1.26.0", "1.26", true}, {"5.0.0-beta", "5", false}} {
		got, err := AtLeast(c.v, c.min)
		if err != nil || got != c.want {
			t.Errorf("AtLeast(%s, %s) = %v, %v", c.v, c.min, got, err)
		}
	}
	if _, err := AtLeast("", "4.4"); err == nil {
		t.Error("AtLeast of no version: no error")
	}
}
