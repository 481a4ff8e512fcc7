// Package suggest finds, among known names, the one a mistyped name was
// probably meant to be, so that an error about an unknown relation, fault
// or transpiler can say "did you mean …?" as the command line does for
// flags and commands.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the known name closest to name, or "" when none is close:
// a known name that starts with name, or one within a few edits of it
// (about a third of its length, at least two).
func Closest(name string, known []string) string {
	best, bestDist := "", -1
	for _, k := range known {
		d := distance(name, k)
		if strings.HasPrefix(k, name) && name != "" {
			d = min(d, 1)
		}
		if d > max(2, len(name)/3) {
			continue
		}
		if bestDist < 0 || d < bestDist || d == bestDist && k < best {
			best, bestDist = k, d
		}
	}
	return best
}

// DidYouMean returns ", did you mean "x"?" for the known name closest to
// name, or "" when none is close.
func DidYouMean(name string, known []string) string {
	if c := Closest(name, known); c != "" {
		return fmt.Sprintf(", did you mean %q?", c)
	}
	return ""
}

// distance is the Levenshtein distance between a and b, counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
