package reduce

// DDMin returns a subsequence of items for which test holds and from which
// no single element can be left out without test failing (a 1-minimal
// subsequence), by Zeller and Hildebrandt's delta debugging: split the
// sequence into n chunks; keep one chunk if it alone passes, else drop one
// chunk if the rest passes, else split finer. test(items) is assumed to
// hold and is not called on it, nor on the empty sequence. The order of the
// calls depends only on items and on what test returns, so a deterministic
// test gives a deterministic reduction.
//
// test must not keep or modify the slice it is given.
func DDMin[T any](items []T, test func([]T) bool) []T {
	items = append([]T(nil), items...)
	n := 2
	buf := make([]T, 0, len(items))
	for len(items) >= 2 {
		n = min(n, len(items))
		bounds := chunks(len(items), n)
		reduced := false
		// Reduce to a subset: one chunk on its own.
		for i := range n {
			sub := items[bounds[i]:bounds[i+1]]
			if test(sub) {
				items = append(items[:0:0], sub...)
				n = 2
				reduced = true
				break
			}
		}
		// Reduce to a complement: everything but one chunk. With two
		// chunks the complements are the subsets just tried.
		if !reduced && n > 2 {
			for i := range n {
				buf = append(append(buf[:0], items[:bounds[i]]...), items[bounds[i+1]:]...)
				if test(buf) {
					items = append(items[:0:0], buf...)
					n--
					reduced = true
					break
				}
			}
		}
		if reduced {
			continue
		}
		if n >= len(items) {
			break
		}
		n = min(2*n, len(items))
	}
	return items
}

// chunks returns the n+1 boundaries that split length elements into n
// chunks whose sizes differ by at most one, the larger ones first.
func chunks(length, n int) []int {
	b := make([]int, n+1)
	size, extra := length/n, length%n
	for i := range n {
		b[i+1] = b[i] + size
		if i < extra {
			b[i+1]++
		}
	}
	return b
}

// RemoveBlocks tries leaving out every run of 2 to maxLen consecutive
// items, the shortest runs first and each length from left to right, and
// keeps every removal that test accepts, trying again the runs each
// removal makes. It complements DDMin, whose chunks
// are aligned: a 1-minimal list of lines can still hold a block that only
// goes as a whole, such as an empty "if … then" with its "end", which no
// chunk happened to cover. Like DDMin it is deterministic and assumes
// test(items) holds.
func RemoveBlocks[T any](items []T, maxLen int, test func([]T) bool) []T {
	items = append([]T(nil), items...)
	buf := make([]T, 0, len(items))
	for w := 2; w <= maxLen; w++ {
		for i := 0; i+w <= len(items) && w < len(items); {
			buf = append(append(buf[:0], items[:i]...), items[i+w:]...)
			if test(buf) {
				items = append(items[:0:0], buf...)
				// The removal joined the items around i into new runs,
				// such as the next block out of a nest of them.
				i = max(0, i-(w-1))
				continue
			}
			i++
		}
	}
	return items
}
