package syntax

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ListSpec says which nodes of a tree are lists of declarations and which
// of their children are the declarations.
type ListSpec struct {
	// Lists are the node kinds that hold declarations (e.g. enum_body,
	// class_body, program).
	Lists []string
	// Members are the kinds of the declarations; empty means every named
	// child that is neither a comment nor an annotation.
	Members []string
	// Comments are the kinds of comment nodes; empty means "comment".
	Comments []string
	// Annotations are the kinds of annotation or decorator nodes that stand
	// in a list before the declaration they belong to.
	Annotations []string
	// Sep is the separator of a list that shows none (a list of one
	// member): "," or ";"; empty means none.
	Sep string
	// Runs makes each run of members of a list node a list of its own: the
	// members between two of its other children (keywords, conditions). A
	// statement `if C then A B else D end` holds two lists, A B and D; a
	// run without members is no list.
	Runs bool
}

// Decl is one declaration: a member of a list, with the comments and
// annotations attached to it.
type Decl struct {
	Node *Node
	// Name is the text of the declaration's name (see NameOf), or "".
	Name string
	// Start is where the declaration begins with the comments and
	// annotations before it that belong to it; End is where it ends with
	// the separator after it and a comment on the same line.
	Start, End int
	// Leading are the comments and annotations attached before it;
	// Trailing is the comment after it on its last line, or nil.
	Leading  []*Node
	Trailing *Node
	// Sep is the separator token after the declaration, or nil.
	Sep *Node
	// Index is the declaration's place in its list.
	Index int
	List  *List
}

// Kind is the node type of the declaration.
func (d *Decl) Kind() string { return d.Node.Kind }

// Prev is the declaration before d in its list, or nil.
func (d *Decl) Prev() *Decl {
	if d.Index == 0 {
		return nil
	}
	return d.List.Members[d.Index-1]
}

// Next is the declaration after d in its list, or nil.
func (d *Decl) Next() *Decl {
	if d.Index+1 >= len(d.List.Members) {
		return nil
	}
	return d.List.Members[d.Index+1]
}

// Siblings are the other declarations of d's kind in d's list, in order.
func (d *Decl) Siblings() []*Decl {
	var out []*Decl
	for _, m := range d.List.Members {
		if m != d && m.Node.Kind == d.Node.Kind {
			out = append(out, m)
		}
	}
	return out
}

// List is a node that holds declarations, with the layout its file gives it.
type List struct {
	Tree *Tree
	Node *Node
	// Name names the list in messages: the name of the declaration that
	// holds it (an enum's name for its body), else its kind.
	Name string
	// Open and Close are the list's brackets, nil for a list without (a
	// module).
	Open, Close *Node
	Members     []*Decl
	Layout      Layout
}

// Layout is how a file writes a list, learned from the list itself (and
// from the file where the list is too short to tell).
type Layout struct {
	// Indent is the white space before a member that starts a line; Unit
	// is one level of indentation (Indent less the indentation of the
	// line that opens the list).
	Indent, Unit string
	// Sep is the separator between members: ",", ";" or "".
	Sep string
	// OnePerLine is true when members stand on lines of their own.
	OnePerLine bool
	// Trailing is true when the last member is followed by a separator.
	Trailing bool
	// Optional is true when the separator is a terminator some members go
	// without (`;`, or a separator missing after a member but the last:
	// TypeScript class bodies have `;` after fields, none after methods):
	// the separator then ends the new member, and none is added to its
	// neighbour.
	Optional bool
	// EOL is the line ending: "\n" or "\r\n".
	EOL string
}

// Lists returns the lists of t that spec names, in source order.
func Lists(t *Tree, spec ListSpec) []*List {
	var out []*List
	Walk(t.Root, func(n *Node) bool {
		// (a leaf is no list: mcpt's grammar notation names the leaves of
		// names after their kind, `table` for a reference to a table)
		// (an empty node of a rule, `init` without statements, is an
		// empty list)
		empty := len(n.Children) == 0 && n.Start == n.End && n.Field == ""
		if n.Named && (len(n.Children) > 0 || empty) && slices.Contains(spec.Lists, n.Kind) {
			if spec.Runs {
				out = append(out, runLists(t, n, spec)...)
			} else {
				out = append(out, newList(t, n, spec))
			}
		}
		return true
	})
	return out
}

func (s ListSpec) isComment(n *Node) bool {
	if len(s.Comments) == 0 {
		return n.Kind == "comment"
	}
	return slices.Contains(s.Comments, n.Kind)
}

func (s ListSpec) isMember(n *Node) bool {
	if !n.Named || s.isComment(n) || slices.Contains(s.Annotations, n.Kind) {
		return false
	}
	return len(s.Members) == 0 || slices.Contains(s.Members, n.Kind)
}

// nodeEnd is where the content of n ends: white space, and comments that
// its last descendants hold (a parser may give a node the white space and
// comments after it), left out.
func nodeEnd(src []byte, n *Node) int {
	e := n.Start
	if OnlyComments(n) {
		e = n.End
	}
	for _, c := range n.Children {
		// (a node of comments alone, such as a grammar's spelled-out
		// comment after a declaration, is no content either)
		if c.Kind != "comment" && c.End > c.Start && !commentsAlone(c) {
			e = max(e, nodeEnd(src, c))
		}
	}
	for e > n.Start && strings.IndexByte(" \t\r\n", src[e-1]) >= 0 {
		e--
	}
	return e
}

func isSepToken(n *Node) bool { return !n.Named && (n.Kind == "," || n.Kind == ";") }

// newList finds the members of the list node n, attaches comments and
// annotations to them and learns the layout.
func newList(t *Tree, n *Node, spec ListSpec) *List {
	l := &List{Tree: t, Node: n}
	l.Open, l.Close = brackets(n)
	l.Name = listName(t.Src, n, l.Open)
	return l.fill(n.Children, spec)
}

// runLists are the lists of the runs of members of the list node n (see
// ListSpec.Runs), named after n and the keyword that opens each run
// (`conditional then`, `conditional else`).
func runLists(t *Tree, n *Node, spec ListSpec) []*List {
	var out []*List
	var run []*Node
	opener := ""
	if !slices.ContainsFunc(n.Children, func(c *Node) bool { return !inRun(c, spec) }) {
		// a body and nothing else: one list, empty or not
		l := &List{Tree: t, Node: n, Name: n.Kind}
		return []*List{l.fill(n.Children, spec)}
	}
	flush := func() {
		for _, c := range run {
			if spec.isMember(c) && !commentsAlone(c) {
				l := &List{Tree: t, Node: n, Name: strings.TrimSpace(n.Kind + " " + opener)}
				out = append(out, l.fill(run, spec))
				break
			}
		}
		run = nil
	}
	for _, c := range n.Children {
		if inRun(c, spec) {
			run = append(run, c)
			continue
		}
		flush()
		opener = c.Kind
		if c.Named {
			opener = ""
		}
	}
	flush()
	return out
}

// inRun reports whether child c of a list node belongs to a run of
// members: a member, a comment, an annotation or a separator.
func inRun(c *Node, spec ListSpec) bool {
	return spec.isMember(c) || spec.isComment(c) || commentsAlone(c) || isSepToken(c) || slices.Contains(spec.Annotations, c.Kind)
}

// fill makes the members of l from children, the children of its node
// that l holds, attaching comments and annotations, and learns the layout.
func (l *List) fill(children []*Node, spec ListSpec) *List {
	t := l.Tree
	var pending []*Node // comments and annotations not yet attached
	for _, c := range children {
		if l.Open != nil && (c.Start < l.Open.End || c.Start >= l.Close.Start) {
			continue // the declaration that holds the list, and its end
		}
		switch {
		case spec.isMember(c) && !commentsAlone(c):
			d := &Decl{Node: c, Name: NameOf(t.Src, c), Start: c.Start, End: nodeEnd(t.Src, c), Index: len(l.Members), List: l}
			d.attachLeading(t.Src, pending)
			// mcpt's grammar notation attaches a comment to the node
			// after it: one that ends the previous member's line is that
			// member's.
			if cc, in := firstComment(c); cc != nil && len(pending) == 0 {
				if k := len(l.Members); k > 0 && l.Members[k-1].Trailing == nil && endsLine(t.Src, l.Members[k-1].End, cc) {
					last := l.Members[k-1]
					last.Trailing, last.End = cc, cc.End
					d.Start = nextStart(t.Src, in, cc)
				}
			}
			// a comment that the member's node holds after its content, on
			// its last line, ends it
			if cc := innerTrailing(c, d.End); cc != nil && endsLine(t.Src, d.End, cc) {
				d.Trailing, d.End = cc, cc.End
			}
			for _, cc := range c.Children {
				if cc.Kind != "comment" {
					break
				}
				if k := len(l.Members); k == 0 || cc != l.Members[k-1].Trailing {
					d.Leading = append(d.Leading, cc)
				}
			}
			pending = nil
			l.Members = append(l.Members, d)
		case isSepToken(c) && len(l.Members) > 0 && len(pending) == 0:
			if last := l.Members[len(l.Members)-1]; last.Sep == nil && last.Trailing == nil {
				last.Sep, last.End = c, c.End
			}
		case c.Named && (spec.isComment(c) || commentsAlone(c) || slices.Contains(spec.Annotations, c.Kind)):
			// (a member of comments alone, a grammar's spelled-out comment
			// line, is a comment)
			if k := len(l.Members); k > 0 && len(pending) == 0 && l.Members[k-1].Trailing == nil &&
				(spec.isComment(c) || commentsAlone(c)) && endsLine(t.Src, l.Members[k-1].End, c) {
				last := l.Members[k-1]
				last.Trailing, last.End = c, c.End
				continue
			}
			pending = append(pending, c)
		}
	}
	l.Layout = learnLayout(t, l, spec.Sep)
	return l
}

// innerTrailing is the first comment inside n that starts at or after
// off (the end of n's content), or nil.
func innerTrailing(n *Node, off int) *Node {
	var found *Node
	Walk(n, func(c *Node) bool {
		if found != nil {
			return false
		}
		if c.Kind == "comment" && c.Start >= off {
			found = c
			return false
		}
		return c.End > off
	})
	return found
}

// endsLine reports whether comment c stands on the line where a member
// ends (at off) and nothing but white space follows it there: a comment
// that ends the line of a member belongs to that member.
func endsLine(src []byte, off int, c *Node) bool {
	if bytes.IndexByte(src[off:c.Start], '\n') >= 0 {
		return false
	}
	rest := src[c.End:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return len(bytes.TrimSpace(rest)) == 0
}

// attachLeading attaches the comments and annotations before d that no
// blank line separates from it (or from each other).
func (d *Decl) attachLeading(src []byte, pending []*Node) {
	start := d.Node.Start
	for i := len(pending) - 1; i >= 0; i-- {
		if bytes.Count(src[pending[i].End:start], []byte("\n")) > 1 {
			break
		}
		start = pending[i].Start
		d.Leading = append([]*Node{pending[i]}, d.Leading...)
	}
	d.Start = start
}

// NameOf returns the name of a declaration node: the text of its child in
// field "name" (looked for up to three levels down, through a wrapping
// export or declaration; failing that, the first in field "new", where
// mcpt's grammar notation puts declared names), or its own text when it is
// a named leaf.
func NameOf(src []byte, n *Node) string {
	if OnlyComments(n) {
		return string(src[bodyStart(src, n):n.End])
	}
	if nm := nameNode(n); nm != nil {
		return nm.Text(src)
	}
	return ""
}

// brackets are the brackets of the list node n: its first and last
// children when both are anonymous (a tree-sitter body), else, for a node
// of mcpt's grammar notation that holds the declaration's keywords and name
// too (`enum Color : byte { Red }`), its first anonymous "{" and last "}".
func brackets(n *Node) (open, close *Node) {
	for _, c := range n.Children {
		if !c.Named && c.Kind == "{" {
			open = c
			break
		}
	}
	for i := len(n.Children) - 1; i >= 0; i-- {
		if c := n.Children[i]; !c.Named && c.Kind == "}" {
			close = c
			break
		}
	}
	if open != nil && close != nil && open.End <= close.Start {
		return open, close
	}
	if k := len(n.Children); k >= 2 && !n.Children[0].Named && !n.Children[k-1].Named {
		return n.Children[0], n.Children[k-1]
	}
	return nil, nil
}

// listName names the list node n: "KIND NAME" when n declares a name
// before its opening bracket open (a node of mcpt's grammar notation that
// holds its declaration: `enum Color`), "KIND of NAME" when its parent
// declares one, else its kind.
func listName(src []byte, n, open *Node) string {
	for _, c := range n.Children {
		if open != nil && c.Start < open.Start && c.Field == "new" {
			return n.Kind + " " + c.Text(src)
		}
	}
	if n.Parent != nil {
		if name := NameOf(src, n.Parent); name != "" && n.Parent.Kind != n.Kind {
			for _, c := range n.Parent.Children {
				if c.Field == "name" || c.Field == "new" {
					return n.Kind + " of " + name
				}
			}
		}
	}
	return n.Kind
}

// learnLayout learns how the file of t writes the list l. What it reads
// of the file as a whole (its line ending, its indentation unit) is read
// once per tree, and the rest from the list alone: the lists of a file
// are learnt in time linear in the file.
func learnLayout(t *Tree, l *List, defSep string) Layout {
	src, file := t.Src, t.facts()
	lay := Layout{EOL: file.eol}
	seps := map[string]int{}
	indents := map[string]int{}
	for i, d := range l.Members {
		if d.Sep != nil {
			seps[d.Sep.Kind]++
		} else if i < len(l.Members)-1 {
			lay.Optional = true
		}
		if ind, ok := lineIndent(src, d.Start); ok {
			indents[ind]++
		}
		if i > 0 && !sameLine(src, d.Start, nodeEnd(src, l.Members[i-1].Node)) {
			lay.OnePerLine = true
		}
	}
	lay.Sep = mostCommon(seps)
	if lay.Sep == "" && len(l.Members) <= 1 {
		lay.Sep = defSep
	}
	switch lay.Sep {
	case "":
		lay.Optional = false
	case ";":
		lay.Optional = true // a terminator: none is missing after a last member that goes without
	}
	if k := len(l.Members); k > 0 {
		lay.Trailing = l.Members[k-1].Sep != nil
		if k == 1 && l.Open != nil && !sameLine(src, l.Open.End, l.Members[0].Start) {
			lay.OnePerLine = true
		}
	} else if l.Open != nil && l.Close != nil {
		lay.OnePerLine = !sameLine(src, l.Open.End, l.Close.Start)
	}
	if l.Open == nil && len(l.Members) <= 1 {
		// a module: one declaration per line; but a list without brackets
		// whose member follows other text on its line (`states Idle`) is
		// written inline
		lay.OnePerLine = len(l.Members) == 0 || startsLine(src, l.Members[0].Start)
	}
	lay.Indent = mostCommon(indents)
	outer := ""
	if l.Open != nil {
		outer = lineIndentAt(src, l.Open.Start)
	}
	lay.Unit = strings.TrimPrefix(lay.Indent, outer)
	if lay.Unit == "" || len(lay.Indent) == 0 && l.Open != nil {
		lay.Unit = file.unit
		if l.Open != nil && lay.Indent == "" {
			lay.Indent = outer + lay.Unit
		}
	}
	if l.Open == nil {
		lay.Unit = file.unit // a module, or a list without brackets
	}
	return lay
}

func mostCommon(m map[string]int) string {
	best, n := "", 0
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best
}

// lineIndent returns the white space between the start of off's line and
// off, when only white space stands there.
func lineIndent(src []byte, off int) (string, bool) {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return "", false
	}
	return string(src[i:off]), true
}

// startsLine reports whether only white space stands before off on its line.
func startsLine(src []byte, off int) bool {
	_, ok := lineIndent(src, off)
	return ok
}

// lineIndentAt returns the leading white space of off's line.
func lineIndentAt(src []byte, off int) string {
	i := off
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return string(src[i:j])
}

// sameLine reports whether offsets a and b of src are on one line.
func sameLine(src []byte, a, b int) bool {
	return bytes.IndexByte(src[min(a, b):max(a, b)], '\n') < 0
}

// fileUnit is the indentation unit of the file: the leading white space of
// its first indented line (a tab, or spaces), else two spaces.
func fileUnit(src []byte) string {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimRight(line, "\r")
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || len(t) == len(line) {
			continue
		}
		ind := line[:len(line)-len(t)]
		if ind[0] == '\t' {
			return "\t"
		}
		return string(ind)
	}
	return "  "
}

// textFacts is what the layouts of a file's lists share: its line ending
// ("\r\n" when at least half its lines end so) and its indentation unit.
type textFacts struct {
	eol, unit string
}

var factsMu sync.Mutex

// facts returns what the layouts of t's lists read of its whole source,
// found on first use.
func (t *Tree) facts() *textFacts {
	factsMu.Lock()
	defer factsMu.Unlock()
	if t.text == nil {
		f := &textFacts{eol: "\n", unit: fileUnit(t.Src)}
		if crlf := bytes.Count(t.Src, []byte("\r\n")); crlf > 0 && crlf*2 >= bytes.Count(t.Src, []byte("\n")) {
			f.eol = "\r\n"
		}
		t.text = f
	}
	return t.text
}

// Sub returns the tree of the subtree at n: t's source, with n as its
// root, which shares what t has read of the source as a whole.
func (t *Tree) Sub(n *Node) *Tree {
	return &Tree{Name: t.Name, Lang: t.Lang, Src: t.Src, Root: n, text: t.facts()}
}

// Spot is an insertion point in a list: before its first member (Index
// 0), between two members, or after the last (Index len(Members)).
type Spot struct {
	List  *List
	Index int
	// Before and After are the neighbours: the member before the spot and
	// the one after it (nil at the ends).
	Before, After *Decl
	// Desc names the spot by its list and neighbours, the same whatever
	// the layout: "enum_body of Color, between Red and Green".
	Desc string
}

// Spots returns the spots of the list, in order.
func (l *List) Spots() []Spot {
	out := make([]Spot, 0, len(l.Members)+1)
	for g := 0; g <= len(l.Members); g++ {
		s := Spot{List: l, Index: g}
		if g > 0 {
			s.Before = l.Members[g-1]
		}
		if g < len(l.Members) {
			s.After = l.Members[g]
		}
		switch {
		case s.Before != nil && s.After != nil:
			s.Desc = fmt.Sprintf("%s, between %s and %s", l.Name, declName(s.Before), declName(s.After))
		case s.After != nil:
			s.Desc = fmt.Sprintf("%s, before %s", l.Name, declName(s.After))
		case s.Before != nil:
			s.Desc = fmt.Sprintf("%s, after %s", l.Name, declName(s.Before))
		default:
			s.Desc = l.Name + ", empty"
		}
		out = append(out, s)
	}
	return out
}

// declName names d in a spot's description: its name, else its first three
// tokens (`set Level = …` for a statement), else its kind.
func declName(d *Decl) string {
	if d.Name != "" {
		return d.Name
	}
	var toks []string
	more := false
	Walk(d.Node, func(n *Node) bool {
		switch {
		case more || n.Kind == "comment":
			return false
		case len(n.Children) > 0:
			return true
		case n.End > n.Start && len(toks) == 3:
			more = true
		case n.End > n.Start:
			tok := strings.Join(strings.Fields(n.Text(d.List.Tree.Src)), " ")
			if r := []rune(tok); len(r) > 24 {
				tok = string(r[:24]) + "…"
			}
			toks = append(toks, tok)
		}
		return false
	})
	if len(toks) == 0 {
		return d.Node.Kind
	}
	if more {
		toks = append(toks, "…")
	}
	return strings.Join(toks, " ")
}

// Edit replaces the bytes Start to End of a source by Text.
type Edit struct {
	Start, End int
	Text       string
}

// Apply returns src with the edit made.
func (e Edit) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(e.Text))
	out = append(out, src[:e.Start]...)
	out = append(out, e.Text...)
	return append(out, src[e.End:]...)
}

// Insert returns the edit that inserts the member text at the spot, laid
// out as its siblings are: on a line of its own with their indentation or
// inline, with the separator between members (a separator ending text is
// taken as that one, a `,` or `;` ending it replaced by the list's), and
// after it where the list has trailing separators; where `;` is a
// terminator some members go without, a text that ends with `}` gets
// none.
// Text of several lines is indented line by line.
func (s Spot) Insert(text string) Edit {
	l, lay := s.List, s.List.Layout
	src := l.Tree.Src
	text = strings.TrimSpace(text)
	if lay.Sep != "" && (strings.HasSuffix(text, ",") || strings.HasSuffix(text, ";")) {
		text = strings.TrimSpace(text[:len(text)-1]) // the list's separator replaces the text's
	}
	ws := " "
	if lay.OnePerLine {
		ws = lay.EOL + lay.Indent
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", lay.EOL+lay.Indent)
	}
	sepAfter := lay.Sep != "" && (s.After != nil || lay.Trailing || lay.Optional)
	if lay.Optional && lay.Sep == ";" && strings.HasSuffix(text, "}") {
		// a member that ends with a body (a method, a static block) is
		// one that goes without the terminator: `;` after it would be
		// an empty member of its own
		sepAfter = false
	}
	if sepAfter {
		text += lay.Sep
	}
	switch {
	case s.Before != nil:
		b := s.Before
		if !lay.OnePerLine && b.Trailing != nil {
			// an inline list whose member ends its line with a comment:
			// what follows the comment starts a line of its own
			ws = lay.EOL + lineIndentAt(src, b.Start)
		}
		e := nodeEnd(src, b.Node)
		if b.Sep == nil && lay.Sep != "" && (!lay.Optional || !lay.OnePerLine && src[e-1] != '}') {
			// the last member gains the separator it had no need of (on
			// one line, a terminator too: `{ a: T; b: U }`, but after a
			// body)
			return Edit{Start: e, End: b.End, Text: lay.Sep + string(src[e:b.End]) + ws + text}
		}
		return Edit{Start: b.End, End: b.End, Text: ws + text}
	case s.After != nil:
		return Edit{Start: s.After.Start, End: s.After.Start, Text: text + ws}
	case l.Open != nil:
		if !lay.OnePerLine {
			return Edit{Start: l.Open.End, End: l.Close.Start, Text: " " + text + " "}
		}
		outer := lineIndentAt(src, l.Open.Start)
		return Edit{Start: l.Open.End, End: l.Close.Start, Text: lay.EOL + outer + lay.Unit + text + lay.EOL + outer}
	case l.Node.Parent != nil:
		// an empty list without brackets (a body without statements):
		// after the text before it, on a line of its own one level deeper
		// (after the comments it holds, with their indentation)
		at, ind := l.Node.Start, ""
		for _, c := range l.Node.Children {
			at, ind = max(at, c.End), lineIndentAt(src, c.Start)
		}
		if len(l.Node.Children) == 0 {
			for at > 0 && strings.IndexByte(" \t\r\n", src[at-1]) >= 0 {
				at--
			}
			ind = lineIndentAt(src, at) + lay.Unit
		}
		return Edit{Start: at, End: at, Text: lay.EOL + ind + text}
	default:
		end := len(src)
		pre := ""
		if end > 0 && src[end-1] != '\n' {
			pre = lay.EOL
		}
		return Edit{Start: end, End: end, Text: pre + text + lay.EOL}
	}
}

// Clone returns the text of d's node (without its comments and
// annotations) with its name replaced by name and, when value is not "",
// the node in its "value" field replaced by value: a sibling declaration
// made from d, for a mutation that needs no template.
func (d *Decl) Clone(name, value string) string {
	src := d.List.Tree.Src
	n := d.Node
	type repl struct {
		s, e int
		t    string
	}
	var rs []repl
	if nm := nameNode(n); nm != nil {
		rs = append(rs, repl{nm.Start, nm.End, name})
	} else if OnlyComments(n) {
		return name
	}
	if value != "" {
		for _, c := range n.Children {
			if c.Field == "value" {
				rs = append(rs, repl{c.Start, c.End, value})
			}
		}
	}
	slices.SortFunc(rs, func(a, b repl) int { return a.s - b.s })
	var b strings.Builder
	at := bodyStart(src, n)
	for _, r := range rs {
		b.Write(src[at:r.s])
		b.WriteString(r.t)
		at = r.e
	}
	b.Write(src[at:n.End])
	return b.String()
}

// commentsAlone reports whether n holds comments and nothing after them.
func commentsAlone(n *Node) bool {
	k := len(n.Children)
	return k > 0 && OnlyComments(n) && n.Children[k-1].End >= n.End
}

// OnlyComments reports whether n has no children but comments: a leaf, or
// a leaf of mcpt's grammar notation with the comments before it attached.
func OnlyComments(n *Node) bool {
	for _, c := range n.Children {
		if c.Kind != "comment" {
			return false
		}
	}
	return true
}

// bodyStart is where n starts without the comments that open it (mcpt's
// grammar notation attaches the comments before a node to it, as its first
// children).
func bodyStart(src []byte, n *Node) int {
	s := n.Start
	for _, c := range n.Children {
		if c.Kind != "comment" {
			return bodyStart(src, c) // comments that open its first child open it too
		}
		s = c.End
	}
	for s < n.End && strings.IndexByte(" \t\r\n", src[s]) >= 0 {
		s++
	}
	return s
}

// Text is the declaration's own text: its node without the comments and
// annotations attached to it.
func (d *Decl) Text() string {
	start, end := d.Span()
	return string(d.List.Tree.Src[start:end])
}

// Span is where the text of the declaration (see Text) starts and ends.
func (d *Decl) Span() (start, end int) {
	src := d.List.Tree.Src
	return bodyStart(src, d.Node), nodeEnd(src, d.Node)
}

// NameNode is the node that holds the name of the declaration node n (see
// NameOf), or nil: the one a copy of the declaration renames.
func NameNode(n *Node) *Node { return nameNode(n) }

// nameNode is the node NameOf takes the name from, or nil.
func nameNode(n *Node) *Node {
	if nm := fieldNode(n, "name"); nm != nil {
		return nm
	}
	return fieldNode(n, "new")
}

// fieldNode is the first node in field f up to three levels below n,
// breadth first.
func fieldNode(n *Node, f string) *Node {
	level := []*Node{n}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		var next []*Node
		for _, p := range level {
			for _, c := range p.Children {
				if c.Field == f {
					return c
				}
				if c.Named {
					next = append(next, c)
				}
			}
		}
		level = next
	}
	return nil
}

// nextStart is where member n starts once the comment c, its first child,
// is no longer its own: at its next child.
func nextStart(src []byte, n, c *Node) int {
	for i, cc := range n.Children {
		if cc == c && i+1 < len(n.Children) {
			return n.Children[i+1].Start
		}
	}
	return bodyStart(src, n)
}

// firstComment is the comment that opens node n, whichever node on the
// way to its first leaf holds it, and that node; nil when none does.
func firstComment(n *Node) (c, in *Node) {
	for len(n.Children) > 0 {
		if n.Children[0].Kind == "comment" {
			return n.Children[0], n
		}
		n = n.Children[0]
	}
	return nil, nil
}
