package relationtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// StrayLine is the line CheckersCanFail adds to a file of o′ that a
// checker must keep unchanged.
const StrayLine = "stray line added by relationtest"

// CheckersCanFail runs relation r at every spot of each input with the
// correct transpiler tr, checks that the two outputs pass every checker,
// and then breaks o′ the way each checker guards against and checks that
// it fails: no checker is vacuous.
//
// At every spot, an equivalence check gets a stray line in a file it
// covers and a difference or blocks check loses the first line the
// follow-up added to its file; each must fail, and no other checker with it. A derived
// checker (locality, order, analogy, which may be unable to decide at a
// spot and then pass) must fail at one spot at least, on one of these
// breakings of o′: a file that the follow-up changed as it was in o, or
// with its first added line dropped, doubled, prefixed with a stray word,
// swapped with the line before or after it, moved to the start or the
// end, or a stray line added; a stray line added to a file it did not change.
// An input where r has no spot is skipped; r must have a spot on one.
func CheckersCanFail(t testing.TB, r *relation.Relation, tr transpiler.Transpiler, inputs ...relation.Input) {
	t.Helper()
	tried := 0
	derived := map[int]string{} // checker index → type, for the derived checkers
	failed := map[int]bool{}    // the derived checkers that failed somewhere
	for _, in := range inputs {
		spots, err := r.Spots(t.Context(), in)
		if err != nil {
			t.Fatalf("relation %s: spots of %s: %v", r.Name, in.Name, err)
		}
		for _, sp := range spots {
			tried++
			fu, err := r.Mutate(t.Context(), in, sp, Rand(1, sp))
			if err != nil {
				t.Fatalf("relation %s: %s spot %d: %v", r.Name, in.Name, sp.Index, err)
			}
			o, o2 := Transpile(t, tr, in, fu)
			if fails := fu.Check(o, o2); len(fails) > 0 {
				t.Errorf("relation %s: %s spot %d (%s): false alarm: %s", r.Name, in.Name, sp.Index, sp.Desc, describe(fails))
				continue
			}
			for k, c := range fu.Checks {
				switch c.(type) {
				case *oracle.Equivalence, *oracle.Difference, *oracle.Blocks:
					if msg := exactCanFail(fu, c, o, o2); msg != "" {
						t.Errorf("relation %s: %s spot %d (%s), checker %d (%T): %s", r.Name, in.Name, sp.Index, sp.Desc, k, c, msg)
					}
				default:
					derived[k] = fmt.Sprintf("%T", c)
					failed[k] = failed[k] || failsOnABreaking(c, o, o2)
				}
			}
		}
	}
	if tried == 0 {
		t.Fatalf("relation %s has no spot on any of the %d inputs", r.Name, len(inputs))
	}
	for _, k := range slices.Sorted(maps.Keys(derived)) {
		if !failed[k] {
			t.Errorf("relation %s: checker %d (%s) fails on no breaking of o′ at any spot of the %d inputs", r.Name, k, derived[k], len(inputs))
		}
	}
}

// exactCanFail breaks o2 for the equivalence or difference check c and
// says what went wrong, or "".
func exactCanFail(fu *relation.FollowUp, c relation.Checker, o, o2 tree.Tree) string {
	var broken tree.Tree
	switch c := c.(type) {
	case *oracle.Equivalence:
		broken = strayLine(c.Excepts, o2, func(string) bool { return true })
		if broken == nil {
			return "the equivalence check covers no file"
		}
	case *oracle.Difference:
		file, _ := oracle.FindFile(c.File, o)
		broken = editAdded(o, o2, file, drop)
		if broken == nil {
			return fmt.Sprintf("the follow-up changed nothing in %s", c.File)
		}
	case *oracle.Blocks:
		broken = editAdded(o, o2, c.File, drop)
		if broken == nil {
			return fmt.Sprintf("the follow-up changed nothing in %s", c.File)
		}
	}
	own := c.Check(o, broken)
	if len(own) == 0 {
		return "the breaking meant for it does not make it fail"
	}
	if all := fu.Check(o, broken); len(all) != len(own) {
		return fmt.Sprintf("the breaking meant for it makes other checkers fail too: %v", checkers(all))
	}
	return ""
}

// failsOnABreaking tells whether c fails on one of the generic breakings
// of o2.
func failsOnABreaking(c relation.Checker, o, o2 tree.Tree) bool {
	for _, b := range breakings(o, o2) {
		if len(c.Check(o, b)) > 0 {
			return true
		}
	}
	return false
}

// strayLine adds a line to the first file of o2 not in except for which
// pick is true; nil when there is none.
func strayLine(except func(file string) bool, o2 tree.Tree, pick func(file string) bool) tree.Tree {
	for _, f := range o2.Names() {
		if !except(f) && pick(f) {
			b := maps.Clone(o2)
			b[f] = append(slices.Clone(o2[f]), StrayLine+"\n"...)
			return b
		}
	}
	return nil
}

// firstAdded is the index of the first line of o2's file that o's lacks,
// skipping a blank line to the line after it.
func firstAdded(old, lines []string) int {
	for i := range lines {
		if i >= len(old) || lines[i] != old[i] {
			if strings.TrimSpace(lines[i]) == "" && i+1 < len(lines) {
				i++
			}
			return i
		}
	}
	return -1
}

// The edits of a file's first added line, at index i.
func drop(lines []string, i int) []string   { return slices.Delete(lines, i, i+1) }
func double(lines []string, i int) []string { return slices.Insert(lines, i, lines[i]) }
func stray(lines []string, i int) []string  { return append(lines, StrayLine) }
func mangle(lines []string, i int) []string {
	lines[i] = "stray " + lines[i]
	return lines
}
func swapUp(lines []string, i int) []string {
	if i > 0 {
		lines[i-1], lines[i] = lines[i], lines[i-1]
	}
	return lines
}
func toEnd(lines []string, i int) []string {
	return append(slices.Delete(slices.Clone(lines), i, i+1), lines[i])
}
func toStart(lines []string, i int) []string {
	return slices.Insert(slices.Delete(slices.Clone(lines), i, i+1), 0, lines[i])
}
func swapDown(lines []string, i int) []string {
	if i+1 < len(lines) {
		lines[i], lines[i+1] = lines[i+1], lines[i]
	}
	return lines
}

// editAdded applies edit to the lines of file in o2 at its first added
// line; nil when the file did not change.
func editAdded(o, o2 tree.Tree, file string, edit func(lines []string, i int) []string) tree.Tree {
	old, _ := oracle.SplitLines(string(o[file]))
	lines, nl := oracle.SplitLines(string(o2[file]))
	i := firstAdded(old, lines)
	if i < 0 {
		return nil
	}
	b := maps.Clone(o2)
	b[file] = []byte(oracle.JoinLines(edit(slices.Clone(lines), i), nl))
	return b
}

// breakings are the generic breakings of o2: every file the follow-up
// changed as it was in o, or with its first added line dropped, doubled,
// prefixed with a stray word, swapped with the line before or after it,
// moved to the start or the end, or a stray line added; a stray line added to the first file it did
// not change.
func breakings(o, o2 tree.Tree) []tree.Tree {
	var out []tree.Tree
	for _, f := range o2.Names() {
		if string(o[f]) == string(o2[f]) {
			continue
		}
		for _, e := range []func([]string, int) []string{drop, double, mangle, swapUp, swapDown, toStart, toEnd, stray} {
			if b := editAdded(o, o2, f, e); b != nil {
				out = append(out, b)
			}
		}
		restored := maps.Clone(o2)
		restored[f] = o[f]
		if o[f] == nil {
			delete(restored, f)
		}
		out = append(out, restored)
	}
	if b := strayLine(func(string) bool { return false }, o2, func(f string) bool { return string(o[f]) == string(o2[f]) }); b != nil {
		out = append(out, b)
	}
	return out
}
