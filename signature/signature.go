// Package signature is how mcpt deduplicates findings: the signature of a
// finding, a key that the same fault met at other spots, with other fresh
// names or in other seeds shares, and the groups of findings by it that
// reports show. Package result holds the data; this package the algorithm.
package signature

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/result"
)

// Of returns the deduplication key of a finding: the relation, the
// checker and file for an oracle finding (the kind for the others), and a
// short hash of the normalised shape of the evidence. The shape keeps only
// the lines that differ between the predicted and the actual content, with
// the names the mutation drew replaced by placeholders, then every other
// name and number by a generic token, so that the same fault met at
// different spots, with different fresh names or in different seeds, gives
// one signature, and different faults give different ones.
//
// The forms are
//
//	relation/checker[/file]/hash   oracle findings (file when the checker name lacks it)
//	relation/crash/hash            exit status or signal, and the first line of stderr
//	relation/rejected-followup/hash  exit status and the shape of the diagnostic
//	relation/timeout
func Of(f *result.Finding) string { return With(result.Style{}, f) }

// With is Of with the names of the program known in the forms of s, and
// the generic words of s kept as they are.
func With(s result.Style, f *result.Finding) string {
	rel := orDash(f.Relation)
	n := newNormaliser(f, s)
	switch f.Kind {
	case result.Timeout:
		return rel + "/timeout"
	case result.Crash, result.RejectedFollowUp:
		said := n.text(firstLine(f.Stderr))
		if f.Kind == result.RejectedFollowUp && f.Diagnostic != "" {
			said = "diagnostic " + n.diagnostic(f.Diagnostic)
		}
		shape := fmt.Sprintf("%s\nexit=%d signal=%s\n%s", f.Kind, f.ExitCode, f.Signal, said)
		return rel + "/" + string(f.Kind) + "/" + hash12(shape)
	}
	key := f.FileKey
	if key == "" {
		key = f.File
	}
	checker := f.Checker
	if f.File != "" && key != f.File {
		checker = strings.ReplaceAll(checker, f.File, key)
	}
	parts := []string{rel, orDash(checker)}
	if key != "" && !strings.Contains(checker, key) {
		parts = append(parts, key)
	}
	parts = append(parts, hash12(string(f.Kind)+"\n"+n.shape(f)))
	return strings.Join(parts, "/")
}

// FileKey returns file with the part that all the output files of the run
// share at its start replaced by "*": a transpiler that names its outputs
// after the program (cllc writes traffic_light_types.h, traffic_light.c, …)
// then gets the same key, "*_types.h", for every seed. names are the paths
// of the output tree; with fewer than two, only the extension is kept. When
// the names share no start (outputs in several directories, as thrift
// writes cpp/chat_types.cpp and py/chat/ttypes.py), the stem of the seed
// file is replaced where it stands in file as a word: cpp/*_types.cpp.
func FileKey(file string, names []string, seed string) string {
	if file == "" {
		return ""
	}
	key := prefixKey(file, names)
	if key != file {
		return key
	}
	return stemKey(file, seed)
}

// stemKey replaces the words of file that are the stem of the seed file
// (its base name without the extension) by "*".
func stemKey(file, seed string) string {
	stem := seed[strings.LastIndexAny(seed, `/\`)+1:]
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	if stem == "" {
		return file
	}
	var b strings.Builder
	for i := 0; i < len(file); {
		if strings.HasPrefix(file[i:], stem) && (i == 0 || !isAlnum(file[i-1])) &&
			(i+len(stem) == len(file) || !isAlnum(file[i+len(stem)])) {
			b.WriteByte('*')
			i += len(stem)
			continue
		}
		b.WriteByte(file[i])
		i++
	}
	return b.String()
}

// prefixKey replaces the start that file shares with names (see FileKey).
func prefixKey(file string, names []string) string {
	if len(names) < 2 {
		if i := strings.LastIndexByte(file, '.'); i > 0 && !strings.Contains(file[i:], "/") {
			return "*" + file[i:]
		}
		return "*"
	}
	p := file
	for _, n := range names {
		k := 0
		for k < len(p) && k < len(n) && p[k] == n[k] {
			k++
		}
		p = p[:k]
	}
	// Back off to a word boundary in every name, then drop separators the
	// prefix ends with, so that "pump_" and "traffic_li" do not count.
	for len(p) > 0 {
		ok := isAlnum(p[len(p)-1])
		for _, n := range append(names, file) {
			if !ok {
				break
			}
			ok = boundary(n, len(p))
		}
		if ok {
			break
		}
		p = p[:len(p)-1]
	}
	if p == "" {
		return file
	}
	return "*" + file[len(p):]
}

// normaliser turns the lines of a finding into their shape.
type normaliser struct {
	pats      []pattern // bound names and their forms, longest first
	file      string
	key       string
	labels    []string
	fresh     []string              // the placeholders of fresh names and of their forms
	forms     []func(string) string // the forms of names in the output
	formNames []string

	generic map[string]bool
}

type pattern struct {
	text  string
	label int
	fresh bool
}

func newNormaliser(f *result.Finding, st result.Style) *normaliser {
	n := &normaliser{file: f.File, key: f.FileKey}
	n.setStyle(st)
	keys := make([]string, 0, len(f.Bindings))
	for k := range f.Bindings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	seen := map[string]bool{}
	add := func(text, label string, fresh bool) {
		// A number is no name: a binding such as a line or an index equals
		// some number of the output by chance, and numbers are # anyway.
		if text == "" || seen[text] || isNumber(text) {
			return
		}
		seen[text] = true
		n.pats = append(n.pats, pattern{text, len(n.labels), fresh})
		n.labels = append(n.labels, "«"+label+"»")
		if fresh {
			n.fresh = append(n.fresh, "«"+label+"»")
		}
	}
	// addForms adds a name with its forms in the output.
	addForms := func(v, k string, fresh bool) {
		for i, form := range n.forms {
			label := k
			if name := n.formNames[i]; name != "written" {
				label = k + "." + name
			}
			add(form(v), label, fresh)
		}
	}
	// A binding made from a fresh name (a let such as t = "t_" + snake T)
	// is fresh too.
	var forms []string
	for _, k := range f.Fresh {
		for _, v := range strings.Split(f.Bindings[k], ", ") {
			if v != "" {
				for _, form := range n.forms {
					forms = append(forms, form(v))
				}
			}
		}
	}
	for _, k := range keys {
		v := f.Bindings[k]
		fresh := slices.ContainsFunc(forms, func(form string) bool { return strings.Contains(v, form) })
		if fresh && strings.Contains(v, ", ") {
			// A list of fresh names: each name stands for the list.
			for _, item := range strings.Split(v, ", ") {
				addForms(item, k, true)
			}
		}
		addForms(v, k, fresh)
	}
	slices.SortStableFunc(n.pats, func(a, b pattern) int { return len(b.text) - len(a.text) })
	return n
}

// A bound name stands in a line as one rune of the private use area, which
// no pattern below matches, until the line is tokenised.
const firstMark = 0xE000

// bind replaces the bound names of s that stand on word boundaries by
// sentinels.
func (n *normaliser) bind(s string) string { return n.bindLonger(s, 0) }

// bindLonger is bind with only the fresh names and the bound names longer
// than min bytes: in prose, a short name (a seed called a.prog) is a word.
func (n *normaliser) bindLonger(s string, min int) string {
	if len(n.pats) == 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		matched := false
		// A name starts at a word boundary: the patterns are tried there
		// only, not at every byte of the line.
		if boundary(s, i) {
			for _, p := range n.pats {
				if len(p.text) <= min && !p.fresh {
					continue
				}
				end := i + len(p.text)
				if strings.HasPrefix(s[i:], p.text) && boundary(s, end) {
					b.WriteRune(rune(firstMark + p.label))
					i = end
					matched = true
					break
				}
			}
		}
		if !matched {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// code is the shape of one line of output: bound names become placeholders,
// other identifiers ID unless they are keywords or fixed names, numbers #,
// and runs of white space one space.
func (n *normaliser) code(line string) string {
	s := n.bind(strings.Join(strings.Fields(line), " "))
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(n.label(r))
			i += size
		case isDigit(c):
			for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.') {
				i++
			}
			b.WriteByte('#')
		case isLetter(c) || c == '_':
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
				j++
			}
			id := s[i:j]
			switch {
			case strings.Trim(id, "_") == "":
				// An underscore joining a bound name to another is part
				// of the generated name, not a token of its own.
				prev, _ := utf8.DecodeLastRuneInString(s[:i])
				next, _ := utf8.DecodeRuneInString(s[j:])
				if !n.isMark(prev) && !n.isMark(next) {
					b.WriteString(id)
				}
			case keywords[id] || n.generic[id]:
				b.WriteString(id)
			default:
				b.WriteString("ID")
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

var (
	pathRE = regexp.MustCompile(`[^\s:'"]*/[^\s:'"]*`)
	hexRE  = regexp.MustCompile(`0[xX][0-9a-fA-F]+`)
	numRE  = regexp.MustCompile(`[0-9]+`)

	placeholderRE = regexp.MustCompile(`«[^»]*»`)
	idRunRE       = regexp.MustCompile(`(?:ID)+`)
	// A word that looks generated: it has an underscore, a digit, or an
	// upper-case letter after its first character.
	genRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9]*(?:[_0-9A-Z][A-Za-z0-9_]*)\b`)
)

// text is the shape of a message or a line of stderr: prose stays, bound
// names, paths, numbers and generated-looking words are replaced.
func (n *normaliser) text(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if n.file != "" && n.key != "" {
		s = strings.ReplaceAll(s, n.file, n.key)
	}
	s = n.bind(s)
	s = pathRE.ReplaceAllString(s, "PATH")
	s = hexRE.ReplaceAllString(s, "#")
	s = genRE.ReplaceAllStringFunc(s, func(w string) string {
		if w == "PATH" || keywords[w] || n.generic[w] {
			return w
		}
		return "ID"
	})
	return n.labelled(numRE.ReplaceAllString(s, "#"))
}

// labelled writes each rune of s as its label.
func (n *normaliser) labelled(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(n.label(r))
	}
	return b.String()
}

var (
	// Text a compiler quotes, most often names of the program.
	quotedRE = regexp.MustCompile("'[^']*'|\"[^\"]*\"|`[^`]*`|‘[^’]*’|“[^”]*”")
	// An error code, which says which error it is: TS1005, E0308, C2065.
	codeRE = regexp.MustCompile(`^[A-Z]{1,5}[0-9]+$`)
	// A number standing alone: lines, columns, counts.
	loneNumRE = regexp.MustCompile(`\b[0-9]+\b`)
)

// diagnostic is the shape of a transpiler's diagnostic (its scratch paths
// written as placeholders already): what it says, not where or of which
// names. The names the mutation drew (fresh ones, and others of three
// bytes or more), quoted text (a compiler quotes the
// program's names, or the token it found), generated-looking words and
// numbers are replaced; error codes stay, so that the same error at other
// spots and in other seeds has one shape, and two errors two.
func (n *normaliser) diagnostic(s string) string {
	s = n.bindLonger(strings.Join(strings.Fields(s), " "), 2)
	s = quotedRE.ReplaceAllString(s, "'…'")
	s = genRE.ReplaceAllStringFunc(s, func(w string) string {
		if keywords[w] || n.generic[w] || codeRE.MatchString(w) {
			return w
		}
		return "ID"
	})
	return n.labelled(loneNumRE.ReplaceAllString(s, "#"))
}

func (n *normaliser) isMark(r rune) bool {
	k := int(r - firstMark)
	return k >= 0 && k < len(n.labels)
}

// label returns the placeholder a marker rune stands for, or the rune.
func (n *normaliser) label(r rune) string {
	if k := int(r - firstMark); k >= 0 && k < len(n.labels) {
		return n.labels[k]
	}
	return string(r)
}

// Differs says in one line how finding f departs from what its check
// expected, as its signature sees it (names the mutation drew as «key»
// placeholders, other names as ID, numbers as #): the kind of reordering,
// or the first unexpected and missing lines; for a rejected follow-up, its
// diagnostic; for a crash, the first line of its standard error. Two groups of the same
// relation, checker and file key differ in it, unless their difference is
// in what the line leaves out.
func Differs(f *result.Finding) string {
	n := newNormaliser(f, result.Style{})
	if f.Kind == result.RejectedFollowUp && f.Diagnostic != "" {
		return "diagnostic " + quoteShort(n.diagnostic(f.Diagnostic))
	}
	if f.Kind == result.Crash || f.Kind == result.RejectedFollowUp {
		if l := firstLine(f.Stderr); l != "" {
			return "stderr " + quoteShort(n.text(l))
		}
		return ""
	}
	if f.Kind != result.Oracle {
		return ""
	}
	var parts []string
	sets := map[string][]string{}
	head := ""
	for l := range strings.SplitSeq(strings.TrimSuffix(n.shape(f), "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "message: "):
			if m := strings.TrimPrefix(l, "message: "); m != "" {
				return "message " + quoteShort(m)
			}
			return ""
		case strings.HasPrefix(l, "\t"):
			sets[head] = append(sets[head], strings.TrimSpace(l))
		default:
			head = strings.TrimSuffix(l, ":")
			if head != "missing" && head != "unexpected" {
				parts = append(parts, head)
			}
		}
	}
	first := func(k string) string {
		if len(sets[k]) == 0 {
			return ""
		}
		return quoteShort(sets[k][0])
	}
	switch miss, unexp := first("missing"), first("unexpected"); {
	case len(parts) > 0:
		if l := first(parts[0]); l != "" {
			parts[0] += " " + l
		}
	case miss != "" && miss == unexp:
		parts = append(parts, "changed "+miss)
	default:
		if unexp != "" {
			parts = append(parts, "unexpected "+unexp)
		}
		if miss != "" {
			parts = append(parts, "missing "+miss)
		}
	}
	return strings.Join(parts, ", ")
}

// quoteShort quotes a line of evidence, cut to 60 bytes at a rune
// boundary.
func quoteShort(s string) string {
	if len(s) > 60 {
		k := 60
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s = s[:k] + "…"
	}
	return "`" + s + "`"
}

// shape describes how the actual content departs from the prediction: the
// distinct normalised lines that are missing and those that are unexpected
// (as multisets, so that the alignment a diff happens to choose does not
// matter), or, when the same lines are only in another order, the distinct
// normalised lines that moved.
func (n *normaliser) shape(f *result.Finding) string {
	exp, act, ok := sides(f)
	if !ok {
		return "message: " + n.text(f.Message) + "\n"
	}
	count := map[string]int{}
	for _, l := range exp {
		count[l]++
	}
	for _, l := range act {
		count[l]--
	}
	var missing, unexpected []string
	for l, c := range count {
		if c > 0 {
			missing = append(missing, n.code(l))
		} else if c < 0 {
			unexpected = append(unexpected, n.code(l))
		}
	}
	var b strings.Builder
	if len(missing)+len(unexpected) == 0 {
		kind, moved := n.order(exp, act)
		writeSet(&b, kind, moved)
		return b.String()
	}
	writeSet(&b, "missing", missing)
	writeSet(&b, "unexpected", unexpected)
	return b.String()
}

// order describes a change of order between two sequences of the same
// lines. When the lines that moved are whole blocks in reverse order, the
// fresh name is not told apart, so that it makes no difference whether its
// line happened to stay in place (the middle of a block). A swap of
// adjacent lines is kept apart from a reversal, and any other move keeps
// the placeholders, since a fresh line put in the wrong place is its own
// fault.
//
// When the finding says which bindings are fresh names, a swap is told
// apart by what it swaps: two lines of the new item are a reversal of two
// (the new item's own lines in reverse order, as with three or more), and
// a line of the new item with an old one is the new item put one place off.
func (n *normaliser) order(exp, act []string) (string, []string) {
	kind := "moved"
	if segs, ok := reversals(exp, act); ok {
		kind = "swapped"
		if slices.ContainsFunc(segs, func(l int) bool { return l > 2 }) {
			kind = "reversed"
		} else if n.fresh != nil {
			kind = n.swap(exp, act)
		}
	}
	var moved []string
	for i := range min(len(exp), len(act)) {
		if exp[i] != act[i] {
			l := n.code(exp[i])
			if kind == "reversed" {
				l = idRunRE.ReplaceAllString(placeholderRE.ReplaceAllString(l, "ID"), "ID")
			}
			moved = append(moved, l)
		}
	}
	if kind == "moved" {
		// When the new item is among the lines that moved, it is the one put
		// in the wrong place; the others only made way for it, and which
		// ones did depends on the spot, not on the fault.
		var fresh []string
		for _, l := range moved {
			if n.newItem(l) {
				fresh = append(fresh, n.valuesOut(l))
			}
		}
		if len(fresh) > 0 {
			return "order moved, new item misplaced", fresh
		}
	}
	return "order " + kind, moved
}

// swap classifies a difference made of swaps of adjacent lines (see order).
func (n *normaliser) swap(exp, act []string) string {
	all, some := true, false
	for i := range min(len(exp), len(act)) {
		if exp[i] != act[i] {
			isNew := n.newItem(n.code(exp[i]))
			all = all && isNew
			some = some || isNew
		}
	}
	switch {
	case all:
		return "reversed"
	case some:
		return "moved"
	}
	return "swapped"
}

// newItem reports whether a normalised line belongs to the inserted
// declaration: it holds a fresh name, when the finding says which bindings
// are fresh, or else any bound name. The second is a guess: a binding such
// as a line number or the program's prefix also shows in lines that only
// made way for the new item.
func (n *normaliser) newItem(line string) bool {
	if n.fresh == nil {
		return placeholderRE.MatchString(line)
	}
	for _, p := range n.fresh {
		if strings.Contains(line, p) {
			return true
		}
	}
	return false
}

// valuesOut replaces, in a line of the new item, the placeholders of the
// bindings that are not fresh names and the numbers by one token: where the
// item went is the fault, not the value it holds, which the relation draws
// and which may equal some other binding by chance. Without fresh names
// the line stays as it is.
func (n *normaliser) valuesOut(line string) string {
	if n.fresh == nil {
		return line
	}
	line = placeholderRE.ReplaceAllStringFunc(strings.ReplaceAll(line, "#", "VALUE"), func(p string) string {
		if slices.Contains(n.fresh, p) {
			return p
		}
		return "VALUE"
	})
	return strings.ReplaceAll(line, "-VALUE", "VALUE") // a negative literal is a value too
}

// reversals splits the differences between exp and act into blocks that
// act holds in reverse order, and returns their lengths; ok is false when
// the difference is not made of such blocks.
func reversals(exp, act []string) (segs []int, ok bool) {
	for i := 0; i < len(exp) && i < len(act); {
		if exp[i] == act[i] {
			i++
			continue
		}
		found := false
		for j := i + 1; j < len(exp) && j < len(act); j++ {
			if act[i] == exp[j] && reversal(exp[i:j+1], act[i:j+1]) {
				segs = append(segs, j-i+1)
				i = j + 1
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return segs, true
}

func reversal(a, b []string) bool {
	for k := range a {
		if a[k] != b[len(b)-1-k] {
			return false
		}
	}
	return true
}

// sides returns the predicted and the actual lines of a finding: the whole
// contents when the finding carries the prediction, else the removed and
// added lines of its diff.
func sides(f *result.Finding) (exp, act []string, ok bool) {
	switch {
	case f.Expected != "":
		return splitLines(f.Expected), splitLines(f.Actual), true
	case f.Diff != "":
		inHunk := false
		for _, l := range splitLines(f.Diff) {
			switch {
			case strings.HasPrefix(l, "@@"):
				inHunk = true
			case !inHunk:
			case strings.HasPrefix(l, "-"):
				exp = append(exp, l[1:])
			case strings.HasPrefix(l, "+"):
				act = append(act, l[1:])
			}
		}
		return exp, act, true
	}
	return nil, nil, false
}

func writeSet(b *strings.Builder, name string, lines []string) {
	slices.Sort(lines)
	lines = slices.Compact(lines)
	b.WriteString(name + ":\n")
	for _, l := range lines {
		b.WriteString("\t" + l + "\n")
	}
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

func hash12(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:6])
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// boundary reports whether position k of s is the edge of a word: an end,
// an underscore or other non-alphanumeric neighbour, or a lower-case letter
// or digit followed by an upper-case letter.
func boundary(s string, k int) bool {
	if k <= 0 || k >= len(s) {
		return true
	}
	a, b := s[k-1], s[k]
	return !isAlnum(a) || !isAlnum(b) || ((isLower(a) || isDigit(a)) && isUpper(b))
}

// isNumber reports whether s is an integer or a decimal, with an optional
// sign.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits := 0
	for i := 0; i < len(s); i++ {
		switch {
		case isDigit(s[i]):
			digits++
		case s[i] != '.':
			return false
		}
	}
	return digits > 0 && strings.Count(s, ".") <= 1
}

func isUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }

// keywords are the words of generated code that do not come from the
// program: keywords and fixed names of C and of other common targets. A
// target's own fixed names are its Style's Generic words.
var keywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed
		sizeof static struct switch typedef union unsigned void volatile while
		_Bool _Complex _Imaginary
		include define undef ifdef ifndef endif elif pragma defined
		bool true false NULL stdbool stdint stddef stdio stdlib string h
		int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t
		class public private protected final new this null super extends implements
		import package interface abstract throws throw try catch finally
		def self None True False lambda pass yield async await from as in is not and or
		func var let function nil type map range go chan select fallthrough
		panic runtime error goroutine signal exit status`) {
		keywords[w] = true
	}
}

// setStyle makes the name forms and generic words of st the normaliser's.
func (n *normaliser) setStyle(st result.Style) {
	names := st.Forms
	if len(names) == 0 {
		names = namecase.DefaultForms
	}
	for _, name := range names {
		if form, ok := namecase.Form(name); ok {
			n.forms = append(n.forms, form)
			n.formNames = append(n.formNames, name)
		}
	}
	n.generic = make(map[string]bool, len(st.Generic))
	for _, w := range st.Generic {
		n.generic[w] = true
	}
}
