package syntax

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// enums is a module of n enums of three members, each with a comment
// that ends its member's line.
func enums(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "enum E%d {\n  A, // a\n  B = 2,\n  C\n}\n", i)
	}
	return b.String()
}

// allocated is the number of bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestListsLinear: the lists of a file are learnt in memory linear in the
// file: what a layout reads of the whole file (its line ending, its
// indentation unit) is read once, not once per list (a copy of the whole
// source per list and per member's comment: quadratic, gigabytes for a
// seed of megabytes).
func TestListsLinear(t *testing.T) {
	perByte := func(n int) float64 {
		tr := parseEnums(t, enums(n))
		var ls []*List
		b := allocated(func() { ls = Lists(tr, enumSpec) })
		if len(ls) != n || len(ls[n-1].Members) != 3 || ls[n-1].Members[0].Trailing == nil {
			t.Fatalf("%d enums: %d lists", n, len(ls))
		}
		return float64(b) / float64(len(tr.Src))
	}
	small, large := perByte(200), perByte(4000)
	t.Logf("%.1f bytes a byte for 200 enums, %.1f for 4,000", small, large)
	if large > 2*small+8 {
		t.Errorf("learning the lists of 4,000 enums allocates %.1f bytes a byte of the file, of 200 enums %.1f: not linear", large, small)
	}
}

// BenchmarkLists learns the lists of files of 1,000 and 10,000 enums: the
// time per list does not grow with the file.
func BenchmarkLists(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tr := parseEnums(&testing.T{}, enums(n))
			b.ReportAllocs()
			for b.Loop() {
				tr.text = nil
				Lists(tr, enumSpec)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/list")
		})
	}
}
