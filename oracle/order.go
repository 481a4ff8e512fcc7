package oracle

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Order is the derived checker of the paper's working example, generalised
// to every file and every place: wherever o′ lists the new declaration
// together with its neighbours in i′ (the previous and the next
// declaration of its kind), the new name's line is after the previous
// one's and before the next one's.
//
// A place is a set of lines of the same shape: the indentation and the
// word that holds the name, with the name masked (`bool e_@;`, `"@",`,
// `ctx->t_@.active`). In each file that changed, the lines of one shape
// that mention the new name are paired in order with those of the same
// shape that mention a neighbour, when both have the same number of lines
// (one per place: p_init and the end-of-cycle function each list the
// events), and each pair must be in i′'s order. Comment lines (by the
// file's extension: // and /* in C, # in Python) are no place. A line that mentions the
// new name and a neighbour (a list on one line) must hold them in order,
// unless the neighbour's word there is also a form of another name the
// input declares (a message LongMsg and its field long_msg: in
// `offsetof(Zq, long_msg)` the word is the new message's field).
// Where a place does not decide (the neighbours' lines have another
// shape, `n?: T;` against `m: T;`, or the counts differ), the new line's
// block does: the lines of the same indentation around it, up to a less
// indented one; a neighbour named by exactly one of them must be on the
// right side of the new line. A file without the neighbours' lines, a spot
// without neighbours cannot be decided and pass.
type Order struct {
	Name       string
	New        Name
	Prev, Next Name
	// Others are the names the input declares: an occurrence of a
	// neighbour's form inside one of them (Red in RedLight) is not the
	// neighbour.
	Others []Name
	// Files restricts the check to these files of o′ (all when empty).
	Files []string
	// Places, when set, restricts the check to the places whose shape it
	// matches (the shape has the name masked as @): a generator that
	// writes some lists in another order than the declarations'.
	Places *regexp.Regexp
	// NotPlaces leaves out the places whose shape it matches.
	NotPlaces *regexp.Regexp
	// Ignore leaves out the lines of o′ whose text it matches, as comment
	// lines are: at no place and in no block. A place is one word of a
	// line; what the rest of the line says (ts-proto before 1.96.1 sets a
	// message's lists, then its bytes fields, at the top of decode:
	// `message.@ = [];`, the same place as a field's other lines) only
	// the whole line tells.
	Ignore *regexp.Regexp
	// PrevShared and NextShared say that the input declares the
	// neighbour's name more than once (a field of two messages): only its
	// line in the new line's block counts, not the places.
	PrevShared, NextShared bool
}

// Check runs the order check.
func (c *Order) Check(o, o2 tree.Tree) []Failure { return c.Decide(o, o2).Fails }

type tagged struct {
	tag  int // 0 prev, 1 new, 2 next
	line int
}

// Decide runs the order check.
func (c *Order) Decide(o, o2 tree.Tree) Verdict {
	name := c.Name
	if name == "" {
		name = "order"
	}
	var v Verdict
	if c.Prev.Empty() && c.Next.Empty() {
		v.Undecided = append(v.Undecided, "the new declaration has no neighbour of its kind")
		return v
	}
	scs := [3]*scanner{newScanner(c.Prev, c.Others), newScanner(c.New, c.Others), newScanner(c.Next, c.Others)}
	amb := [3][]bool{namesakeForms(c.Prev, c.Others), nil, namesakeForms(c.Next, c.Others)}
	decided := false
	for _, f := range o2.Names() {
		if !c.concerns(f, o, o2) {
			continue
		}
		text := view(o2[f])
		d, mis := c.checkFile(f, text, scs, amb)
		decided = decided || d
		if len(mis) > 0 {
			starts := lineStarts(text)
			bad := make([]string, len(mis))
			for k, m := range mis {
				var ls []string
				for _, i := range m.lines {
					ls = append(ls, fmt.Sprintf("line %d: %s", i+1, strings.TrimSpace(lineAt(text, starts, i))))
				}
				bad[k] = strings.Join(ls, "\n")
			}
			v.Fails = append(v.Fails, Failure{
				Checker: name, File: f,
				Message:  fmt.Sprintf("%s in o′: %s is not between %s and %s: %s", f, c.New, orNone(c.Prev), orNone(c.Next), strings.ReplaceAll(bad[0], "\n", ", ")),
				Expected: stripLineNumbers(bad, true),
				Actual:   stripLineNumbers(bad, false),
				Compared: c.compared(f, text, starts, mis),
			})
		}
	}
	if !decided {
		v.Undecided = append(v.Undecided, fmt.Sprintf("no place lists %s with %s or %s", c.New, orNone(c.Prev), orNone(c.Next)))
	}
	return v
}

// misplaced is what the check found out of order in a file of o′: a line
// that lists the new name and a neighbour in the wrong order (one line),
// or the new declaration's line and a neighbour's on the wrong sides of
// each other (two lines, in file order; nb is the neighbour's, 0 previous
// or 2 next), at a place (its shape) or in a block.
type misplaced struct {
	lines []int
	nb    int
	new   int    // of two lines, the new declaration's
	place string // the place's shape; "" in a block, or on one line
}

// compared is the evidence of the failure on file f of o′ (text): the
// order expected, and the lines out of it.
func (c *Order) compared(f, text string, starts []int, mis []misplaced) *result.Compared {
	cmp := &result.Compared{Kind: result.CmpOrder, Order: []string{orNone(c.Prev), c.New.String(), orNone(c.Next)}}
	var sides, lines []string
	if !c.Prev.Empty() {
		sides = append(sides, "after "+c.Prev.String())
		lines = append(lines, "after "+c.Prev.String()+"'s")
	}
	if !c.Next.Empty() {
		sides = append(sides, "before "+c.Next.String())
		lines = append(lines, "before "+c.Next.String()+"'s")
	}
	cmp.Expects = fmt.Sprintf("The relation puts %s %s: wherever %s lists them, at one place (lines of the same shape, the names masked) or in one block, the line of %s is %s; on a line that lists them, %s stands between its neighbours.",
		c.New, strings.Join(sides, " and "), f, c.New, strings.Join(lines, " and "), c.New)
	ref := func(i int) *result.LineRef { return result.Ref(i+1, lineAt(text, starts, i)) }
	for _, m := range mis {
		if len(m.lines) == 1 {
			cmp.Add(result.CmpLine{O2: ref(m.lines[0]), Role: result.RoleOutOfOrder,
				Why: fmt.Sprintf("lists %s and a neighbour out of the input's order", c.New)})
			continue
		}
		nb, rel := c.Prev, "after"
		if m.nb == 2 {
			nb, rel = c.Next, "before"
		}
		where := "in its block"
		if m.place != "" {
			where = "at the place `" + strings.TrimSpace(m.place) + "`"
		}
		for _, i := range m.lines {
			why := fmt.Sprintf("%s's line: %s, it must be %s %s's", c.New, where, rel, nb)
			if i != m.new {
				why = fmt.Sprintf("%s's line: the relation puts %s %s it", nb, c.New, map[int]string{0: "after", 2: "before"}[m.nb])
			}
			cmp.Add(result.CmpLine{O2: ref(i), Role: result.RoleOutOfOrder, Why: why})
		}
	}
	return cmp
}

// concerns reports whether the check looks at file f: one of Files (if
// given) that changed and names the new declaration and a neighbour.
func (c *Order) concerns(f string, o, o2 tree.Tree) bool {
	return (len(c.Files) == 0 || InFiles(c.Files, f)) && !bytes.Equal(o[f], o2[f]) &&
		mentionsBytes(o2[f], []Name{c.New}) && mentionsBytes(o2[f], []Name{c.Prev, c.Next})
}

// checkFile checks the order of the new declaration and its neighbours in
// one file of o′, on the lines that name two of them and at every place
// that lists them on lines of their own (amb: the neighbours' forms that
// decide no line of two names). It returns whether some place decided the
// check, and the places out of order.
func (c *Order) checkFile(file, text string, scs [3]*scanner, amb [3][]bool) (decided bool, bad []misplaced) {
	starts := lineStarts(text)
	var cand []int
	for t := range 3 {
		cand = append(cand, scs[t].lines(text, starts)...)
	}
	slices.Sort(cand)
	cand = slices.Compact(cand)
	places := map[string][]tagged{}
	var order []string
	var alone [3][]int // the lines that name one of the three, at a checked place
	for _, i := range cand {
		line := lineAt(text, starts, i)
		if commentLine(file, line) || c.ignored(line) {
			continue
		}
		var occ [3][]span
		n := 0
		for t := range 3 {
			occ[t] = scs[t].find(line)
			if t != 1 {
				occ[t] = c.ownWords(line, occ[t], text)
			}
			if len(occ[t]) > 0 {
				n++
			}
		}
		switch {
		case n > 1:
			if len(occ[1]) > 0 && c.checked(placeKey(line, occ[1])) {
				decided = true
				if !inLineOrder(line, unambiguous(occ, amb)) {
					bad = append(bad, misplaced{lines: []int{i}})
				}
			}
		case n == 1:
			// A neighbour named only in a form that another declaration
			// has too is not told apart from it: protoc-gen-go's oneof
			// wrapper PhoneNumber_ShortCode_ of the member short_code
			// beside the nested message PhoneNumber_ShortCode.
			if u := unambiguous(occ, amb); len(occ[1]) == 0 && len(u[0]) == 0 && len(u[2]) == 0 {
				continue
			}
			order = c.addPlace(places, order, line, occ, i, &alone)
		}
	}
	for _, k := range order {
		dec, mis := checkPlace(places[k], [3]bool{c.PrevShared, false, c.NextShared})
		for _, m := range mis {
			m.place = k
			bad = append(bad, m)
		}
		for _, nb := range []int{0, 2} {
			if dec[nb] {
				decided = true
				continue
			}
			for _, t := range places[k] {
				if t.tag != 1 {
					continue
				}
				d, mis := inBlock(text, starts, t.line, alone[1], alone[nb], nb)
				decided = decided || d
				if mis != nil {
					bad = append(bad, *mis)
				}
			}
		}
	}
	return decided, bad
}

// ownWords keeps the occurrences of a neighbour in line that are its
// own: a whole identifier, or a part of a longer one whose form with the
// new name is in the file of o′ (text): Onnx__TypeProto__Map beside
// Onnx__TypeProto__Zqnew, but not the neighbour Optional in protoc-c's
// own PROTOBUF_C_LABEL_OPTIONAL.
func (c *Order) ownWords(line string, occ []span, text string) []span {
	var out []span
	for _, s := range occ {
		pre, suf, whole := affixes(line, s)
		if whole || s.form < len(c.New.Forms) && c.New.Forms[s.form] != "" && strings.Contains(text, pre+c.New.Forms[s.form]+suf) {
			out = append(out, s)
		}
	}
	return out
}

// inBlock checks new line i against the one line of neighbour nb (0
// previous, 2 next) among those of its block: the lines of i's
// indentation around it, up to a less indented line. A statement wrapped
// over several lines (a condition that opens a bracket on one line of
// the block and closes it lines later) is one line of the block: what
// its more indented lines name, its first line names, so that the
// verdict does not change with the width at which a formatter wraps. It
// reports whether the block decided (it names the new declaration and
// the neighbour once each), and the pair out of order.
func inBlock(text string, starts []int, i int, newLines, nbLines []int, nb int) (bool, *misplaced) {
	indent := func(k int) (int, bool) {
		l := lineAt(text, starts, k)
		t := strings.TrimLeft(l, " \t")
		return len(l) - len(t), t == ""
	}
	in, _ := indent(i)
	lo, hi := i, i
	for ; lo > 0; lo-- {
		if w, blank := indent(lo - 1); !blank && w < in {
			break
		}
	}
	for ; hi+1 < len(starts); hi++ {
		if w, blank := indent(hi + 1); !blank && w < in {
			break
		}
	}
	// head maps the lines of the block to the first line of their
	// statement: a line of the block's indentation to itself, a more
	// indented line inside a bracket that such a line opened to that line
	head := map[int]int{}
	for k := lo; k <= hi; k++ {
		w, _ := indent(k)
		if w != in {
			continue
		}
		head[k] = k
		depth := brackets(lineAt(text, starts, k))
		for j := k + 1; depth > 0 && j <= hi; j++ {
			if w, _ := indent(j); w <= in {
				break
			}
			head[j] = k
			depth += brackets(lineAt(text, starts, j))
		}
	}
	at := head[i]
	for _, k := range newLines {
		if h, ok := head[k]; ok && k != i && h != at {
			return false, nil // the new name twice in the block
		}
	}
	p := -1
	for _, k := range nbLines {
		if h, ok := head[k]; ok && h != p {
			if p >= 0 {
				return false, nil // named twice in the block
			}
			p = h
		}
	}
	if p < 0 || p == at {
		return false, nil
	}
	if nb == 0 && p < at || nb == 2 && p > at {
		return true, nil
	}
	return true, &misplaced{lines: []int{min(p, at), max(p, at)}, nb: nb, new: at}
}

// brackets is the number of round and square brackets line opens less
// those it closes.
func brackets(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '(', '[':
			n++
		case ')', ']':
			n--
		}
	}
	return n
}

// addPlace records line i, which names one of the three, at its place
// (when the place is checked), and returns the places in order of first
// appearance.
func (c *Order) addPlace(places map[string][]tagged, order []string, line string, occ [3][]span, i int, alone *[3][]int) []string {
	for t := range 3 {
		if len(occ[t]) == 0 {
			continue
		}
		k := placeKey(line, occ[t])
		if !c.checked(k) {
			continue
		}
		alone[t] = append(alone[t], i)
		if _, ok := places[k]; !ok {
			order = append(order, k)
		}
		places[k] = append(places[k], tagged{t, i})
	}
	return order
}

// namesakeForms marks the forms of n that are also a form of another
// name of others (ClusterId's snake case is the field cluster_id as
// written): where n's word has such a form, the line may name the other.
func namesakeForms(n Name, others []Name) []bool {
	out := make([]bool, len(n.Forms))
	for _, o := range others {
		if sameName(o, n) {
			continue
		}
		for i, f := range n.Forms {
			if f != "" && slices.Contains(o.Forms, f) {
				out[i] = true
			}
		}
	}
	return out
}

// unambiguous returns the occurrences with those of the neighbours' forms
// that amb marks left out.
func unambiguous(occ [3][]span, amb [3][]bool) [3][]span {
	for _, t := range []int{0, 2} {
		var keep []span
		for _, s := range occ[t] {
			if s.form >= len(amb[t]) || !amb[t][s.form] {
				keep = append(keep, s)
			}
		}
		occ[t] = keep
	}
	return occ
}

func orNone(n Name) string {
	if n.Empty() {
		return "(none)"
	}
	return n.String()
}

// inLineOrder reports whether a line that holds the new name and a
// neighbour holds them in order. Only a list decides: names next to each
// other with nothing but separators between them (`Red, Zq, Green`); a
// neighbour's name elsewhere in the line (a type named like it) does not.
func inLineOrder(line string, occ [3][]span) bool {
	sep := func(a, b span) bool { return a.end <= b.beg && strings.TrimSpace(line[a.end:b.beg]) == "," }
	for _, n := range occ[1] {
		for _, q := range occ[2] {
			if sep(q, n) {
				return false // the next one, then the new one
			}
		}
		for _, p := range occ[0] {
			if sep(n, p) {
				return false // the new one, then the previous one
			}
		}
	}
	return true
}

// placeKey is the shape of a line at the name: its indentation and the
// word (run of non-space characters) that holds the first occurrence, with
// the occurrences masked (@) and numbers masked (#).
func placeKey(line string, occ []span) string {
	indent := len(line) - len(strings.TrimLeft(line, " \t"))
	beg := strings.LastIndexAny(line[:occ[0].beg], " \t") + 1
	end := strings.IndexAny(line[occ[0].end:], " \t")
	if end < 0 {
		end = len(line)
	} else {
		end += occ[0].end
	}
	var b strings.Builder
	b.Grow(indent + end - beg)
	b.WriteString(line[:indent])
	k := 0
	for i := beg; i < end; i++ {
		for k < len(occ) && occ[k].end <= i {
			k++
		}
		switch {
		case k < len(occ) && occ[k].beg <= i:
			b.WriteByte('@')
			i = occ[k].end - 1
		case isDigit(line[i]):
			b.WriteByte('#')
			for i+1 < end && isDigit(line[i+1]) && !(k < len(occ) && occ[k].beg == i+1) {
				i++
			}
		default:
			b.WriteByte(line[i])
		}
	}
	return b.String()
}

// checkPlace pairs, in order, the lines of one place that mention the new
// name with those that mention each neighbour, when their numbers agree
// and the neighbour is not shared, and reports which neighbours decided
// and the pairs out of order.
func checkPlace(ts []tagged, shared [3]bool) ([3]bool, []misplaced) {
	var by [3][]int
	var decided [3]bool
	for _, t := range ts {
		by[t.tag] = append(by[t.tag], t.line)
	}
	if len(by[1]) == 0 {
		return decided, nil
	}
	var bad []misplaced
	for _, nb := range []int{0, 2} {
		if shared[nb] || len(by[nb]) != len(by[1]) {
			continue
		}
		decided[nb] = true
		for i, n := range by[1] {
			p := by[nb][i]
			if nb == 0 && p > n || nb == 2 && p < n {
				bad = append(bad, misplaced{lines: []int{min(p, n), max(p, n)}, nb: nb, new: n})
			}
		}
	}
	return decided, bad
}

// stripLineNumbers keeps the text of the lines out of order, without
// their numbers, for a finding's evidence: as they are, or each pair
// swapped into i′'s order (then a finding's shape is a move, the same
// whatever the names, and the same fault gives one group).
func stripLineNumbers(bad []string, swap bool) string {
	var out []string
	for _, b := range bad {
		var pair []string
		for _, l := range strings.Split(b, "\n") {
			if _, text, ok := strings.Cut(l, ": "); ok {
				pair = append(pair, text)
			}
		}
		if swap && len(pair) == 2 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		out = append(out, pair...)
	}
	return strings.Join(out, "\n")
}

// ignored reports whether Ignore leaves line out.
func (c *Order) ignored(line string) bool {
	return c.Ignore != nil && c.Ignore.MatchString(line)
}

// checked reports whether the place of shape k is checked.
func (c *Order) checked(k string) bool {
	return (c.Places == nil || c.Places.MatchString(k)) && (c.NotPlaces == nil || !c.NotPlaces.MatchString(k))
}

// Place is a line of o′ that names the new declaration or a neighbour, as
// Order sees it: the shape of the line at the name (its place key) and
// whether Places and NotPlaces keep that place and Ignore the line.
type Place struct {
	File    string
	Line    int    // from 1
	Name    string // the name found
	Role    string // "new", "previous" or "next"
	Shape   string // the place: indentation and the word at the name, @ for the name
	Checked bool
}

// ListPlaces lists the lines of the files of o′ the check looks at that name
// the new declaration or a neighbour, with their places, comment lines
// left out: what `places` and `not_places` match. A line that Ignore
// matches is listed, not checked.
func (c *Order) ListPlaces(o2 tree.Tree) []Place {
	scs := [3]*scanner{newScanner(c.Prev, c.Others), newScanner(c.New, c.Others), newScanner(c.Next, c.Others)}
	roles := [3]string{"previous", "new", "next"}
	var out []Place
	for _, f := range o2.Names() {
		if len(c.Files) > 0 && !InFiles(c.Files, f) {
			continue
		}
		text := view(o2[f])
		starts := lineStarts(text)
		var cand []int
		for t := range 3 {
			cand = append(cand, scs[t].lines(text, starts)...)
		}
		slices.Sort(cand)
		for _, i := range slices.Compact(cand) {
			line := lineAt(text, starts, i)
			if commentLine(f, line) {
				continue
			}
			for t := range 3 {
				if occ := scs[t].find(line); len(occ) > 0 {
					k := placeKey(line, occ)
					out = append(out, Place{File: f, Line: i + 1, Name: line[occ[0].beg:occ[0].end], Role: roles[t], Shape: k, Checked: c.checked(k) && !c.ignored(line)})
				}
			}
		}
	}
	return out
}

// PlaceOf is the place of line (see Order: its indentation and the word
// that holds the name, the name masked as @ and numbers as #) at the
// first occurrence of the name n, and whether the line mentions n.
func PlaceOf(line string, n Name) (string, bool) {
	occ := n.find(line, nil)
	if n.shadowed && len(n.shadows) > 0 {
		var shadow []span
		for _, o := range n.shadows {
			shadow = append(shadow, o.find(line, nil)...)
		}
		occ = n.find(line, shadow)
	}
	if len(occ) == 0 {
		return "", false
	}
	return placeKey(line, occ), true
}

// MaskName is line with each occurrence of the name n (as the derived
// checks find them) replaced by mark.
func MaskName(line string, n Name, mark string) string {
	var shadow []span
	if n.shadowed {
		for _, o := range n.shadows {
			shadow = append(shadow, o.find(line, nil)...)
		}
	}
	occ := n.find(line, shadow)
	if len(occ) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, s := range occ {
		b.WriteString(line[at:s.beg])
		b.WriteString(mark)
		at = s.end
	}
	b.WriteString(line[at:])
	return b.String()
}
