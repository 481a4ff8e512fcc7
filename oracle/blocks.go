package oracle

import (
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
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
		Diff:     Diff(b.File, string(base), string(act)),
		Compared: b.compared(ol, al),
	}}
}

// compared is the evidence of a failure on the lines of o (ol) and o′
// (al): each block's lines where o′ has the block, or looked for; then
// the lines of o′ that are neither o's nor a block's, and those of o that
// o′ lacks. The predicted file is not one text (a block may go at any
// line boundary), so it is these lines that the page shows.
func (b *Blocks) compared(ol, al []string) *result.Compared {
	cmp := &result.Compared{Kind: "blocks", Expects: fmt.Sprintf(
		"%s of o′ is %s of o with %s inserted, each at a line boundary, in the order given, and nothing else changed (white space at the start of a block's lines aside).",
		b.File, b.File, plural(len(b.Blocks), "block of lines", "blocks of lines"))}
	spare := map[string]int{} // lines of o′ beyond o's, by text
	for _, l := range al {
		spare[l]++
	}
	for _, l := range ol {
		spare[l]--
	}
	from := 0
	for k, blk := range b.Blocks {
		at := -1
		for i := from; i+len(blk) <= len(al); i++ {
			if blockAt(al, i, blk) {
				at = i
				break
			}
		}
		for j, l := range blk {
			line := result.CmpLine{Role: result.RoleFound, Why: fmt.Sprintf("block %d, line %d", k+1, j+1)}
			if at >= 0 {
				line.O2 = result.Ref(at+j+1, al[at+j])
				if spare[al[at+j]] > 0 { // else a line o has too: no line of o is taken for removed
					spare[al[at+j]]--
				}
			} else {
				line.Want, line.Role = l, result.RoleMissing
				line.Why += ": o′ has not the block as a run of lines after the blocks before it"
			}
			cmp.Add(line)
		}
		if at >= 0 {
			from = at + len(blk)
		}
	}
	for i, l := range al {
		if spare[l] > 0 {
			spare[l]--
			cmp.Add(result.CmpLine{O2: result.Ref(i+1, l), Role: result.RoleUnexplained, Why: "added: in neither o nor a block"})
		}
	}
	for i, l := range ol {
		if spare[l] < 0 {
			spare[l]++
			cmp.Add(result.CmpLine{O: result.Ref(i+1, l), Role: result.RoleUnexplained, Why: "removed: the blocks only insert lines"})
		}
	}
	return cmp
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
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
