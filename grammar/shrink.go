package grammar

import (
	"encoding/binary"
	"slices"
)

// maxShrinkTries bounds the calls of keep in one Shrink.
const maxShrinkTries = 5000

// Shrink reduces a recorded stream while keep holds for the program it
// derives, and returns the smallest record found. It knows where each
// repetition item and chosen alternative lies in the record, so it first
// deletes items (lowering their count) and replaces alternatives by the
// shortest, then deletes and zeroes chunks and lowers single values. It
// accepts a candidate only when the record the derivation actually consumed
// is shorter, or as long and lexicographically smaller, so it always ends.
// If keep does not hold for choices to begin with, choices is returned
// unchanged.
func Shrink(g *Grammar, choices []int, keep func(src []byte) bool) []int {
	sh := &shrinker{g: g, keep: keep, tried: map[string]bool{}}
	src, rec, spans, ok := sh.run(choices)
	if !ok || !keep(src) {
		return choices
	}
	sh.cur, sh.spans = rec, spans
	sh.tried[key(rec)] = true
	for progress := true; progress && sh.tries < maxShrinkTries; {
		progress = sh.deleteItems()
		progress = sh.simplifyChoices() || progress
		progress = sh.deleteChunks() || progress
		progress = sh.zeroChunks() || progress
		progress = sh.lowerAndDelete() || progress
		progress = sh.lowerValues() || progress
	}
	return sh.cur
}

type shrinker struct {
	g     *Grammar
	keep  func([]byte) bool
	cur   []int
	spans []span
	tried map[string]bool
	tries int
}

func (sh *shrinker) run(c []int) ([]byte, []int, []span, bool) {
	s := Replay(c)
	src, _, spans, err := sh.g.deriveTraced(s, sh.g.depth, true)
	if err != nil {
		return nil, nil, nil, false
	}
	return src, s.Choices(), spans, true
}

// try replays c and makes it current if the record it consumes is smaller
// and its program keeps.
func (sh *shrinker) try(c []int) bool {
	if sh.tries >= maxShrinkTries {
		return false
	}
	src, rec, spans, ok := sh.run(c)
	if !ok || !smaller(rec, sh.cur) || sh.tried[key(rec)] {
		return false
	}
	sh.tried[key(rec)] = true
	sh.tries++
	if !sh.keep(src) {
		return false
	}
	sh.cur, sh.spans = append([]int(nil), rec...), spans
	return true
}

// splice returns cur with [from, to) replaced by with.
func (sh *shrinker) splice(from, to int, with ...int) []int {
	c := make([]int, 0, len(sh.cur)-(to-from)+len(with))
	c = append(c, sh.cur[:from]...)
	c = append(c, with...)
	return append(c, sh.cur[to:]...)
}

// candidates runs make over the spans, largest first, restarting after
// every success since the spans then change.
func (sh *shrinker) overSpans(rep bool, make func(s span) [][]int) bool {
	progress := false
	for again := true; again && sh.tries < maxShrinkTries; {
		again = false
		type cand struct {
			c    []int
			size int
		}
		var cands []cand
		for _, s := range sh.spans {
			if s.rep != rep {
				continue
			}
			for _, c := range make(s) {
				cands = append(cands, cand{c, len(sh.cur) - len(c)})
			}
		}
		slices.SortStableFunc(cands, func(a, b cand) int { return b.size - a.size })
		for _, c := range cands {
			if sh.try(c.c) {
				progress, again = true, true
				break
			}
		}
	}
	return progress
}

// deleteItems deletes one item of a repetition and lowers its count.
func (sh *shrinker) deleteItems() bool {
	return sh.overSpans(true, func(s span) [][]int {
		if sh.cur[s.at] == 0 {
			return nil
		}
		var cs [][]int
		for i := 0; i+1 < len(s.bounds); i++ {
			c := sh.splice(s.bounds[i], s.bounds[i+1])
			c[s.at]--
			cs = append(cs, c)
		}
		return cs
	})
}

// simplifyChoices replaces a chosen alternative and what it drew by the
// first (shortest) alternative.
func (sh *shrinker) simplifyChoices() bool {
	return sh.overSpans(false, func(s span) [][]int {
		if s.bounds[1]-s.at <= 1 && sh.cur[s.at] == 0 {
			return nil
		}
		return [][]int{sh.splice(s.at, s.bounds[1], 0)}
	})
}

func (sh *shrinker) deleteChunks() bool {
	progress := false
	for k := 8; k >= 1; k /= 2 {
		for i := len(sh.cur) - k; i >= 0; i-- {
			if i+k <= len(sh.cur) && sh.try(sh.splice(i, i+k)) {
				progress = true
			}
		}
	}
	return progress
}

func (sh *shrinker) zeroChunks() bool {
	progress := false
	for k := 8; k >= 1; k /= 2 {
		for i := 0; i+k <= len(sh.cur); i++ {
			c := slices.Clone(sh.cur)
			zero := true
			for j := i; j < i+k; j++ {
				zero = zero && c[j] == 0
				c[j] = 0
			}
			if !zero && sh.try(c) {
				progress = true
			}
		}
	}
	return progress
}

// lowerAndDelete lowers a value and deletes what follows it: a repetition
// count and the item it no longer derives, when no span told.
func (sh *shrinker) lowerAndDelete() bool {
	progress := false
	for i := 0; i < len(sh.cur); i++ {
		for _, k := range []int{1, 2, 4, 8} {
			if i >= len(sh.cur) || sh.cur[i] == 0 || i+1+k > len(sh.cur) {
				break
			}
			c := sh.splice(i+1, i+1+k)
			c[i]--
			if sh.try(c) {
				progress = true
			}
		}
	}
	return progress
}

// lowerValues binary-searches the least value at each index that keeps.
func (sh *shrinker) lowerValues() bool {
	progress := false
	for i := 0; i < len(sh.cur); i++ {
		lo, hi := 0, sh.cur[i]
		for lo < hi && i < len(sh.cur) {
			mid := (lo + hi) / 2
			c := slices.Clone(sh.cur)
			c[i] = mid
			if sh.try(c) {
				progress = true
				if i >= len(sh.cur) {
					break
				}
				hi = sh.cur[i]
			} else {
				lo = mid + 1
			}
		}
	}
	return progress
}

// smaller orders records shortlex: shorter first, then lexicographically.
func smaller(a, b []int) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func key(c []int) string {
	b := make([]byte, 0, 2*len(c))
	for _, v := range c {
		b = binary.AppendUvarint(b, uint64(v))
	}
	return string(b)
}
