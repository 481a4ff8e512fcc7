package oracle

import (
	"slices"
	"testing"
)

// TestPlaceKey: the shape of a line at a name keeps the indentation and
// the word that holds it, the name masked as @ and numbers as #, and a
// number written inside a name is the name's.
func TestPlaceKey(t *testing.T) {
	red := NewName([]string{"Red", "red", "RED"})
	red2 := NewName([]string{"Red2", "red2", "RED2"})
	for _, tc := range []struct {
		line string
		n    Name
		want string
	}{
		{"    ctx->t_red.active = false;", red, "    ctx->t_@.active"},
		{"\tcase P_RED_12: return 3;", red, "\tP_@_#:"},
		{"x12Red2_y 7", red2, "x#@_y"},
		{"Red, Red, Green", red, "@,"},
		{"  f(a1, RED2b, Red2)", red2, "  @)"},
	} {
		occ := tc.n.find(tc.line, nil)
		if len(occ) == 0 {
			t.Fatalf("%q: no %s", tc.line, tc.n)
		}
		if got := placeKey(tc.line, occ); got != tc.want {
			t.Errorf("placeKey(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestWithShadows: shadows found ahead are the ones a scanner finds.
func TestWithShadows(t *testing.T) {
	others := []Name{NewName([]string{"RedLight", "red_light"}), NewName([]string{"Green", "green"}), NewName([]string{"Red", "red"})}
	red := WithShadows(NewName([]string{"Red", "red"}), others)
	if len(red.shadows) != 1 || red.shadows[0].String() != "RedLight" {
		t.Fatalf("shadows %v", red.shadows)
	}
	line := "red_light(); red();"
	got := newScanner(red, others).find(line)
	want := newScanner(NewName([]string{"Red", "red"}), others).find(line)
	if !slices.Equal(got, want) || len(got) != 1 || got[0].beg != 13 {
		t.Errorf("with shadows %v, without %v", got, want)
	}
}

// TestLineStarts: every line's offset; a final newline starts no line.
func TestLineStarts(t *testing.T) {
	for text, want := range map[string][]int{"": {0}, "a": {0}, "a\n": {0}, "a\nbc\n\nd": {0, 2, 5, 6}, "\n\n": {0, 1}} {
		if got := lineStarts(text); !slices.Equal(got, want) {
			t.Errorf("lineStarts(%q) = %v, want %v", text, got, want)
		}
	}
}
