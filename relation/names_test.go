package relation

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFreshLargeSeeds: on seeds large enough that their lower case is
// remembered, a fresh name still avoids what each seed holds, in any case,
// also when a seed is changed in place (same length, other bytes).
func TestFreshLargeSeeds(t *testing.T) {
	fp, err := ParseFreshPattern("Zq[a-z]{6}")
	if err != nil {
		t.Fatal(err)
	}
	fresh := func(src []byte) string {
		t.Helper()
		n, err := fp.Fresh(rand.New(rand.NewPCG(1, 2)), src, map[string]bool{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	pad := strings.Repeat("x ", 4<<10)
	first := fresh([]byte(pad + "zzzzzzzz"))
	holding := []byte(pad + strings.ToUpper(first))
	for range 3 { // (the second time, remembered)
		if got := fresh(holding); got == first {
			t.Fatalf("fresh name %s on a seed that holds %s", got, strings.ToUpper(first))
		}
	}
	copy(holding[len(pad):], "ZZZZZZZZ") // changed in place: it holds the name no more
	if got := fresh(holding); got != first {
		t.Errorf("fresh name on a seed changed in place: %s, want %s", got, first)
	}
	if got := fresh([]byte(pad + "zzzzzzzz")); got != first {
		t.Errorf("fresh name on the first seed again: %s, want %s", got, first)
	}
}
