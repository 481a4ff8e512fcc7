package oracle

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Verdict is what a derived checker found: its failures, and the parts of
// the check it could not decide (a neighbour absent, a sibling without
// lines), which pass.
type Verdict struct {
	Fails     []Failure
	Undecided []string
}

// Any is the allowance that does not limit (Locality.Numbers, Punctuation).
const Any = -1

// Locality is the derived checker that needs nothing but the fresh names:
// a file of o′ that mentions no fresh name is byte-identical to o's (unless
// it gained a line an Also pattern matches whole, the new declaration's
// entry written without its name, protoc-c's tables under optimize_for =
// CODE_SIZE, or a line Copies takes as the copy's; then its changes are
// explained as below), and
// in a file that changed, every line added or removed mentions a fresh name
// or is an old line changed only in its numbers (a count, a renumbered
// value) or in list punctuation (a trailing comma, a separator moved), of
// which the relation allows at most Numbers and Punctuation lines (Any: no
// limit), each number changed by By when By is set. Blank lines and lines of punctuation alone ("{", "}", "};") count
// as the new declaration's when the changed region they are in has a line
// that mentions a fresh name; with Hunks, every added line of such a
// region does. A file that appears in o′ must mention a fresh name in its
// path or content; a file that disappears fails.
type Locality struct {
	Name  string
	Fresh []Name
	// Files, when given, are the only files looked at; Except are files
	// not looked at. Both hold names or patterns (path.Match: `*.c`).
	// Two locality checks split by them give files their own allowances
	// (the numbers of a .c file's sorted tables, none in the header).
	Files       []string
	Except      []string
	Numbers     int
	Punctuation int
	Hunks       bool
	// By, when not 0, is the amount every number of a line changed only in
	// its numbers must have changed by (a count that grows by one).
	By int
	// Renamed lets an old line name the new declaration where it named
	// another (the largest value of an enum, now the new enumerator).
	Renamed bool
	// Also are patterns of text besides the new declaration's that may be
	// added or removed: a line they match whole, or the part of an old line
	// they match (a `noexcept` that a new field takes away).
	Also []*regexp.Regexp
	// Grows are patterns of lines that name no declaration but may gain
	// tokens (a positional initialiser list gaining an entry): an old line
	// one matches may change only into an added line it matches whose
	// words hold the old line's in order.
	Grows []*regexp.Regexp
	// Renumbered lets a file that names nothing new differ from o's in
	// its numbers alone (a constant of another file that holds the value
	// of an enumerator the new one shifts).
	Renumbered bool
	// Repeats lets an old line that names nothing new gain a copy of a
	// run of its own words next to that run (a call that passes one more
	// argument alike, `throws A, A`): what a member copied into a list
	// that a line writes positionally adds there.
	Repeats bool
	// Reflow lets a formatter lay out anew the lines around the new
	// declaration's (a list that grew past the line width, wrapped; a
	// union joined on one line): a run of old lines that the line diff
	// replaces by a run of new ones is explained when the old words, in
	// order, are among the new ones, and the new lines that do not mention
	// the new declaration have no word the old ones lack. A run of lines
	// the line diff only inserts, one of which mentions the new
	// declaration, is the new declaration's block.
	Reflow bool
	// Helpers are patterns of the first line of a block the generator
	// writes whole once the file needs it, naming no declaration (a helper
	// function for a type the file uses for the first time): a run of
	// added lines that the line diff inserts, from a line one matches to
	// the next blank line or the end of the run, is explained.
	Helpers []*regexp.Regexp
	// Copies, when set, says what the new declaration is a copy of: the
	// lines the generator writes for it without naming it are its own
	// (see CopyLines).
	Copies *CopyLines
}

// CopyLines are what a copy of a member (clone) is besides its fresh
// names: its fresh numbers, and the declarations its text names (a
// field's type, the request an rpc takes). An added line that nothing
// else explains is the copy's when it holds one of its numbers as a
// number (Java's `if (valueCase_ == 17) {` of a oneof's field 17), or
// when o has it already and it names declarations and none but those
// the copy's text names (a switch's `return
// MutateRowsRequest.getDefaultInstance();` of an rpc copied with its
// request), o′ holding it twice as often as o at most; the walk of the
// new declaration's lines (see Hunks) goes on from it.
type CopyLines struct {
	Numbers []int64
	// Named are the declarations the copy's text names; Others every
	// other declaration of the input.
	Named, Others []Name
	// Stem is the input's file name without its extensions: an
	// identifier that holds it (case and underscores aside) is the
	// generator's, named after the file (Java's RegionServerStatusProtos
	// of RegionServerStatus.proto), and names no declaration it holds
	// (a field server).
	Stem string
}

// Check runs the locality check.
func (l *Locality) Check(o, o2 tree.Tree) []Failure { return l.Decide(o, o2).Fails }

// Decide runs the locality check; it decides every case.
func (l *Locality) Decide(o, o2 tree.Tree) Verdict {
	name := l.Name
	if name == "" {
		name = "locality"
	}
	var v Verdict
	fail := func(f string, format string, args ...any) *Failure {
		v.Fails = append(v.Fails, Failure{Checker: name, File: f, Message: fmt.Sprintf(format, args...)})
		return &v.Fails[len(v.Fails)-1]
	}
	files := make([]string, 0, len(o)+1)
	for f := range o {
		files = append(files, f)
	}
	for f := range o2 {
		if _, ok := o[f]; !ok {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	numbers, punct := 0, 0
	for _, f := range files {
		if len(l.Files) > 0 && !InFiles(l.Files, f) || InFiles(l.Except, f) {
			continue
		}
		a, inA := o[f]
		b, inB := o2[f]
		switch {
		case !inB:
			fail(f, "%s is in o but missing from o′", f).Compared = &result.Compared{Kind: result.CmpLocality,
				Expects: f + " is in o, so it is in o′ too: a declaration inserted into the input removes no output file."}
		case !inA:
			if !mentions(f, l.Fresh) && !mentions(string(b), l.Fresh) {
				x := fail(f, "%s appeared in o′ but mentions no new name", f)
				x.Actual = string(b)
				x.Compared = &result.Compared{Kind: result.CmpLocality,
					Expects: "A file that appears in o′ is the new declaration's: it mentions a fresh name (" + l.freshNames() + ") in its path or its content."}
			}
		case bytes.Equal(a, b):
		default:
			var c changes
			if !mentionsBytes(b, l.Fresh) {
				// Byte-identical, unless the file gained a line an also
				// pattern matches: the new declaration's entry written
				// without its name.
				if len(l.Also) > 0 || l.Copies != nil {
					c = l.classify(a, b)
				}
				// A file may be renumbered, where the relation says so (a
				// constant that holds an enumerator's value); a line of
				// the copy's (Copies) is the new declaration's too.
				if c.alsoAdded == 0 && c.copied == 0 && !(l.Renumbered && sameButNumbers(a, b)) {
					x := fail(f, "%s changed, but it does not mention the new declaration and must be byte-identical", f)
					x.Expected, x.Actual, x.Diff = string(a), string(b), DiffOutputs(f, string(a), string(b))
					continue
				}
			} else {
				c = l.classify(a, b)
			}
			numbers += len(c.numbers)
			punct += len(c.punct)
			if len(c.removed)+len(c.added) > 0 {
				x := fail(f, "%s in o′: %s", f, unexplained(c.added, c.removed))
				x.Expected, x.Actual, x.Diff = strings.Join(c.removed, "\n"), strings.Join(c.added, "\n"), DiffOutputs(f, string(a), string(b))
				x.Compared = l.unexplainedCompared(f, &c)
			}
			if len(c.step) > 0 {
				x := fail(f, "%s in o′: a number changed by another amount than %+d: %s", f, l.By, strings.TrimSpace(c.step[0]))
				x.Actual, x.Diff = strings.Join(c.step, "\n"), DiffOutputs(f, string(a), string(b))
				x.Compared = l.changedCompared(f, &c, c.step, sameNumbers, fmt.Sprintf("changed only in its numbers, but not each by %+d", l.By))
			}
			if l.Numbers != Any && numbers > l.Numbers && len(c.numbers) > 0 {
				x := fail(f, "%s in o′: %d lines changed only in their numbers, the relation allows %d", f, numbers, l.Numbers)
				x.Actual, x.Diff = strings.Join(c.numbers, "\n"), DiffOutputs(f, string(a), string(b))
				x.Compared = l.changedCompared(f, &c, c.numbers, sameNumbers, fmt.Sprintf("changed only in its numbers: %d such lines in o′, the relation allows %d", numbers, l.Numbers))
			}
			if l.Punctuation != Any && punct > l.Punctuation && len(c.punct) > 0 {
				x := fail(f, "%s in o′: %d lines changed only in punctuation, the relation allows %d", f, punct, l.Punctuation)
				x.Actual, x.Diff = strings.Join(c.punct, "\n"), DiffOutputs(f, string(a), string(b))
				x.Compared = l.changedCompared(f, &c, c.punct, sameWords, fmt.Sprintf("changed only in its punctuation: %d such lines in o′, the relation allows %d", punct, l.Punctuation))
			}
		}
	}
	return v
}

// unexplained says how many lines were added and removed that do not
// mention the new declaration, and quotes the first of each.
func unexplained(added, removed []string) string {
	lines := func(n int) string {
		if n == 1 {
			return "1 line"
		}
		return fmt.Sprintf("%d lines", n)
	}
	var what, quote []string
	if len(added) > 0 {
		what = append(what, lines(len(added))+" added")
		quote = append(quote, "+ "+strings.TrimSpace(added[0]))
	}
	if len(removed) > 0 {
		w := lines(len(removed)) + " removed"
		if len(added) > 0 {
			w = fmt.Sprintf("%d removed", len(removed))
		}
		what = append(what, w)
		quote = append(quote, "- "+strings.TrimSpace(removed[0]))
	}
	verb := "do not mention"
	if len(added)+len(removed) == 1 {
		verb = "does not mention"
	}
	return fmt.Sprintf("%s that %s the new declaration: %s", strings.Join(what, " and "), verb, strings.Join(quote, "; "))
}

// changes sorts the lines of a changed file: the old lines changed only in
// numbers or punctuation (as they are in o′), and the lines added and
// removed that nothing explains.
type changes struct {
	numbers, punct, added, removed []string
	step                           []string // renumbered by another amount than By
	alsoAdded                      int      // added lines an also pattern matches whole
	copied                         int      // added lines Copies takes as the copy's
	// The lines compared (masked or not), as they are in the files, and
	// how many lines o and o′ share before them: where a failure's lines
	// are (see placer).
	la, lb, rawA, rawB []string
	pre                int
}

func (l *Locality) classify(ab, bb []byte) changes {
	var c changes
	a, b, pre := trimCommonAt(ab, bb)
	la, _ := SplitLines(a)
	lb, _ := SplitLines(b)
	c.rawA, c.rawB, c.pre = la, lb, pre
	if l.Numbers == Any && l.By == 0 {
		// Any renumbering allowed: lines are compared with their numbers
		// masked, so that a shifted sequence (slots 12, 14, … becoming
		// 14, 16, …) is no added and removed line.
		la, lb = l.maskAll(la), l.maskAll(lb)
	}
	c.la, c.lb = la, lb
	d := l.diffLines(la, lb)
	used := l.pair(&c, d)
	if l.Copies != nil {
		c.copied = l.Copies.claim(la, lb, c.rawB, d)
	}
	l.claimAround(lb, d)
	for k, x := range d.added {
		if used[k] || d.left[x] <= 0 {
			continue
		}
		d.left[x]--
		if l.also(x) {
			c.alsoAdded++
		} else {
			c.added = append(c.added, x)
		}
	}
	if (l.Reflow || len(l.Helpers) > 0) && len(c.added)+len(c.removed) > 0 {
		l.explainHunks(la, lb, &c)
	}
	if l.Reflow && len(c.removed) > 0 {
		l.explainWrapped(la, lb, &c)
	}
	return c
}

// explainWrapped takes out of c the old lines that o′ holds wrapped
// around the new declaration's block, wherever the line diff placed them:
// a run of lines of o′ not in o (as multisets) whose words are the old
// line's once a run holding every line of it that mentions a fresh name
// is taken out.
func (l *Locality) explainWrapped(la, lb []string, c *changes) {
	excess := map[string]int{}
	for _, x := range lb {
		excess[x]++
	}
	for _, x := range la {
		excess[x]--
	}
	fresh := make([]bool, len(lb))
	ws := make([][]string, len(lb))
	for i, x := range lb {
		fresh[i] = mentions(x, l.Fresh)
		ws[i] = words(x)
	}
	const most = 64 // lines a wrapped line and a block take
	wrapped := func(r []string) bool {
		for i := range lb {
			// pre: lines i… whose words begin r's; mid: a block with
			// every line that names the new declaration; post: the rest
			// of r's words
			k := 0
			for p := i; p < len(lb) && p < i+most; p++ {
				if fresh[p] {
					// the block after every old word, or before the rest
					if k > 0 && (k == len(r) || l.wrappedAfter(r[k:], p, fresh, ws, excess, lb, most)) {
						return true
					}
					break
				}
				if excess[lb[p]] <= 0 || !hasPrefix(r[k:], ws[p]) {
					break
				}
				k += len(ws[p])
			}
		}
		return false
	}
	var keep []string
	for _, r := range c.removed {
		if !wrapped(words(r)) {
			keep = append(keep, r)
		}
	}
	c.removed = keep
}

// wrappedAfter tells whether, from line p on (a line that names the new
// declaration), a block of lines ends and the lines after it hold rest,
// each a line not in o.
func (l *Locality) wrappedAfter(rest []string, p int, fresh []bool, ws [][]string, excess map[string]int, lb []string, most int) bool {
	for q := p; q < len(lb) && q < p+most; q++ {
		// the block is p…q; the lines after it must hold rest exactly,
		// and none of them name the new declaration
		k := 0
		for t := q + 1; t < len(lb) && t < q+1+most; t++ {
			if fresh[t] || excess[lb[t]] <= 0 || !hasPrefix(rest[k:], ws[t]) {
				break
			}
			k += len(ws[t])
			if k == len(rest) {
				return true
			}
		}
	}
	return false
}

// hasPrefix tells whether a begins with b.
func hasPrefix(a, b []string) bool {
	return len(b) <= len(a) && slices.Equal(a[:len(b)], b)
}

// explainHunks takes out of c the lines that Reflow and Helpers explain,
// by the hunks of the line diff from la to lb.
func (l *Locality) explainHunks(la, lb []string, c *changes) {
	a, b := strings.Join(la, "\n")+"\n", strings.Join(lb, "\n")+"\n"
	u, err := udiff.ToUnifiedDiff("o", "o′", a, udiff.Lines(a, b), 0)
	if err != nil {
		return
	}
	drop := func(list *[]string, lines []string) {
		for _, x := range lines {
			if i := slices.Index(*list, x); i >= 0 {
				*list = slices.Delete(*list, i, i+1)
			}
		}
	}
	for _, h := range u.Hunks {
		var del, ins []string
		for _, ln := range h.Lines {
			x := strings.TrimSuffix(ln.Content, "\n")
			switch ln.Kind {
			case udiff.Delete:
				del = append(del, x)
			case udiff.Insert:
				ins = append(ins, x)
			}
		}
		if len(l.Helpers) > 0 && len(del) == 0 {
			helper := false
			for i := 0; i < len(ins); i++ {
				if !matchesAny(l.Helpers, ins[i]) {
					continue
				}
				j := i
				for j < len(ins) && strings.TrimSpace(ins[j]) != "" {
					j++
				}
				drop(&c.added, ins[i:j])
				helper, i = true, j
			}
			if helper {
				// the braces and blank lines of the hunk: a diff may
				// align the helper's closing brace with the one before
				drop(&c.added, slices.DeleteFunc(slices.Clone(ins), func(x string) bool { return !structural(x) }))
			}
		}
		switch {
		case !l.Reflow:
		case len(del) == 0 && slices.ContainsFunc(ins, func(x string) bool { return mentions(x, l.Fresh) }):
			// lines inserted with the new declaration's: its block,
			// however the multisets paired identical lines
			drop(&c.added, ins)
		case len(del) > 0 && len(ins) > 0 && l.reflowed(del, ins):
			drop(&c.removed, del)
			drop(&c.added, ins)
		}
	}
}

// reflowed tells whether the new lines ins are the old lines del laid out
// anew, with the new declaration's lines among them: the old words, in
// order, are among the new ones, and the new lines that do not mention a
// fresh name have no word but old ones, in order; or the new
// declaration's block, a run of lines from its first line that mentions a
// fresh name to its last, taken out, the lines left have the old words,
// in order (a block inserted before a neighbour that the formatter then
// wrapped).
func (l *Locality) reflowed(del, ins []string) bool {
	var old, all, kept []string
	for _, x := range del {
		old = append(old, words(x)...)
	}
	first, last := -1, -1
	for i, x := range ins {
		w := words(x)
		all = append(all, w...)
		if !mentions(x, l.Fresh) {
			kept = append(kept, w...)
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	if subsequence(old, all) && subsequence(kept, old) {
		return true
	}
	if first < 0 {
		return false
	}
	for i := 0; i <= first; i++ {
		for j := last; j < len(ins); j++ {
			var rest []string
			for _, x := range slices.Concat(ins[:i], ins[j+1:]) {
				rest = append(rest, words(x)...)
			}
			if slices.Equal(rest, old) {
				return true
			}
		}
	}
	return false
}

// lineDiff is what differs between the lines of o and o′, as multisets.
type lineDiff struct {
	isFresh        []bool   // by line of o′: the new declaration's
	fresh          []string // the lines of o′ that mention a fresh name
	added, removed []string // the other lines of o′ not in o, and of o not in o′
	left           map[string]int
}

// diffLines compares the lines of o and o′ as multisets; the lines of o′
// that mention a fresh name are the new declaration's.
func (l *Locality) diffLines(la, lb []string) *lineDiff {
	excess := map[string]int{}
	for _, x := range lb {
		excess[x]++
	}
	for _, x := range la {
		excess[x]--
	}
	d := &lineDiff{isFresh: make([]bool, len(lb)), left: map[string]int{}}
	for i, x := range lb {
		if mentions(x, l.Fresh) {
			d.isFresh[i] = true
			d.fresh = append(d.fresh, x)
			excess[x]--
		}
	}
	for _, x := range lb {
		if excess[x] > 0 {
			d.added = append(d.added, x)
			excess[x]--
			d.left[x]++
		}
	}
	for _, x := range la {
		if excess[x] < 0 {
			d.removed = append(d.removed, x)
			excess[x]++
		}
	}
	return d
}

// pair pairs the old lines changed in numbers or punctuation, or that
// gained a new name, with added lines, first; the removed lines that
// nothing explains go to c.removed. It returns which added lines were
// paired.
func (l *Locality) pair(c *changes, d *lineDiff) []bool {
	used := make([]bool, len(d.added))
	usedFresh := make([]bool, len(d.fresh))
	for _, r := range d.removed {
		if matchesAny(l.Grows, r) {
			// A line that may only grow: grown, or not explained.
			if !l.grew(r, d.added, used) {
				c.removed = append(c.removed, r)
			}
			continue
		}
		if l.Repeats {
			// (before any other pairing: an also pattern may match the
			// old line and pair it with another added line, leaving the
			// line that repeats its words unexplained)
			if k := repeatedAt(r, d.added, used); k >= 0 {
				d.left[d.added[k]]--
				continue
			}
		}
		k, byAlso := l.pairLine(r, d.added, used)
		switch {
		case byAlso:
		case k >= 0 && maskNumbers(r) == maskNumbers(d.added[k]):
			c.numbers = append(c.numbers, d.added[k])
			if l.By != 0 && !steppedBy(r, d.added[k], l.By) {
				c.step = append(c.step, d.added[k])
			}
		case k >= 0:
			c.punct = append(c.punct, d.added[k])
		case gained(r, d.fresh, usedFresh, l.Fresh, l.Renamed), l.also(r), split(r, d.fresh, d.added, used, l.Fresh), len(d.fresh) > 0 && structural(r):
		default:
			c.removed = append(c.removed, r)
		}
		if k >= 0 {
			d.left[d.added[k]]--
		}
	}
	return used
}

// claimAround gives the new declaration the added lines next to its lines
// when they are blank or punctuation only (with Hunks: any added line);
// the walk goes on through blank lines and punctuation. Downwards first: a
// block usually starts with the line that names it, and walking up from it
// first would take the lines of the block above that the new block
// repeats.
func (l *Locality) claimAround(lb []string, d *lineDiff) {
	isName := slices.Clone(d.isFresh)
	// The lines o′ has more of than o: with Hunks, a walk goes on past
	// one whose count an earlier walk took (a comment line that a copied
	// message repeats, claimed next to another of its lines), for the
	// multiset diff does not say which of the equal lines is the new one.
	more := map[string]bool{}
	if l.Hunks {
		for _, x := range d.added {
			more[x] = true
		}
	}
	for _, step := range []int{1, -1} {
		for i := range lb {
			if !isName[i] {
				continue
			}
			for k := i + step; k >= 0 && k < len(lb) && !isName[k]; k += step {
				x := lb[k]
				if d.left[x] > 0 && (l.Hunks || structural(x)) {
					d.left[x]--
					d.isFresh[k] = true
				} else if !structural(x) && !d.isFresh[k] && !more[x] {
					break
				}
			}
		}
	}
}

// grew reports whether one of the unused added lines is r grown (its
// words hold r's in order), and marks that line used.
func (l *Locality) grew(r string, added []string, used []bool) bool {
	wr := words(r)
	for k, x := range added {
		if !used[k] && matchesAny(l.Grows, x) && subsequence(wr, words(x)) {
			used[k] = true
			return true
		}
	}
	return false
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// gained reports whether an old line became one of the fresh lines by
// gaining words (a list on one line that gained the new name: its words
// are a subsequence of the fresh line's) or, when rename, by naming the
// new declaration where it named another, and marks that line used.
func gained(r string, fresh []string, used []bool, names []Name, rename bool) bool {
	wr := words(r)
	for k, x := range fresh {
		if !used[k] && (subsequence(wr, words(x)) || rename && renamed(wr, words(x), names)) {
			used[k] = true
			return true
		}
	}
	return false
}

// renamed reports whether the words of b are those of a with some replaced
// by words that name the new declaration (a largest value that is now the
// new enumerator).
func renamed(a, b []string, names []Name) bool {
	if len(a) != len(b) {
		return false
	}
	kept := 0
	for i := range a {
		switch {
		case a[i] == b[i]:
			kept++
		case !mentions(b[i], names):
			return false
		}
	}
	return kept > 0 // a line that was only the old name was replaced, not renamed
}

// maskAll masks the numbers of lines with 0 (a hexadecimal one with 0x0),
// which patterns of Also still see as a word character (Level2 becomes
// Level0) and as a number of its base (a line of 0x.. bytes stays one);
// the lines that may only grow keep theirs, which are what they hold.
func (l *Locality) maskAll(ls []string) []string {
	out := make([]string, len(ls))
	for i, x := range ls {
		out[i] = x
		if !matchesAny(l.Grows, x) {
			out[i] = maskNumbersAs(x, "0", "0x0")
		}
	}
	return out
}

func subsequence(a, b []string) bool {
	i := 0
	for _, x := range b {
		if i < len(a) && a[i] == x {
			i++
		}
	}
	return i == len(a)
}

// words splits a line into its words: runs of letters, digits and
// underscores.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !(r == '_' || r < 128 && isAlnum(byte(r))) })
}

// pairLine finds the first unused added line that r became by a change of
// numbers or of punctuation, or of what an also pattern matches (then it
// says so), marks it used and returns its index, or -1.
func (l *Locality) pairLine(r string, added []string, used []bool) (int, bool) {
	mr, pr := maskNumbers(r), strings.Join(words(maskNumbers(r)), " ")
	if k := pairBy(r, added, used, mr, pr); k >= 0 || len(l.Also) == 0 {
		return k, false
	}
	// Changed in what an also pattern matches: a punctuation change.
	strip := func(s string) string {
		for _, re := range l.Also {
			s = re.ReplaceAllString(s, "")
		}
		return strings.Join(words(maskNumbers(s)), " ")
	}
	sr := strip(r)
	for k, x := range added {
		if !used[k] && x != r && strip(x) == sr {
			used[k] = true
			return k, true
		}
	}
	return -1, false
}

func pairBy(r string, added []string, used []bool, mr, pr string) int {
	for pass := range 2 {
		for k, x := range added {
			if used[k] || x == r {
				continue // the same line elsewhere: moved, not renumbered
			}
			if pass == 0 && maskNumbers(x) == mr || pass == 1 && strings.Join(words(maskNumbers(x)), " ") == pr {
				used[k] = true
				return k
			}
		}
	}
	return -1
}

const punctuation = " \t,;:{}()[]\\"

// trimPunct is a line without the list punctuation and white space at its
// ends: a trailing comma gained, a ':' or '{' moved to a neighbour, a
// backslash that continues a C macro's line (all lines of a list but the
// last).
func trimPunct(s string) string { return strings.Trim(s, punctuation) }

// structural reports whether a line is blank or punctuation only.
func structural(s string) bool { return trimPunct(s) == "" }

// steppedBy reports whether every number of b is the number of a at the
// same place, or that number plus by (the lines differ only in numbers).
func steppedBy(a, b string, by int) bool {
	na, nb := numbersOf(a), numbersOf(b)
	if len(na) != len(nb) {
		return false
	}
	for i := range na {
		if na[i] != nb[i] && na[i]+by != nb[i] {
			return false
		}
	}
	return true
}

// split reports whether an old line was split into a new line that names
// the new declaration and an added line after it (a new first entry of an
// initialiser list takes the ` : ` of the old first one): the words of the
// old line are those of the new line without the new names and numbers,
// then those of the added line. The added line is marked used.
func split(r string, fresh, added []string, used []bool, names []Name) bool {
	wr := strings.Join(words(maskNumbers(r)), " ")
	for _, x := range fresh {
		var head []string
		for _, w := range words(maskNumbers(x)) {
			if !mentions(w, names) {
				head = append(head, w)
			}
		}
		for k, y := range added {
			if !used[k] && strings.Join(append(slices.Clone(head), words(maskNumbers(y))...), " ") == wr {
				used[k] = true
				return true
			}
		}
	}
	return false
}

// numbersOf returns the runs of digits of s as numbers.
func numbersOf(s string) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		n := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			n = n*10 + int(s[i]-'0')
		}
		out = append(out, n)
	}
	return out
}

// trimCommon drops the lines that a and b share at their start and end,
// which the comparison would only match again, and returns the rest.
func trimCommon(a, b []byte) (string, string) {
	ta, tb, _ := trimCommonAt(a, b)
	return ta, tb
}

// trimCommonAt is trimCommon that also returns how many lines it dropped
// at the start.
func trimCommonAt(a, b []byte) (string, string, int) {
	p := 0
	for p+64 <= len(a) && p+64 <= len(b) && bytes.Equal(a[p:p+64], b[p:p+64]) {
		p += 64
	}
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	p = bytes.LastIndexByte(a[:p], '\n') + 1
	pre := bytes.Count(a[:p], []byte{'\n'})
	a, b = a[p:], b[p:]
	s := 0
	for s+64 <= len(a) && s+64 <= len(b) && bytes.Equal(a[len(a)-s-64:len(a)-s], b[len(b)-s-64:len(b)-s]) {
		s += 64
	}
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	// Back off to the start of a line in both.
	for s > 0 && !((s == len(a) || a[len(a)-1-s] == '\n') && (s == len(b) || b[len(b)-1-s] == '\n')) {
		s--
	}
	return string(a[:len(a)-s]), string(b[:len(b)-s]), pre
}

func (l *Locality) also(line string) bool { return matchesAny(l.Also, line) }

// repeatedAt is the index of an unused added line that is r with a run
// of its tokens (words and punctuation) repeated right after itself, which
// it marks used; -1 when there is none.
func repeatedAt(r string, added []string, used []bool) int {
	tr := tokens(r)
	for k, x := range added {
		if !used[k] && repeats(tr, tokens(x)) {
			used[k] = true
			return k
		}
	}
	return -1
}

// repeats reports whether b is a with a copy of one run of its tokens
// inserted: b = a[:j] + a[i:i+n] + a[j:] (right after itself, `throws A,
// A`, or elsewhere: a call that passes `args[0], eval(args[1]),` gains an
// `args[2],` like its first argument).
func repeats(a, b []string) bool {
	n := len(b) - len(a)
	if n <= 0 {
		return false
	}
	for j := 0; j <= len(a); j++ {
		if !slices.Equal(b[:j], a[:j]) {
			break
		}
		if !slices.Equal(b[j+n:], a[j:]) {
			continue
		}
		run := b[j : j+n]
		for i := 0; i+n <= len(a); i++ {
			if slices.Equal(a[i:i+n], run) {
				return true
			}
		}
	}
	return false
}

// tokens splits a line into words and single characters of punctuation,
// white space left out.
func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '_' || c < 128 && isAlnum(c):
			j := i
			for j < len(s) && (s[j] == '_' || s[j] < 128 && isAlnum(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

// sameButNumbers reports whether two contents differ in their numbers
// alone, line for line.
func sameButNumbers(a, b []byte) bool {
	la, _ := SplitLines(string(a))
	lb, _ := SplitLines(string(b))
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if la[i] != lb[i] && maskNumbers(la[i]) != maskNumbers(lb[i]) {
			return false
		}
	}
	return true
}

// claim marks the lines of o′ (lb, raw: as they are, before any masking)
// that are the copy's although they do not name it, as CopyLines says,
// and returns how many.
func (cl *CopyLines) claim(la, lb, raw []string, d *lineDiff) int {
	n := 0
	var inA map[string]int
	taken := map[string]int{}
	for i, x := range lb {
		if d.isFresh[i] || d.left[x] <= 0 {
			continue
		}
		mine := holdsNumber(raw[i], cl.Numbers)
		if !mine && len(cl.Named) > 0 {
			if inA == nil {
				inA = map[string]int{}
				for _, y := range la {
					inA[y]++
				}
			}
			// (o′'s lines beyond o's: at most as many as o has)
			mine = inA[x] > taken[x] && cl.namesOnlyNamed(x)
			if mine {
				taken[x]++
			}
		}
		if mine {
			d.isFresh[i] = true
			d.left[x]--
			n++
		}
	}
	return n
}

// holdsNumber reports whether line holds one of nums as a number of its
// own (not digits of an identifier or of a longer number).
func holdsNumber(line string, nums []int64) bool {
	for _, n := range nums {
		s := strconv.FormatInt(n, 10)
		for i := range occurrences(line, s) {
			j := i + len(s)
			if (i == 0 || !isWordByte(line[i-1]) && line[i-1] != '.') && (j == len(line) || !isWordByte(line[j]) && line[j] != '.') {
				return true
			}
		}
	}
	return false
}

// namesOnlyNamed reports whether a line names a declaration the copy's
// text names, and no other (one inside a name of the copy's, Request in
// MutateRowsRequest, aside).
func (cl *CopyLines) namesOnlyNamed(line string) bool {
	var at []span
	for _, n := range cl.Named {
		at = append(at, n.find(line, nil)...)
	}
	if len(at) == 0 {
		return false
	}
	if stem := strings.ToLower(strings.ReplaceAll(cl.Stem, "_", "")); len(stem) >= 3 {
		for _, t := range identSpans(line) {
			if strings.Contains(strings.ToLower(strings.ReplaceAll(line[t.beg:t.end], "_", "")), stem) {
				at = append(at, t)
			}
		}
	}
	for _, o := range cl.Others {
		if len(o.find(line, at)) > 0 {
			return false
		}
	}
	return true
}

// identSpans are the spans of the identifiers of a line.
func identSpans(line string) []span {
	var out []span
	for i := 0; i < len(line); {
		if !isWordByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isWordByte(line[j]) {
			j++
		}
		out = append(out, span{beg: i, end: j})
		i = j
	}
	return out
}
