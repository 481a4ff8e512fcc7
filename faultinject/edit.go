package faultinject

import (
	"bytes"
	"fmt"
	"sort"
)

// An editBuffer collects insertions and replacements by byte offset into a
// source text and applies them in one pass, the way cmd/cover does, so that
// everything the edits do not touch — comments, layout, line breaks — stays
// as it was.
type editBuffer struct {
	src   []byte
	edits []edit
}

// An edit replaces src[start:end] with text; start == end inserts.
type edit struct {
	start, end int
	text       string
	kind       int // at the same offset: closings, then replacements, then openings
	span       int // nesting order among closings or openings at one offset
	seq        int // registration order, the last tie-breaker
}

const (
	kindClose = iota
	kindReplace
	kindOpen
)

// wrap surrounds src[start:end] with open and close. Wraps nest: for two
// wraps at the same offset the larger span opens first and closes last; for
// equal spans the one registered first is the outer one.
func (b *editBuffer) wrap(start, end int, open, close string) {
	n := len(b.edits)
	b.edits = append(b.edits,
		edit{start: start, end: start, text: open, kind: kindOpen, span: -end, seq: n},
		edit{start: end, end: end, text: close, kind: kindClose, span: -start, seq: -n})
}

// replace replaces src[start:end] with text.
func (b *editBuffer) replace(start, end int, text string) {
	b.edits = append(b.edits, edit{start: start, end: end, text: text, kind: kindReplace, seq: len(b.edits)})
}

// bytes applies the edits. Replacements must not overlap one another or
// contain an insertion point.
func (b *editBuffer) bytes() ([]byte, error) {
	es := append([]edit(nil), b.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		x, y := es[i], es[j]
		if x.start != y.start {
			return x.start < y.start
		}
		if x.kind != y.kind {
			return x.kind < y.kind
		}
		if x.span != y.span {
			return x.span < y.span
		}
		return x.seq < y.seq
	})
	var out bytes.Buffer
	out.Grow(len(b.src) + len(b.src)/4)
	pos := 0
	for _, e := range es {
		if e.start < pos {
			return nil, fmt.Errorf("internal error: edit at offset %d overlaps a replacement ending at %d", e.start, pos)
		}
		out.Write(b.src[pos:e.start])
		out.WriteString(e.text)
		pos = e.end
	}
	out.Write(b.src[pos:])
	return out.Bytes(), nil
}
