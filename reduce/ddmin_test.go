package reduce

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// counting wraps a predicate and records every call.
func counting(test func([]int) bool) (func([]int) bool, *[]string) {
	var calls []string
	return func(s []int) bool {
		calls = append(calls, fmt.Sprint(s))
		return test(s)
	}, &calls
}

func TestDDMinFindsTheCause(t *testing.T) {
	// The failure needs three scattered elements.
	need := []int{7, 42, 93}
	test, calls := counting(func(s []int) bool {
		for _, x := range need {
			if !slices.Contains(s, x) {
				return false
			}
		}
		return true
	})
	got := DDMin(seq(100), test)
	if !slices.Equal(got, need) {
		t.Fatalf("DDMin = %v, want %v", got, need)
	}
	if n := len(*calls); n > 300 {
		t.Errorf("%d tests for 3 of 100 elements; want far fewer than 100²", n)
	}
	for _, c := range *calls {
		if c == "[]" {
			t.Errorf("the empty sequence was tested")
		}
	}
}

// TestDDMinIsOneMinimal: on a predicate no small subset satisfies,
// removing any one element of the result makes the test fail, and the
// result satisfies the test.
func TestDDMinIsOneMinimal(t *testing.T) {
	// Holds when the sum of the kept elements is at least 200 and the
	// kept elements include an even and an odd one.
	test := func(s []int) bool {
		sum, even, odd := 0, false, false
		for _, x := range s {
			sum += x
			even = even || x%2 == 0
			odd = odd || x%2 == 1
		}
		return sum >= 200 && even && odd
	}
	got := DDMin(seq(60), test)
	if !test(got) {
		t.Fatalf("DDMin = %v does not pass the test", got)
	}
	for i := range got {
		less := slices.Delete(slices.Clone(got), i, i+1)
		if test(less) {
			t.Errorf("DDMin = %v is not 1-minimal: %v passes too", got, less)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("DDMin = %v: the order of the elements changed", got)
	}
}

func TestDDMinIsDeterministic(t *testing.T) {
	test := func(s []int) bool {
		// Something irregular: a pair at distance 5 whose sum is 3 mod 7.
		for i, x := range s {
			for _, y := range s[i+1:] {
				if y-x == 5 && (x+y)%7 == 3 {
					return true
				}
			}
		}
		return false
	}
	t1, c1 := counting(test)
	t2, c2 := counting(test)
	a, b := DDMin(seq(80), t1), DDMin(seq(80), t2)
	if !slices.Equal(a, b) || !slices.Equal(*c1, *c2) {
		t.Fatalf("two runs differ: %v after %d tests, %v after %d", a, len(*c1), b, len(*c2))
	}
	if len(a) != 2 || !test(a) {
		t.Errorf("DDMin = %v, want one pair", a)
	}
}

func TestDDMinEdges(t *testing.T) {
	never := func([]int) bool { return false }
	for _, n := range []int{0, 1, 2, 3, 17} {
		if got := DDMin(seq(n), never); !slices.Equal(got, seq(n)) {
			t.Errorf("n=%d: nothing passes but DDMin = %v", n, got)
		}
	}
	in := seq(10)
	DDMin(in, func(s []int) bool { return slices.Contains(s, 4) })
	if !slices.Equal(in, seq(10)) {
		t.Errorf("DDMin changed its input: %v", in)
	}
}

func TestChunks(t *testing.T) {
	for _, c := range []struct {
		length, n int
		want      []int
	}{
		{10, 2, []int{0, 5, 10}},
		{10, 3, []int{0, 4, 7, 10}},
		{5, 5, []int{0, 1, 2, 3, 4, 5}},
	} {
		if got := chunks(c.length, c.n); !slices.Equal(got, c.want) {
			t.Errorf("chunks(%d, %d) = %v, want %v", c.length, c.n, got, c.want)
		}
	}
}

func TestTokensKeepLines(t *testing.T) {
	src := "logic A\n\n  states Red,  Green\r\n\tif x then send B end   \nlast"
	tk := tokenize(src)
	if got := tk.join(tk.tokens); got != src {
		t.Errorf("join of all tokens = %q", got)
	}
	var texts []string
	for _, tok := range tk.tokens {
		texts = append(texts, tok.text)
	}
	if got := strings.Join(texts, "|"); got != "logic|A|states|Red,|Green|if|x|then|send|B|end|last" {
		t.Errorf("tokens = %s", got)
	}
	// Leave out "A", "Red," and the whole fourth line.
	var kept []token
	for _, tok := range tk.tokens {
		switch {
		case tok.text == "A", tok.text == "Red,", tok.line == 3:
		default:
			kept = append(kept, tok)
		}
	}
	if got := tk.join(kept); got != "logic\n\n  states  Green\r\nlast" {
		t.Errorf("join = %q", got)
	}
	if n := CountLines([]byte(src)); n != 5 {
		t.Errorf("CountLines = %d, want 5", n)
	}
}

// TestRemoveBlocks: an empty pair of brackets between two needed items is
// 1-minimal for DDMin, which no aligned chunk lets go, and RemoveBlocks
// removes it.
func TestRemoveBlocks(t *testing.T) {
	balanced := func(s []string) bool {
		depth := 0
		for _, x := range s {
			switch x {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth < 0 {
				return false
			}
		}
		return depth == 0
	}
	test := func(s []string) bool {
		return balanced(s) && len(s) >= 2 && s[0] == "A" && s[len(s)-1] == "B"
	}
	in := strings.Split("A ( ) B", " ")
	ddmin := DDMin(in, test)
	if got := strings.Join(ddmin, ""); got != "A()B" {
		t.Fatalf("DDMin = %s, want A()B (the case this test is about)", got)
	}
	if got := strings.Join(RemoveBlocks(ddmin, 4, test), ""); got != "AB" {
		t.Errorf("RemoveBlocks = %s, want AB", got)
	}
	// Nested blocks go one after the other; blocks longer than the limit stay.
	in = strings.Split("A ( ( ) ) x ( ( ( ) ) ) B", " ")
	keepX := func(s []string) bool { return test(s) && slices.Contains(s, "x") }
	if got := strings.Join(RemoveBlocks(in, 2, keepX), ""); got != "AxB" {
		t.Errorf("RemoveBlocks = %s, want AxB", got)
	}
}
