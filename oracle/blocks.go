package oracle

import (
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/tree"
)

// Blocks is the exact checker of a mutation whose output lines are known
// but not their place: a statement inserted at any statement boundary,
// whose C lines go wherever the translation of its neighbours puts them.
// File in o′ must be File in o with each block (a run of lines) inserted
// at some line boundary, the blocks in the order given, and nothing else
// changed. White space at the start of a block's lines is not compared:
// it is the nesting depth of the place, which the relation does not
// predict. Every other line is compared byte for byte.
type Blocks struct {
	Name   string
	File   string
	Blocks [][]string
}

// Check implements relation.Checker.
func (b *Blocks) Check(o, o2 tree.Tree) []Failure {
	name := b.Name
	if name == "" {
		name = "blocks:" + b.File
	}
	base, act, missing := bothFiles(name, b.File, o, o2)
	if missing != nil {
		return missing
	}
	ol, onl := SplitLines(string(base))
	al, anl := SplitLines(string(act))
	if onl == anl && blocksFit(al, ol, b.Blocks) {
		return nil
	}
	var want strings.Builder
	for i, bl := range b.Blocks {
		if i > 0 {
			want.WriteString("…\n")
		}
		for _, l := range bl {
			want.WriteString(l)
			want.WriteByte('\n')
		}
	}
	return []Failure{{
		Checker: name, File: b.File,
		Message:  fmt.Sprintf("%s in o′ is not o with the predicted lines inserted (%d blocks, in order)", b.File, len(b.Blocks)),
		Expected: want.String(), Actual: string(act),
		Diff: Diff(b.File, string(base), string(act)),
	}}
}

// blocksFit reports whether a is b with the blocks inserted in order. The
// first block goes at a position up to the common prefix of a and b (any
// later one would leave a line of b out of place); the rest is fitted
// recursively after it. Blocks hold fresh names, so a block seldom fits
// at more than one position.
func blocksFit(a, b []string, blocks [][]string) bool {
	if len(blocks) == 0 {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	blk := blocks[0]
	if len(a)-len(b) < len(blk) {
		return false
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for i := 0; i <= p && i+len(blk) <= len(a); i++ {
		if blockAt(a, i, blk) && blocksFit(a[i+len(blk):], b[i:], blocks[1:]) {
			return true
		}
	}
	return false
}

func blockAt(a []string, i int, blk []string) bool {
	for j, l := range blk {
		if strings.TrimLeft(a[i+j], " \t") != strings.TrimLeft(l, " \t") {
			return false
		}
	}
	return true
}
