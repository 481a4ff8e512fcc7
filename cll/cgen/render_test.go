package cgen

import (
	"strings"
	"testing"
)

func TestIntLit(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {-7, "-7"}, {2147483647, "2147483647"},
		{-2147483647, "-2147483647"}, {-2147483648, "(-2147483647 - 1)"},
	} {
		if got := intLit(c.v); got != c.want {
			t.Errorf("intLit(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

func TestRealLit(t *testing.T) {
	tiny := "0." + strings.Repeat("0", 323) + "2" // underflows to zero
	for _, c := range []struct{ text, want string }{
		{"1.5", "1.5"}, {"-0.25", "-0.25"}, {"007.50", "007.50"}, {"0.0", "0.0"},
		{tiny, "0.0"}, {"-" + tiny, "-0.0"},
	} {
		if got := realLit(c.text); got != c.want {
			t.Errorf("realLit(%q) = %s, want %s", c.text, got, c.want)
		}
	}
}

func TestStringLit(t *testing.T) {
	g := &gen{faults: faultSet{}}
	for _, c := range []struct{ raw, want string }{
		{``, `""`},
		{`plain text`, `"plain text"`},
		{`say \"hi\"`, `"say \"hi\""`},
		{`a\\b\n\t`, `"a\\b\n\t"`},
		{`what??!`, `"what?\?!"`},
		{`????`, `"?\?\?\?"`},
		{`? ?`, `"? ?"`},
		{`\\??/`, `"\\?\?/"`},
		{"caf\u00e9 \u20ac", "\"caf\u00e9 \u20ac\""},
	} {
		if got := g.stringLit(c.raw); got != c.want {
			t.Errorf("stringLit(%q) = %s, want %s", c.raw, got, c.want)
		}
	}
	g.faults[FaultAttrEscape] = true
	if got, want := g.stringLit(`a\tb\nc\\d\"`), `"a\\tb\\nc\\d\""`; got != want {
		t.Errorf("with attr-escape: %s, want %s", got, want)
	}
}

func TestStringLitRejects(t *testing.T) {
	g := &gen{faults: faultSet{}}
	for _, raw := range []string{`trailing\`, `bad\q`, `bare"quote`, "line\nbreak"} {
		func() {
			defer func() {
				if _, ok := recover().(genError); !ok {
					t.Errorf("stringLit(%q) did not fail", raw)
				}
			}()
			g.stringLit(raw)
		}()
	}
}

func TestStrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"(a == b)", "a == b"},
		{"(a) && (b)", "(a) && (b)"},
		{"(int32_t)(x)", "(int32_t)(x)"},
		{"((a) && (b))", "(a) && (b)"},
		{"x", "x"},
		{"f(x)", "f(x)"},
	} {
		if got := strip(c.in); got != c.want {
			t.Errorf("strip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
