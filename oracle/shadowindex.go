package oracle

import (
	"index/suffixarray"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// shadowIndexMin is the number of names from which shadowsOf looks the
// names that hold one up in an index rather than reading them all.
const shadowIndexMin = 256

// shadowIndex finds the names of a list whose canon holds a text: a
// suffix array of their canons, one after the other.
type shadowIndex struct {
	others []Name // the list, held while its address is the index's key
	sa     *suffixarray.Index
	starts []int // where the canon of each name starts
}

// shadowIndexes are the indexes of the last lists of names: the derived
// checkers of every test case of a seed are given the same list.
var shadowIndexes struct {
	sync.Mutex
	ix   [4]*shadowIndex
	next int
}

// shadowIndexOf returns the index of others, made on first use. A list is
// known by its address and length: lists of names are not changed once
// made.
func shadowIndexOf(others []Name) *shadowIndex {
	shadowIndexes.Lock()
	defer shadowIndexes.Unlock()
	for _, ix := range shadowIndexes.ix {
		if ix != nil && len(ix.others) == len(others) && unsafe.SliceData(ix.others) == unsafe.SliceData(others) {
			return ix
		}
	}
	var b strings.Builder
	ix := &shadowIndex{others: others, starts: make([]int, len(others))}
	for i, o := range others {
		ix.starts[i] = b.Len()
		b.WriteString(canon(o))
		b.WriteByte(0) // (in no canon: a match never spans two)
	}
	ix.sa = suffixarray.New([]byte(b.String()))
	shadowIndexes.ix[shadowIndexes.next] = ix
	shadowIndexes.next = (shadowIndexes.next + 1) % len(shadowIndexes.ix)
	return ix
}

// holding returns the indices, in order, of the names whose canon holds
// cn (and maybe some more: the caller checks each).
func (ix *shadowIndex) holding(cn string) []int {
	var out []int
	for _, off := range ix.sa.Lookup([]byte(cn), -1) {
		i := sort.SearchInts(ix.starts, off+1) - 1 // the last start at or before off
		out = append(out, i)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
