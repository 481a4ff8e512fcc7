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

// Rename maps a name of the sibling declaration to the corresponding name
// of the new one (the declaration's own name, then the names of its list).
type Rename struct {
	From, To Name
}

// Analogy is the derived checker that takes its prediction from the
// transpiler itself: the relation names a sibling, a declaration of the
// input of the same shape as the new one that the input mentions nowhere
// else, and every line of o that mentions the sibling, with the sibling's
// names replaced by the new ones (form for form: snake for snake, upper
// for upper), must be in the same file of o′, as many times as o has the
// sibling's line. Numbers are masked on both sides unless KeepNumbers. A
// sibling with no line in o cannot be decided and passes.
//
// Comment lines (by the file's extension) are left out. The check is
// about presence, not place: the order check says where.
type Analogy struct {
	Name    string
	Renames []Rename // the first is the declaration's own name
	// Loose are the siblings to take, nearest first, when Renames is
	// empty: declarations of the same shape whose names are split into
	// words otherwise than the new one's (see alikeIn). The first whose
	// lines in o hold it in forms alike the new name's, and that has
	// lines, is the sibling.
	Loose  [][]Rename
	Others []Name
	// Kin are the other declarations of the sibling's kind: a line that
	// mentions one of them too (a list of fields on one line) is not the
	// sibling's own. The sibling, when among them, is left out.
	Kin         []Name
	Files       []string
	KeepNumbers bool
	// Skip, when set, leaves the lines of o it matches out: they are no
	// sibling's (a serialized descriptor written as string literals).
	Skip *regexp.Regexp
	// Reflow finds a line of the sibling's, renamed, that a formatter
	// wrapped in o′ (the longer new name took it past the line width):
	// a run of up to eight lines of o′ holds it, white space aside.
	Reflow bool
	// Shape is the new declaration's shape, by which the sibling was
	// chosen (for display: mcpt spots --shapes).
	Shape string
	// Common takes only the sibling's lines that another declaration of
	// its kind (Kin) has too, renamed: lines the generator writes for
	// each declaration, not for the sibling's place in its list (the one
	// field of a chunk of has-bits, a oneof's first case).
	Common bool
}

// Check runs the analogy check.
func (c *Analogy) Check(o, o2 tree.Tree) []Failure { return c.Decide(o, o2).Fails }

// Decide runs the analogy check.
func (c *Analogy) Decide(o, o2 tree.Tree) Verdict {
	if len(c.Renames) == 0 || c.Renames[0].From.Empty() {
		for _, r := range c.Loose {
			d := *c
			d.Renames, d.Loose = r, nil
			if v, ok := d.decide(o, o2, true); ok {
				return v
			}
		}
		why := "no sibling of the same shape"
		if len(c.Loose) > 0 {
			why = "no sibling of the same shape with lines in o that hold it in forms alike the new name's"
		}
		return Verdict{Undecided: []string{why}}
	}
	v, _ := c.decide(o, o2, false)
	return v
}

// decide runs the check with the sibling of Renames. With loose, a
// sibling whose lines hold it in forms not alike the new name's, or that
// has none, is no sibling (false).
func (c *Analogy) decide(o, o2 tree.Tree, loose bool) (Verdict, bool) {
	name := c.Name
	if name == "" {
		name = "analogy"
	}
	var v Verdict
	scs := make([]*scanner, len(c.Renames))
	for i, r := range c.Renames {
		scs[i] = newScanner(r.From, c.Others)
	}
	// List punctuation at the ends differs between the last element and
	// the others: it is left out of the comparison.
	mask := func(s string) string { return s }
	if !c.KeepNumbers {
		mask = maskSigned
	}
	var kin []scanner
	for _, k := range c.Kin {
		if !sameName(k, c.Renames[0].From) { // a loose sibling is among them
			kin = append(kin, scanner{n: k, others: c.Others, uniq: distinct(k)})
		}
	}
	type fileLines struct {
		f     string
		in    string // the file of o′ the lines must be in
		want  []*pattern
		count map[string]int
		at    map[string][]int // the sibling's lines in o, by pattern key
	}
	var files []fileLines
	held := map[string]bool{} // the sibling's forms on those lines
	everywhere := c.formsInAny(o2)
	for _, f := range o.Names() {
		if len(c.Files) > 0 && !InFiles(c.Files, f) || !mentionsBytes(o[f], []Name{c.Renames[0].From}) {
			continue
		}
		text := view(o[f])
		starts := lineStarts(text)
		// A form of the sibling counts in this file only when o′ has the
		// new name in that form here: the lower case of an enumerator
		// FAILED in "submit failed: unknown result" is not about it. A
		// file of o′ that has the new name in no form at all (a generator
		// that forgot the declaration there) is still checked, with the
		// forms o′ has elsewhere. Every file is checked on the lines that
		// are the sibling's beyond doubt (see ambiguous).
		in := c.fileOf(f, o, o2)
		seenForm := c.formsIn(o2[in])
		if !slices.Contains(seenForm, true) {
			seenForm = everywhere
		}
		want, count, at := c.siblingLines(f, text, starts, scs, kin, seenForm, c.doubt(seenForm), mask, held)
		if len(want) > 0 {
			files = append(files, fileLines{f, in, want, count, at})
		}
	}
	if loose && (len(files) == 0 || !alikeIn(c.Renames[0], held)) {
		return v, false
	}
	for _, fl := range files {
		have := countMatches(fl.want, view(o2[fl.in]), mask)
		if c.Reflow {
			wrappedMatches(fl.want, fl.count, have, view(o2[fl.in]), mask)
		}
		var missing []string
		for k, p := range fl.want {
			if fl.count[p.key] > have[k] && c.shared(p.src, view(o2[fl.in]), mask) {
				continue
			}
			for range fl.count[p.key] - have[k] {
				missing = append(missing, p.String())
			}
		}
		if len(missing) > 0 {
			v.Fails = append(v.Fails, Failure{
				Checker: name, File: fl.in,
				Message:  fmt.Sprintf("%s in o′ lacks %d lines that %s has and %s must have too: %s", fl.in, len(missing), c.Renames[0].From, c.Renames[0].To, strings.TrimSpace(missing[0])),
				Expected: strings.Join(missing, "\n"),
				Actual:   c.linesOf(string(o2[fl.in])),
				Compared: c.compared(fl.in, view(o[fl.f]), view(o2[fl.in]), fl.want, fl.at, mask),
			})
		}
	}
	if len(files) == 0 {
		v.Undecided = append(v.Undecided, fmt.Sprintf("the sibling %s has no line in o", c.Renames[0].From))
	}
	return v, true
}

// wrappedMatches adds to have the lines of want that text holds wrapped:
// for each pattern still short of its count, the runs of two to eight
// lines that match it once white space is taken out of both, each run
// counted for one pattern at most.
func wrappedMatches(want []*pattern, count map[string]int, have []int, text string, mask func(string) string) {
	var short []int
	for k, p := range want {
		if have[k] < count[p.key] {
			short = append(short, k)
		}
	}
	if len(short) == 0 {
		return
	}
	lines, _ := SplitLines(text)
	squeeze := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, s)
	}
	bare := make([]*pattern, len(want))
	for _, k := range short {
		p := want[k]
		q := &pattern{key: p.key}
		for _, l := range p.lits {
			q.lits = append(q.lits, squeeze(l))
		}
		for _, as := range p.alts {
			var qa []string
			for _, a := range as {
				qa = append(qa, squeeze(a))
			}
			q.alts = append(q.alts, qa)
		}
		bare[k] = q
	}
	for i := range lines {
		joined := squeeze(mask(lines[i]))
		for j := i + 1; j < len(lines) && j < i+8; j++ {
			joined += squeeze(mask(lines[j]))
			m := strings.TrimRight(joined, punctuation)
			hit := false
			for _, k := range short {
				if have[k] < count[want[k].key] && bare[k].match(m) {
					have[k]++
					hit = true
					break
				}
			}
			if hit {
				break
			}
		}
	}
}

// alikeIn reports whether the sibling's name and the new one are split
// into words alike in the forms held, the texts in which the sibling's
// lines hold it: two of those forms are the same letters (case aside) for
// one name exactly when they are for the other. A generator may write a
// form only where it differs from another (protoc-gen-go's json=unyrToijl
// beside name=unyr_toijl, and nothing for the one-word zqnew), which a
// line that holds both shows; ORDER_STATE_OPEN, written as it is and
// nowhere in camel case, is a sibling of ZQNEW.
func alikeIn(r Rename, held map[string]bool) bool {
	var in []int // the forms held
	for k, f := range r.From.Forms {
		for h := range held {
			if strings.EqualFold(f, h) {
				in = append(in, k)
				break
			}
		}
	}
	for a, i := range in {
		for _, j := range in[a+1:] {
			if max(i, j) >= len(r.To.Forms) || strings.EqualFold(r.From.Forms[i], r.From.Forms[j]) != strings.EqualFold(r.To.Forms[i], r.To.Forms[j]) {
				return false
			}
		}
	}
	return true
}

// siblingLines returns the lines of file f of o (text) that are the
// sibling's own, renamed into patterns of the new declaration's, each
// once, and how many times each occurs (by pattern key). A line whose
// every mention of the sibling is ambiguous is left out. The texts of the
// sibling's occurrences on the lines returned are added to held.
func (c *Analogy) siblingLines(f, text string, starts []int, scs []*scanner, kin []scanner, seenForm, doubt []bool, mask func(string) string, held map[string]bool) ([]*pattern, map[string]int, map[string][]int) {
	var want []*pattern
	count := map[string]int{}
	at := map[string][]int{}
	var lines map[string]bool // the lines of the file, masked, once needed
	has := func(l string) bool {
		if lines == nil {
			lines = map[string]bool{}
			for k := range starts {
				lines[trimEnd(mask(lineAt(text, starts, k)))] = true
			}
		}
		return lines[trimEnd(mask(l))]
	}
	var words map[string]bool // the identifiers of the file, once needed
	hasWord := func(w string) bool {
		if words == nil {
			words = map[string]bool{}
			for _, x := range strings.FieldsFunc(text, func(r rune) bool { return r >= 0x80 || !isWordByte(byte(r)) }) {
				words[x] = true
			}
		}
		return words[w]
	}
	for _, i := range scs[0].lines(text, starts) {
		line := lineAt(text, starts, i)
		occ := c.ownWords(line, scs[0].find(line), has, hasWord)
		if len(occ) == 0 || commentLine(f, line) || c.Skip != nil && c.Skip.MatchString(line) || mentionsAny(line, kin) || !slices.ContainsFunc(occ, func(s span) bool { return c.seen(line[s.beg:s.end], seenForm) }) {
			continue
		}
		if slices.ContainsFunc(occ, func(s span) bool { return c.doubted(line[s.beg:s.end], doubt) }) {
			continue
		}
		if c.ambiguous(line, occ, has) || c.unrecognised(line, scs) || c.Common && !c.kinHas(line, occ, has) {
			continue
		}
		for _, s := range occ {
			held[line[s.beg:s.end]] = true
		}
		p := c.rename(line, scs, mask)
		if count[p.key] == 0 {
			want = append(want, p)
		}
		count[p.key]++
		at[p.key] = append(at[p.key], i)
	}
	return want, count, at
}

// compared is the evidence of a failure on file f: each line of the
// sibling in o (text) facing the new member's line in o′ (text2) that
// matches it renamed, or the line looked for; then the new member's lines
// of o′ that no line of the sibling accounts for.
func (c *Analogy) compared(f, text, text2 string, want []*pattern, at map[string][]int, mask func(string) string) *result.Compared {
	from, to := c.Renames[0].From, c.Renames[0].To
	numbers := " (its numbers, written #, and the punctuation that ends it aside)"
	if c.KeepNumbers {
		numbers = " (the punctuation that ends it aside)"
	}
	list := ""
	if len(c.Renames) > 1 {
		var rs []string
		for _, r := range c.Renames[1:] {
			rs = append(rs, r.From.String()+" → "+r.To.String())
		}
		list = " (and " + strings.Join(rs, ", ") + ")"
	}
	cmp := &result.Compared{Kind: result.CmpAnalogy, Expects: fmt.Sprintf(
		"The sibling %s is a declaration of the same shape as %s: every line of %s in o that is the sibling's, with %s in its place%s, form for form%s, is in %s of o′ as many times as o has the sibling's line.",
		from, to, f, to, list, numbers, f)}
	starts := lineStarts(text)
	lines2, _ := SplitLines(text2)
	masked := make([]string, len(lines2))
	for j, l := range lines2 {
		masked[j] = trimEnd(mask(l))
	}
	used := make([]bool, len(lines2))
	for _, p := range want {
		var matches []int
		for j, m := range masked {
			if p.match(m) {
				matches = append(matches, j)
			}
		}
		for k, i := range at[p.key] {
			l := result.CmpLine{O: result.Ref(i+1, lineAt(text, starts, i))}
			if k < len(matches) {
				j := matches[k]
				used[j] = true
				l.O2, l.Role = result.Ref(j+1, lines2[j]), result.RoleFound
				l.Why = "the sibling's line, renamed"
			} else {
				l.Want, l.Role = p.display(), result.RoleMissing
				l.Why = fmt.Sprintf("the sibling's line, renamed: o′ has it %s", times(len(matches), len(at[p.key])))
			}
			cmp.Add(l)
		}
	}
	for j, l := range lines2 {
		if !used[j] && mentions(l, []Name{to}) && !commentLine(f, l) {
			cmp.Add(result.CmpLine{O2: result.Ref(j+1, l), Role: result.RoleExtra,
				Why: fmt.Sprintf("names %s, and no line of the sibling accounts for it (no failure by itself)", to)})
		}
	}
	return cmp
}

// times says how many times o′ has a line of which o has n.
func times(have, n int) string {
	switch {
	case have == 0:
		return "nowhere"
	case have == 1:
		return fmt.Sprintf("once, o has the sibling's %d times", n)
	}
	return fmt.Sprintf("%d times, o has the sibling's %d times", have, n)
}

// countMatches counts, for each pattern, the lines of text that it
// matches. A line matches only if it holds one of the first names of a
// pattern: when those hold no '#' (what masking writes for a number), the
// raw line holds it too, and only the lines that do are masked and
// compared.
func countMatches(want []*pattern, text string, mask func(string) string) []int {
	var need []string
	filter := true
	for _, p := range want {
		if len(p.alts) == 0 {
			filter = false
			break
		}
		for _, a := range p.alts[0] {
			filter = filter && a != "" && !strings.Contains(a, "#")
			if !slices.Contains(need, a) {
				need = append(need, a)
			}
		}
	}
	have := make([]int, len(want))
	count := func(line string) {
		m := trimEnd(mask(line))
		for k, p := range want {
			if p.match(m) {
				have[k]++
			}
		}
	}
	if !filter {
		lines, _ := SplitLines(text)
		for _, line := range lines {
			count(line)
		}
		return have
	}
	var at []int // the starts of the lines that hold one
	for _, f := range need {
		for i := range occurrences(text, f) {
			at = append(at, strings.LastIndexByte(text[:i], '\n')+1)
		}
	}
	slices.Sort(at)
	for _, beg := range slices.Compact(at) {
		end := strings.IndexByte(text[beg:], '\n')
		if end < 0 {
			end = len(text) - beg
		}
		count(text[beg : beg+end])
	}
	return have
}

// pattern is a line of the sibling with its names replaced by the new
// declaration's: literal text between names, and at each name the forms
// of the new one that correspond to the sibling's form found there (more
// than one when forms of the sibling coincide: jiy is its own snake case,
// and the new name's written form or snake case may stand there).
type pattern struct {
	lits []string
	alts [][]string
	key  string // the same for equal patterns
	src  string // the sibling's line it was made from
}

// String shows the pattern with the first alternative at each name.
func (p *pattern) String() string {
	var b strings.Builder
	for i, l := range p.lits {
		b.WriteString(l)
		if i < len(p.alts) {
			b.WriteString(p.alts[i][0])
		}
	}
	return b.String()
}

// display shows the pattern with every alternative at each name, as
// {a|b} where there are more than one.
func (p *pattern) display() string {
	var b strings.Builder
	for i, l := range p.lits {
		b.WriteString(l)
		if i < len(p.alts) {
			if len(p.alts[i]) == 1 {
				b.WriteString(p.alts[i][0])
			} else {
				b.WriteString("{" + strings.Join(p.alts[i], "|") + "}")
			}
		}
	}
	return b.String()
}

func (p *pattern) match(line string) bool { return p.matchAt(line, 0) }

func (p *pattern) matchAt(s string, i int) bool {
	if !strings.HasPrefix(s, p.lits[i]) {
		return false
	}
	s = s[len(p.lits[i]):]
	if i == len(p.alts) {
		return s == ""
	}
	for _, a := range p.alts[i] {
		if strings.HasPrefix(s, a) && p.matchAt(s[len(a):], i+1) {
			return true
		}
	}
	return false
}

// rename replaces, in a line of the sibling, each of the sibling's names
// by the new declaration's, form for form.
func (c *Analogy) rename(line string, scs []*scanner, mask func(string) string) *pattern {
	// (a line that ends in a comment, as the lines it is compared with;
	// another keeps its end, which the comparison allows for)
	if strings.HasSuffix(strings.TrimRight(line, punctuation), "*/") {
		line = trimEnd(line)
	}
	type occ struct {
		span
		r int
	}
	var all []occ
	var taken []span
	for i, sc := range scs {
		for _, s := range sc.find(line) {
			if !inside(taken, s.beg, s.end) {
				taken = append(taken, s)
				all = append(all, occ{s, i})
			}
		}
	}
	slices.SortFunc(all, func(a, b occ) int { return a.beg - b.beg })
	p := &pattern{src: line}
	at := 0
	for _, o := range all {
		p.lits = append(p.lits, mask(line[at:o.beg]))
		r := c.Renames[o.r]
		text := line[o.beg:o.end]
		var alt []string
		for k, f := range r.From.Forms {
			if f == text && k < len(r.To.Forms) && !slices.Contains(alt, r.To.Forms[k]) {
				alt = append(alt, mask(r.To.Forms[k]))
			}
		}
		p.alts = append(p.alts, alt)
		at = o.end
	}
	p.lits = append(p.lits, strings.TrimRight(mask(line[at:]), punctuation))
	var k strings.Builder
	for i, l := range p.lits {
		k.WriteString(l)
		if i < len(p.alts) {
			k.WriteByte(0)
			k.WriteString(strings.Join(p.alts[i], "\x01"))
			k.WriteByte(0)
		}
	}
	p.key = k.String()
	return p
}

// trimEnd is a line without the punctuation that ends it, which differs
// between the last element of a list and the others, and without that
// before a comment that ends it: protoc-c's `  4,        /* ExecService */`
// and the last entry `  2         /* Scan */`, both `  4 /* ExecService */`.
func trimEnd(s string) string {
	s = strings.TrimRight(s, punctuation)
	if k := strings.LastIndex(s, "/*"); k > 0 && strings.HasSuffix(s, "*/") {
		if head := strings.TrimRight(s[:k], punctuation); strings.TrimSpace(head) != "" {
			return head + " " + s[k:]
		}
	}
	return s
}

// linesOf returns the lines of text that mention the new declaration's
// name.
func (c *Analogy) linesOf(text string) string {
	lines, _ := SplitLines(text)
	var out []string
	for _, l := range lines {
		if mentions(l, []Name{c.Renames[0].To}) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// ambiguous reports whether each occurrence of the sibling in line holds
// the name of another declaration too: ELEVATOR_FLOOR_COUNT is the
// attribute FloorCount's and the count of the enumeration Floor, and
// protoc-gen-go's getter GetLastFlushedSequenceId of the field
// last_flushed_sequence_id is no line of the rpc GetLastFlushedSequenceId.
// Such a line says nothing: o′ keeps it whoever's it is (the sibling and
// the other declaration are both still there), and its counterpart for
// the new declaration is due only if it was the sibling's, which o cannot
// tell. Unless it is a line of the sibling's kind (see kindLine): has
// reports whether the file of o has a line.
func (c *Analogy) ambiguous(line string, occ []span, has func(string) bool) bool {
	inner := make([][]span, len(occ)) // the other names inside each occurrence
	within := true
	for k, s := range occ {
		clear := true
		for _, o := range c.Others {
			if sameName(o, c.Renames[0].From) {
				continue // the sibling itself is one of the declared names
			}
			for _, t := range o.find(line, nil) {
				if t.beg < s.end && s.beg < t.end {
					clear = false
					within = within && s.beg <= t.beg && t.end <= s.end
					inner[k] = append(inner[k], t)
				}
			}
		}
		if clear {
			return false
		}
	}
	return !within || !c.kindLine(line, occ, inner, has)
}

// ownWords keeps the occurrences of the sibling in line that are its own:
// a whole identifier, or a part of a longer one (RED in P_STATE_RED, Red
// in raiseRed, speed in v_speed) when the line with another declaration
// of the sibling's kind (Kin) in its place is in o too (has), or, the rest
// of the line being another (a variable of another type), that identifier
// with the other declaration in its place is in o's file (hasWord): the
// generator writes such an identifier for each of them. ERROR in the
// generator's own INTERNAL_ERROR is no occurrence of an enumerator ERROR:
// no INTERNAL_OK is written anywhere. (Whether o′ has the identifier made with the new name
// does not count: a generator that forgets it is what the check finds.)
// Without kin, every occurrence is kept.
func (c *Analogy) ownWords(line string, occ []span, has, hasWord func(string) bool) []span {
	var kin []Name
	for _, k := range c.Kin {
		if !sameName(k, c.Renames[0].From) {
			kin = append(kin, k)
		}
	}
	if len(kin) == 0 {
		return occ
	}
	var out []span
	for _, s := range occ {
		pre, suf, whole := affixes(line, s)
		if whole {
			out = append(out, s)
			continue
		}
		for _, k := range kin {
			if s.form >= len(k.Forms) || k.Forms[s.form] == "" {
				continue
			}
			// The whole line with kin in its place, or, where the rest of
			// the line differs between kin (a variable's type), the
			// identifier alone anywhere in the file.
			if has(line[:s.beg]+k.Forms[s.form]+line[s.end:]) || hasWord(pre+k.Forms[s.form]+suf) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// isWordByte tells whether b is a byte of an identifier.
func isWordByte(b byte) bool { return isAlnum(b) || b == '_' }

// affixes are what the identifier holding the occurrence s of a name in
// line has before and after it, and whether it is the whole identifier.
func affixes(line string, s span) (pre, suf string, whole bool) {
	i, j := s.beg, s.end
	for i > 0 && isWordByte(line[i-1]) {
		i--
	}
	for j < len(line) && isWordByte(line[j]) {
		j++
	}
	return line[i:s.beg], line[s.end:j], i == s.beg && j == s.end
}

// kindLine reports whether the other names inside the sibling's
// occurrences in line (inner, by occurrence) are part of the sibling's own
// name: another declaration of its kind (Kin) holds each of them at the
// same place of its name, counted from the start or from the end, and the
// line with the sibling replaced by it is in o too (has). Then the line is
// one the generator writes for each declaration of the kind, and the new
// one is due its own: protoc-c's tables of an enum's values, named after
// their enum (ORDER_STATE_OPEN and ORDER_STATE_PAID in OrderState).
// Neither condition alone is enough: the count E_FLOOR_COUNT of the
// enumeration Floor is no line of the attribute FloorCount, though its
// kin FloorHeight starts with Floor too, and the getter GetUserId of the
// field user_id is no line of the rpc GetUserId, though the rpc
// GetOrderId has a getter too (of the field order_id).
func (c *Analogy) kindLine(line string, occ []span, inner [][]span, has func(string) bool) bool {
kin:
	for _, k := range c.Kin {
		if sameName(k, c.Renames[0].From) {
			continue
		}
		var b strings.Builder
		at := 0
		for i, s := range occ {
			if s.form >= len(k.Forms) || k.Forms[s.form] == "" {
				continue kin
			}
			kf := k.Forms[s.form]
			for _, t := range inner[i] {
				part := line[t.beg:t.end]
				fromEnd := len(kf) - (s.end - t.end)
				if !strings.HasPrefix(kf[min(t.beg-s.beg, len(kf)):], part) && !(fromEnd >= len(part) && kf[fromEnd-len(part):fromEnd] == part) {
					continue kin
				}
			}
			b.WriteString(line[at:s.beg])
			b.WriteString(kf)
			at = s.end
		}
		b.WriteString(line[at:])
		if has(b.String()) {
			return true
		}
	}
	return false
}

func mentionsAny(line string, scs []scanner) bool {
	for i := range scs {
		if len(scs[i].find(line)) > 0 {
			return true
		}
	}
	return false
}

// formsIn reports, by form, whether text holds the new name in that form.
func (c *Analogy) formsIn(text []byte) []bool {
	to := c.Renames[0].To.Forms
	seen := make([]bool, len(c.Renames[0].From.Forms))
	for k := range seen {
		seen[k] = k < len(to) && to[k] != "" && (k > 0 && to[k] == to[k-1] && seen[k-1] || bytes.Contains(text, []byte(to[k])))
	}
	return seen
}

// formsInAny is formsIn over every file of o′, or every form when o′
// has the new name nowhere.
func (c *Analogy) formsInAny(o2 tree.Tree) []bool {
	seen := make([]bool, len(c.Renames[0].From.Forms))
	for _, b := range o2 {
		for k, x := range c.formsIn(b) {
			seen[k] = seen[k] || x
		}
	}
	if !slices.Contains(seen, true) {
		for k := range seen {
			seen[k] = true
		}
	}
	return seen
}

// doubt returns, by form, whether the new name's form is one that
// generators spell in more than one way and o′ does not hold it as
// predicted (seen). Such are the forms that drop the underscores of a
// name where a digit follows one: protoc-gen-go writes a_2b as A_2B,
// where Pascal case gives A2b and a JSON name a2b.
func (c *Analogy) doubt(seen []bool) []bool {
	to := c.Renames[0].To.Forms
	out := make([]bool, len(seen))
	if len(to) == 0 || !underscoreDigit(to[0]) {
		return out
	}
	for k := range out {
		out[k] = k < len(to) && !seen[k] && !strings.ContainsAny(to[k], "_-")
	}
	return out
}

// underscoreDigit reports whether s has an underscore followed by a digit.
func underscoreDigit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '_' && isDigit(s[i+1]) {
			return true
		}
	}
	return false
}

// doubted reports whether an occurrence of the sibling stands only for
// forms in doubt (see doubt): the new name's line there cannot be
// predicted, and the sibling's line is left out.
func (c *Analogy) doubted(text string, doubt []bool) bool {
	in := false
	for k, f := range c.Renames[0].From.Forms {
		if f == text {
			if k >= len(doubt) || !doubt[k] {
				return false
			}
			in = true
		}
	}
	return in
}

// seen reports whether an occurrence of the sibling, in whichever of its
// forms it is (jiy is its written form and its snake case), stands for a
// form the new name has in the file.
func (c *Analogy) seen(text string, seenForm []bool) bool {
	for k, f := range c.Renames[0].From.Forms {
		if f == text && seenForm[k] {
			return true
		}
	}
	return false
}

// shared reports whether the sibling's line src of o stands in o′ (text)
// as a line that names the new declaration beside the sibling: a list on
// one line that held the sibling alone and holds both now (an initialiser
// list, a method's parameters), whose new line is no line of the new
// declaration's own. The words of src, numbers masked, must be in order
// among the line's.
func (c *Analogy) shared(src, text string, mask func(string) string) bool {
	from, to := newScanner(c.Renames[0].From, c.Others), newScanner(c.Renames[0].To, nil)
	want := tokens(mask(src))
	starts := lineStarts(text)
	for _, i := range to.lines(text, starts) {
		line := lineAt(text, starts, i)
		if len(from.find(line)) == 0 {
			continue
		}
		if subsequence(want, tokens(mask(line))) {
			return true
		}
	}
	return false
}

// unrecognised reports whether line holds a name of the sibling, in one
// of its forms but case aside, where an identifier's word starts and no
// occurrence the check recognises covers it: Records in addRecords (the
// field RECORDS, in a case no form writes), IDMCOLLECTION in
// CreateIDMCOLLECTIONDirect (an upper-case name followed by a capital).
// The renamed line would keep it, so the line is no prediction.
func (c *Analogy) unrecognised(line string, scs []*scanner) bool {
	// the line folded (lower case, underscores left out), and where each
	// of its bytes is in the line: FIELD__INT32 holds field_Int32
	var fb []byte
	var at []int
	for k := 0; k < len(line); k++ {
		if line[k] != '_' {
			fb = append(fb, lowerByte(line[k]))
			at = append(at, k)
		}
	}
	low := string(fb)
	for i, r := range c.Renames {
		occ := scs[i].find(line)
		// (inside another declared name, it is that name's)
		for _, o := range scs[i].shadows {
			occ = append(occ, o.find(line, nil)...)
		}
		for _, fi := range distinct(r.From) {
			f := strings.ToLower(strings.ReplaceAll(r.From.Forms[fi], "_", ""))
			if len(f) < 2 {
				continue
			}
			for i := range occurrences(low, f) {
				b, e := at[i], at[i+len(f)-1]+1
				if !wordStartAt(line, b) || inside(occ, b, e) {
					continue
				}
				return true
			}
		}
	}
	return false
}

// wordStartAt reports whether a word of an identifier starts at line[b]:
// after a character that is no letter or digit, or at a capital after a
// small letter or a digit.
func wordStartAt(line string, b int) bool {
	if b == 0 || !isAlnum(line[b-1]) {
		return true
	}
	return isUpper(line[b]) && (isLower(line[b-1]) || isDigit(line[b-1]))
}

// fileOf is the file of o′ in which the lines of file f of o that mention
// the sibling must be: f, or, for a file of the sibling's own (named
// after it: a Java class per struct, Weatherwax.cpp of the service
// Weatherwax), the file o′ has that o lacks, named after the new
// declaration alike.
func (c *Analogy) fileOf(f string, o, o2 tree.Tree) string {
	r := c.Renames[0]
	occ := r.From.find(f, nil)
	if len(occ) == 0 {
		return f
	}
	var b strings.Builder
	at := 0
	for _, s := range occ {
		if s.form >= len(r.To.Forms) {
			return f
		}
		b.WriteString(f[at:s.beg])
		b.WriteString(r.To.Forms[s.form])
		at = s.end
	}
	b.WriteString(f[at:])
	in := b.String()
	if _, ok := o2[in]; !ok || in == f {
		return f
	}
	if _, ok := o[in]; ok {
		return f
	}
	return in
}

func lowerByte(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// kinHas reports whether o has line with the sibling's occurrences occ
// written as another declaration of its kind, form for form.
func (c *Analogy) kinHas(line string, occ []span, has func(string) bool) bool {
	for _, k := range c.Kin {
		var b strings.Builder
		at, ok := 0, true
		for _, s := range occ {
			if s.form >= len(k.Forms) || k.Forms[s.form] == "" {
				ok = false
				break
			}
			b.WriteString(line[at:s.beg])
			b.WriteString(k.Forms[s.form])
			at = s.end
		}
		if !ok {
			continue
		}
		b.WriteString(line[at:])
		if has(b.String()) {
			return true
		}
	}
	return false
}
