package oracle

import (
	"slices"
	"strings"
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

// TestShadowIndex: among many names, the shadows found through the index
// are those a scan of every name finds, in the same order.
func TestShadowIndex(t *testing.T) {
	words := []string{"Red", "Light", "red_light", "RedLight", "Green", "green", "Lights", "Re", "d", "LightRed", "Greenhouse"}
	var others []Name
	for i := range 3 * shadowIndexMin {
		w := words[i%len(words)] + words[(i/len(words))%len(words)]
		if i%7 == 0 {
			w = words[i%len(words)]
		}
		others = append(others, NewName([]string{w, strings.ToLower(w), strings.ToUpper(w)}))
	}
	for _, w := range append(words, "Zq", "ghtR", "") {
		n := NewName([]string{w, strings.ToLower(w), strings.ToUpper(w)})
		got, want := shadowsOf(n, others), shadowsAmong(n, others, nil)
		if len(got) != len(want) {
			t.Fatalf("%q: %d shadows through the index, %d by a scan", w, len(got), len(want))
		}
		for i := range got {
			if got[i].Forms[0] != want[i].Forms[0] {
				t.Fatalf("%q: shadow %d is %v through the index, %v by a scan", w, i, got[i].Forms, want[i].Forms)
			}
		}
		if w == "Red" && len(got) == 0 {
			t.Fatal("Red has no shadow among names that hold it")
		}
	}
}

func TestOccurrences(t *testing.T) {
	for _, c := range []struct {
		s, sub string
		want   []int
	}{
		{"aaa", "aa", []int{0, 1}},
		{"x = x1 + x", "x", []int{0, 4, 9}},
		{"abc", "d", nil},
		{"", "a", nil},
		{"ab", "", []int{0, 1, 2}},
	} {
		got := slices.Collect(occurrences(c.s, c.sub))
		if !slices.Equal(got, c.want) {
			t.Errorf("occurrences(%q, %q) = %v, want %v", c.s, c.sub, got, c.want)
		}
	}
	// a break stops the search (the runtime panics if it went on)
	for range occurrences("aaaa", "a") {
		break
	}
}
