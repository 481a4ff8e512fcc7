package yamlrel

import (
	"fmt"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The list functions remember what they computed on the large lists of
// an input. Every spot of a seed asks the same of them: the field lets
// of a struct select over all the seed's records, a spots condition
// looks a name up in all the declarations of a region, so that computing
// it again each time made listing the spots quadratic in the seed's
// declarations (5,000 Thrift structs took over a minute). A list is known
// by its first element's address and its length: the entry holds the
// list, so that its memory is not reused for another while the entry
// lasts, and the lists templates see are never written to once made, but
// for the lets of a kind's declarations, which are set between rounds
// (memoGen).

// memoMin is the length from which a list's results are remembered:
// below it, computing them again costs less than looking them up.
const memoMin = 32

// memoMax is how many results are remembered, the oldest dropped first.
const memoMax = 1024

// memoGen counts the changes to the items of inputs (a round of lets
// set): a result remembered before one is not used after it.
var memoGen atomic.Uint64

type memoKey struct {
	fn, arg string // the function and its other arguments
	ptr     unsafe.Pointer
	n       int
	gen     uint64
}

type memoEntry struct {
	hold any // the list, kept alive while its address is a key
	val  any
}

// memoTable holds remembered results, the oldest dropped first.
type memoTable struct {
	sync.Mutex
	m    map[memoKey]memoEntry
	ring []memoKey
	next int
}

// memo holds the results on lists and tallies; matches the results of
// match and count on a seed's text, apart: a pattern made for each spot
// (with the spot's name in it) is seen once, and would push the others
// out.
var memo, matches memoTable

// listKey is the key of fn with arg on list xs, and whether xs is long
// enough to remember results of.
func listKey[T any](fn, arg string, xs []T) (memoKey, bool) {
	if len(xs) < memoMin {
		return memoKey{}, false
	}
	return memoKey{fn: fn, arg: arg, ptr: unsafe.Pointer(unsafe.SliceData(xs)), n: len(xs), gen: memoGen.Load()}, true
}

// remembered returns the result of fn with arg on list xs: the one
// remembered, or that of compute (remembered when it succeeds).
func remembered[T, V any](fn, arg string, xs []T, compute func() (V, error)) (V, error) {
	k, ok := listKey(fn, arg, xs)
	if !ok {
		return compute()
	}
	return rememberedIn(&memo, k, xs, compute)
}

func rememberedIn[V any](t *memoTable, k memoKey, hold any, compute func() (V, error)) (V, error) {
	if v, found := t.get(k); found {
		return v.(V), nil
	}
	v, err := compute()
	if err == nil {
		t.put(k, hold, v)
	}
	return v, err
}

func memoGet(k memoKey) (any, bool)    { return memo.get(k) }
func memoPut(k memoKey, hold, val any) { memo.put(k, hold, val) }

func (t *memoTable) get(k memoKey) (any, bool) {
	t.Lock()
	defer t.Unlock()
	e, ok := t.m[k]
	return e.val, ok
}

// put remembers val under k, holding what k's address is of.
func (t *memoTable) put(k memoKey, hold, val any) {
	t.Lock()
	defer t.Unlock()
	if t.m == nil {
		t.m = make(map[memoKey]memoEntry, memoMax)
		t.ring = make([]memoKey, memoMax)
	}
	if _, there := t.m[k]; !there {
		if old := t.ring[t.next]; old.ptr != nil {
			delete(t.m, old)
		}
		t.ring[t.next] = k
		t.next = (t.next + 1) % memoMax
	}
	t.m[k] = memoEntry{hold: hold, val: val}
}

// matchedText is the result of fn (match or count) with re on s,
// remembered for a long s: a condition with a fixed pattern on the seed's
// text (`{{if match "\\bto max\\b" .input.text}}`) has the same value
// at every spot.
func matchedText[V any](fn, re, s string, compute func() (V, error)) (V, error) {
	if len(s) < memoMinText {
		return compute()
	}
	k := memoKey{fn: fn, arg: re, ptr: unsafe.Pointer(unsafe.StringData(s)), n: len(s)}
	return rememberedIn(&matches, k, s, compute)
}

// firstIndex maps each string of xs to the index of its first
// occurrence.
func firstIndex(xs []string) map[string]int {
	m := make(map[string]int, len(xs))
	for i, x := range xs {
		if _, ok := m[x]; !ok {
			m[x] = i
		}
	}
	return m
}

// indexIn is slices.Index(xs, x), by an index of xs remembered when it
// is long.
func indexIn(xs []string, x string) int {
	if len(xs) < memoMin {
		return slices.Index(xs, x)
	}
	idx, _ := remembered("index", "", xs, func() (map[string]int, error) { return firstIndex(xs), nil })
	if i, ok := idx[x]; ok {
		return i
	}
	return -1
}

// memoMinText is the length from which a text's results are remembered.
const memoMinText = 4 << 10

// rememberedText is remembered for a text: the result of fn with arg on
// s.
func rememberedText[V any](fn, arg, s string, compute func() (V, error)) (V, error) {
	if len(s) < memoMinText {
		return compute()
	}
	return remembered(fn, arg, unsafe.Slice(unsafe.StringData(s), len(s)), compute)
}

// tally counts the texts that re matches in v, a string or a list of
// strings (each on its own): the first group that took part in each
// match, or the whole match when none did. A seed's text and the lists
// of its declarations are the same for all its spots, so the count is
// remembered: every spot may look a name up in it.
func tally(re string, v any) (map[string]int, error) {
	rx, err := cachedRE(re)
	if err != nil {
		return nil, err
	}
	count := func(m map[string]int, s string) error {
		for _, loc := range rx.FindAllStringSubmatchIndex(s, -1) {
			k := s[loc[0]:loc[1]]
			for g := 2; g+1 < len(loc); g += 2 {
				if loc[g] >= 0 {
					k = s[loc[g]:loc[g+1]]
					break
				}
			}
			if _, ok := m[k]; !ok && len(m) >= maxItems {
				return fmt.Errorf("tally: over %d different texts", maxItems)
			}
			m[k]++
		}
		return nil
	}
	switch x := v.(type) {
	case string:
		return rememberedText("tally", re, x, func() (map[string]int, error) {
			m := map[string]int{}
			return m, count(m, x)
		})
	case []string:
		return remembered("tally", re, x, func() (map[string]int, error) {
			m := map[string]int{}
			for _, s := range x {
				if err := count(m, s); err != nil {
					return nil, err
				}
			}
			return m, nil
		})
	}
	return nil, fmt.Errorf("tally: %T is neither a string nor a list of strings", v)
}

// suffixStops is what until remembers of a list: for each item, where
// the first item at or after it whose key matches stops (len(base) when
// none does), and whether that item lacks the key (an error).
type suffixStops struct {
	base    []map[string]any
	stop    []int
	missing []bool
}

// untilMemo is until, remembered for the suffixes of a long list: the
// items after each spot of a region (.region.after) end where the
// region's items end, and each spot asks for the items up to the first
// of some kind after it; scanning them for each spot was quadratic in
// the region's items. A list is known here by where it ends; the longest
// one seen is kept (the first spot's, when spots are listed in order).
func untilMemo(key, re string, xs []map[string]any, rx *regexp.Regexp) ([]map[string]any, error) {
	end := unsafe.Pointer(unsafe.SliceData(xs[len(xs)-1:]))
	k := memoKey{fn: "until", arg: key + "\x00" + re, ptr: end, gen: memoGen.Load()}
	var st *suffixStops
	if v, found := memoGet(k); found {
		st = v.(*suffixStops)
	}
	if st == nil || len(st.base) < len(xs) {
		st = &suffixStops{base: xs, stop: make([]int, len(xs)), missing: make([]bool, len(xs))}
		next, miss := len(xs), false
		for i := len(xs) - 1; i >= 0; i-- {
			v, ok := xs[i][key]
			switch {
			case !ok:
				next, miss = i, true
			case rx.MatchString(text(v)):
				next, miss = i, false
			}
			st.stop[i], st.missing[i] = next, miss
		}
		memoPut(k, xs, st)
	}
	off := len(st.base) - len(xs)
	s := st.stop[off]
	if s == len(st.base) {
		return xs, nil
	}
	if st.missing[off] {
		return nil, fmt.Errorf("until: an item has no %q", key)
	}
	return xs[:s-off], nil
}

// A region's items are seen in parts: the items before and after each
// spot. The region registers its whole list (wholeList), so that pluck
// and select on a part take their results from those on the whole,
// computed once for all the spots.

func wholeKeys[T any](xs []T) (start, end memoKey) {
	start = memoKey{fn: "whole-start", ptr: unsafe.Pointer(unsafe.SliceData(xs))}
	end = memoKey{fn: "whole-end", ptr: unsafe.Pointer(unsafe.SliceData(xs[len(xs)-1:]))}
	return start, end
}

// wholeList registers xs as a whole whose parts templates see.
func wholeList(xs []map[string]any) {
	if len(xs) < memoMin {
		return
	}
	start, end := wholeKeys(xs)
	memoPut(start, xs, xs)
	memoPut(end, xs, xs)
}

// partOf returns the registered whole that xs is the start or the end
// of, and where xs starts in it.
func partOf(xs []map[string]any) (whole []map[string]any, off int, ok bool) {
	if len(xs) == 0 {
		return nil, 0, false
	}
	start, end := wholeKeys(xs)
	if v, found := memoGet(start); found {
		if w := v.([]map[string]any); len(w) >= len(xs) {
			return w, 0, true
		}
	}
	if v, found := memoGet(end); found {
		if w := v.([]map[string]any); len(w) >= len(xs) {
			return w, len(w) - len(xs), true
		}
	}
	return nil, 0, false
}

// selected is select or reject on a whole: the items kept, and for each
// index of the whole how many were kept before it.
type selected struct {
	kept []map[string]any
	rank []int
}
