// Package oracle holds the consistency checkers of MCP relations: the
// equivalence check (files byte-identical between the base output o and the
// follow-up output o′) and the difference check (o′ equals o with exactly a
// predicted set of line edits applied). A checker reports failures, never
// errors: a failed check is a finding about the transpiler.
package oracle

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Failure is one failed consistency check.
type Failure struct {
	Checker  string
	File     string
	Message  string
	Expected string // the predicted content of File in o′ (difference checks)
	Actual   string // the actual content of File in o′
	Diff     string // unified diff from Expected to Actual
	// Compared is what a derived or semantic checker compared, for the
	// page of the finding: its Expected and Actual are then no prediction
	// of the file and the file. Exact checks leave it nil.
	Compared *result.Compared
}

// Equivalence checks that every file of o and o′ is byte-identical, except
// the files named in Except (names or patterns, see MatchFile). Files
// present in only one tree fail it too.
type Equivalence struct {
	Name   string
	Except []string
}

// Excepts reports whether file is one of the files the check leaves out.
func (e *Equivalence) Excepts(file string) bool {
	return slices.ContainsFunc(e.Except, func(x string) bool { return MatchFile(x, file) })
}

// Check runs the equivalence check.
func (e *Equivalence) Check(o, o2 tree.Tree) []Failure {
	name := e.Name
	if name == "" {
		name = "equivalence"
	}
	skip := e.Excepts
	var fails []Failure
	for _, f := range o.Names() {
		if skip(f) {
			continue
		}
		b2, ok := o2[f]
		if !ok {
			fails = append(fails, Failure{Checker: name, File: f, Message: fmt.Sprintf("%s is in o but missing from o′", f)})
			continue
		}
		if !bytes.Equal(o[f], b2) {
			fails = append(fails, Failure{
				Checker: name, File: f,
				Message:  fmt.Sprintf("%s changed, but the mutation must leave it byte-identical", f),
				Expected: string(o[f]), Actual: string(b2),
				Diff: Diff(f, string(o[f]), string(b2)),
			})
		}
	}
	for _, f := range o2.Names() {
		if skip(f) {
			continue
		}
		if _, ok := o[f]; !ok {
			fails = append(fails, Failure{Checker: name, File: f, Message: fmt.Sprintf("%s appeared in o′ but is not in o", f), Actual: string(o2[f])})
		}
	}
	return fails
}

// Matcher matches one line: exactly (ignoring leading and trailing white
// space) or by a regular expression.
type Matcher struct {
	Text string
	Re   *regexp.Regexp
}

// Match reports whether the line matches.
func (m Matcher) Match(line string) bool {
	if m.Re != nil {
		return m.Re.MatchString(line)
	}
	return strings.TrimSpace(line) == strings.TrimSpace(m.Text)
}

func (m Matcher) String() string {
	if m.Re != nil {
		return "/" + m.Re.String() + "/"
	}
	return fmt.Sprintf("%q", strings.TrimSpace(m.Text))
}

// Anchor locates one line of a file: each matcher of Path is searched for
// from the line after the previous match (the first from the top of the
// file), and the line that the last one matches is the anchor. A path such as
// ["void p_init(p_ctx_t *ctx)", "ctx->transition_pending = false;"] scopes a
// line to a function.
type Anchor struct {
	Path []Matcher
	// Before places an insertion before the anchor line instead of after it.
	Before bool
	// End anchors at the last line of the file (Path is not used): an
	// insertion after it appends to the file, and makes an empty file
	// of its lines, each ending with a newline.
	End bool
}

func (a Anchor) String() string {
	parts := make([]string, len(a.Path))
	for i, m := range a.Path {
		parts[i] = m.String()
	}
	if a.End {
		return "at the end of the file"
	}
	where := "after "
	if a.Before {
		where = "before "
	}
	return where + strings.Join(parts, " … ")
}

// Find returns the index of the anchor line in lines, or -1.
func (a Anchor) Find(lines []string) int {
	if a.End {
		return len(lines) - 1
	}
	return findPath(a.Path, lines, -1)
}

// findPath searches the path of matchers from the line after index from and
// returns the index of the line the last one matches, or -1.
func findPath(path []Matcher, lines []string, from int) int {
	at := from
	for _, m := range path {
		found := -1
		for i := at + 1; i < len(lines); i++ {
			if m.Match(lines[i]) {
				found = i
				break
			}
		}
		if found < 0 {
			return -1
		}
		at = found
	}
	return at
}

// Op is the kind of an edit.
type Op int

const (
	Insert     Op = iota // insert Lines after (or before) the anchor
	Replace              // replace the anchor line (or range) with Lines
	Delete               // delete the anchor line (or range)
	Substitute           // rewrite the lines of the range that Pattern matches (Pattern → With)
	Renumber             // add By to the number that Pattern's first matching group holds, in the lines of the range
)

// Edit is one predicted change of a file. Anchors are alternatives tried in
// order: the first one found in o places the edit, so a relation can say
// "right after the line of the preceding X, else first in its group".
//
// Every edit but Insert acts on a range of lines of o: the anchor line,
// through the line that Through finds (a path searched from the line after
// the anchor) when Through is set.
type Edit struct {
	Op      Op
	Lines   []string
	Anchors []Anchor
	Through []Matcher

	Pattern *regexp.Regexp // Substitute, Renumber
	With    string         // Substitute: the replacement, with $1 expansion
	By      int            // Renumber: the amount added

	// Replace, when set, is a Substitute's replacement in place of With:
	// it is given the groups of each match (as FindStringSubmatch gives
	// them, group 0 the match) and its text is taken as it is, a $ too.
	Replace func(groups []string) (string, error)
}

// Difference checks that File in o′ equals File in o with exactly Edits
// applied: anchors are resolved in o, the prediction is built, and the
// prediction is compared with o′ byte for byte. File may be a pattern
// (MatchFile) that one file of o matches.
type Difference struct {
	Name  string
	File  string
	Edits []Edit
}

// Predict applies the edits to the base content and returns the predicted
// follow-up content, or an error naming an anchor that is not in base.
func (d *Difference) Predict(base string) (string, error) {
	out, nl, err := d.predict(base)
	if err != nil {
		return "", err
	}
	return JoinLines(out, nl), nil
}

// predict is Predict without joining the lines: Check compares them with
// the follow-up's content directly and joins them only when they differ.
func (d *Difference) predict(base string) ([]string, bool, error) {
	lines, nl := SplitLines(base)
	pl, err := d.place(lines)
	if err != nil {
		return nil, false, err
	}
	cur, err := pl.rewrite(lines)
	if err != nil {
		return nil, false, err
	}
	out, err := pl.assemble(lines, cur)
	if err != nil {
		return nil, false, err
	}
	if len(lines) == 0 && len(out) > 0 {
		nl = true // lines inserted into an empty file end as lines do
	}
	return out, nl, nil
}

// placed is an edit placed on the lines of o.
type placed struct {
	at  int // index of the anchor line
	end int // index of the last line of the range (edits other than Insert)
	pos int // insertion slot: edits apply before slot pos (0..len)
	e   *Edit
}

// placement is where the edits of a Difference apply, and what kinds of
// edit there are.
type placement struct {
	ps       []placed
	added    int  // lines inserted or replacing others
	rewrites bool // some edit changes lines in place
	ranges   bool // some edit replaces or deletes a range
}

// place finds the anchor line, and the end of the range, of every edit.
func (d *Difference) place(lines []string) (*placement, error) {
	pl := &placement{ps: make([]placed, 0, len(d.Edits))}
	for i := range d.Edits {
		e := &d.Edits[i]
		p, err := placeEdit(e, lines)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case Insert:
			pl.added += len(e.Lines)
		case Replace:
			pl.added += len(e.Lines)
			pl.ranges = true
		case Delete:
			pl.ranges = true
		case Substitute, Renumber:
			pl.rewrites = true
		}
		pl.ps = append(pl.ps, p)
	}
	return pl, nil
}

// placeEdit places e at the line of its first anchor found in lines.
func placeEdit(e *Edit, lines []string) (placed, error) {
	at, before := -1, false
	for _, a := range e.Anchors {
		if at = a.Find(lines); at >= 0 {
			before = a.Before
			break
		}
		if a.End && len(lines) == 0 && e.Op == Insert {
			// appending to an empty file: the lines are the file
			return placed{at: -1, end: -1, pos: 0, e: e}, nil
		}
	}
	if at < 0 {
		var alts []string
		for _, a := range e.Anchors {
			alts = append(alts, a.String())
		}
		return placed{}, fmt.Errorf("no anchor line found in o for %s: tried %s", describe(e), strings.Join(alts, "; "))
	}
	pos := at + 1
	if before || e.Op != Insert {
		pos = at
	}
	end := at
	if e.Op != Insert && len(e.Through) > 0 {
		if end = findPath(e.Through, lines, at); end < 0 {
			return placed{}, fmt.Errorf("no end of range found in o for %s from line %d: tried %s", describe(e), at+1, pathString(e.Through))
		}
	}
	return placed{at: at, end: end, pos: pos, e: e}, nil
}

// rewrite applies the edits that change lines in place, in edit order,
// before the lines are replaced, deleted or moved by inserts. The lines of
// base are only copied when some edit rewrites them.
func (pl *placement) rewrite(lines []string) ([]string, error) {
	if !pl.rewrites {
		return lines, nil
	}
	cur := slices.Clone(lines)
	for _, p := range pl.ps {
		if p.e.Op != Substitute && p.e.Op != Renumber {
			continue
		}
		if err := rewrite(p.e, cur[p.at:p.end+1]); err != nil {
			return nil, fmt.Errorf("%s at line %d: %v", describe(p.e), p.at+1, err)
		}
	}
	return cur, nil
}

// spans returns the first line of every replaced or deleted range, with
// its edit, and every line of such a range; two ranges must not overlap.
func (pl *placement) spans() (replaced map[int]*Edit, covered map[int]bool, err error) {
	replaced, covered = map[int]*Edit{}, map[int]bool{}
	for _, p := range pl.ps {
		if p.e.Op != Replace && p.e.Op != Delete {
			continue
		}
		for l := p.at; l <= p.end; l++ {
			if covered[l] {
				return nil, nil, fmt.Errorf("two edits replace or delete line %d", l+1)
			}
			covered[l] = true
		}
		replaced[p.at] = p.e
	}
	return replaced, covered, nil
}

// assemble makes the predicted lines: the lines cur (those of o,
// rewritten) with the inserts at their slots and the ranges replaced or
// deleted.
func (pl *placement) assemble(lines, cur []string) ([]string, error) {
	var replaced map[int]*Edit
	var covered map[int]bool
	if pl.ranges {
		var err error
		if replaced, covered, err = pl.spans(); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(lines)+pl.added)
	for i := 0; i <= len(lines); i++ {
		for _, p := range pl.ps {
			if p.e.Op == Insert && p.pos == i {
				out = append(out, p.e.Lines...)
			}
		}
		if i == len(lines) {
			break
		}
		if !pl.ranges {
			out = append(out, cur[i])
			continue
		}
		if e := replaced[i]; e != nil && e.Op == Replace {
			out = append(out, e.Lines...)
		}
		if covered[i] {
			continue
		}
		out = append(out, cur[i])
	}
	return out, nil
}

// sameContent reports whether content is lines joined as JoinLines(lines,
// nl) would join them, without building that string.
func sameContent(lines []string, nl bool, content []byte) bool {
	if len(lines) == 0 {
		return len(content) == 0
	}
	p := 0
	for i, l := range lines {
		if len(content)-p < len(l) || string(content[p:p+len(l)]) != l {
			return false
		}
		p += len(l)
		if i < len(lines)-1 || nl {
			if p >= len(content) || content[p] != '\n' {
				return false
			}
			p++
		}
	}
	return p == len(content)
}

func describe(e *Edit) string {
	first := ""
	if len(e.Lines) > 0 {
		first = strings.TrimSpace(e.Lines[0])
		for _, l := range e.Lines {
			if strings.TrimSpace(l) != "" {
				first = strings.TrimSpace(l)
				break
			}
		}
	}
	switch e.Op {
	case Replace:
		return fmt.Sprintf("the replacement %q", first)
	case Delete:
		return "a deletion"
	case Substitute:
		return fmt.Sprintf("the substitution /%s/", e.Pattern)
	case Renumber:
		return fmt.Sprintf("the renumbering /%s/ by %+d", e.Pattern, e.By)
	}
	return fmt.Sprintf("the insertion of %q", first)
}

// bothFiles returns file in o and in o′, or the failure of the checker
// name when either lacks it.
func bothFiles(name, file string, o, o2 tree.Tree) (base, act []byte, missing []Failure) {
	base, ok := o[file]
	if !ok {
		return nil, nil, []Failure{{Checker: name, File: file, Message: fmt.Sprintf("%s is missing from o", file)}}
	}
	act, ok = o2[file]
	if !ok {
		return nil, nil, []Failure{{Checker: name, File: file, Message: fmt.Sprintf("%s is missing from o′", file)}}
	}
	return base, act, nil
}

// Check runs the difference check.
func (d *Difference) Check(o, o2 tree.Tree) []Failure {
	name := d.Name
	if name == "" {
		name = "difference:" + d.File
	}
	file, err := FindFile(d.File, o)
	if err != nil {
		return []Failure{{Checker: name, File: d.File, Message: err.Error()}}
	}
	base, act, missing := bothFiles(name, file, o, o2)
	if missing != nil {
		return missing
	}
	lines, nl, err := d.predict(string(base))
	if err != nil {
		return []Failure{{Checker: name, File: file, Message: err.Error(), Actual: string(act)}}
	}
	if sameContent(lines, nl, act) {
		return nil
	}
	want := JoinLines(lines, nl)
	return []Failure{{
		Checker: name, File: file,
		Message:  fmt.Sprintf("%s in o′ differs from the predicted difference", file),
		Expected: want, Actual: string(act),
		Diff: Diff(file, want, string(act)),
	}}
}

// Diff renders a unified diff from the expected content a to the actual
// content b of a file.
func Diff(file, a, b string) string {
	return udiff.Unified("expected/"+file, "actual/"+file, a, b)
}

// DiffOutputs renders a unified diff from a file of o to the same file of
// o′, for a derived checker, which predicted nothing.
func DiffOutputs(file, a, b string) string {
	return udiff.Unified("o/"+file, "o′/"+file, a, b)
}

// DiffInputs renders a unified diff from the base input to the follow-up.
func DiffInputs(name, base, followup string) string {
	return udiff.Unified("base/"+name, "followup/"+name, base, followup)
}

// SplitLines splits text into lines without their newlines, and reports
// whether the text ended with a newline.
func SplitLines(s string) ([]string, bool) {
	if s == "" {
		return nil, false
	}
	nl := strings.HasSuffix(s, "\n")
	if nl {
		s = s[:len(s)-1]
	}
	return strings.Split(s, "\n"), nl
}

// JoinLines is the inverse of SplitLines.
func JoinLines(lines []string, nl bool) string {
	if len(lines) == 0 {
		return ""
	}
	n := len(lines) - 1
	if nl {
		n++
	}
	for _, l := range lines {
		n += len(l)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	if nl {
		b.WriteByte('\n')
	}
	return b.String()
}
