package oracle

import (
	"bytes"
	"iter"
	"path"
	"regexp"
	"slices"
	"strings"
	"unsafe"
)

// Name is a declared name in the forms a code generator may write it (as
// written, snake case, upper case, camel case, …). The derived checkers of
// one test case give every name the same forms in the same order, so that
// the i-th form of one name corresponds to the i-th form of another: the
// snake case of a sibling maps to the snake case of the new declaration.
type Name struct {
	Forms []string
	canon string // see canon; set by NewName
	// uniq are the indices of the distinct non-empty forms, each the
	// first of its value; set by NewName (see distinct).
	uniq []int
	// shadows are the names that shadow it, when WithShadows found them.
	shadows  []Name
	shadowed bool
}

// WithShadows returns n with the names of others that shadow it (RedLight
// for Red, see shadowsOf) found now: a checker given n and the same others
// does not search them again. Relations give every test case of an input
// the same declared names and keep their neighbours and siblings so.
func WithShadows(n Name, others []Name) Name {
	n.shadows, n.shadowed = shadowsOf(n, others), true
	return n
}

// NewName is a name with the given forms (the first as written).
func NewName(forms []string) Name {
	n := Name{Forms: forms}
	n.canon = canon(n)
	n.uniq = distinct(n)
	return n
}

// distinct returns the indices of the distinct non-empty forms of n, the
// first of each value: a form that repeats an earlier one (a written name
// that is its own snake case) finds nothing more.
func distinct(n Name) []int {
	if n.uniq != nil {
		return n.uniq
	}
	out := make([]int, 0, len(n.Forms))
	for i, f := range n.Forms {
		if f != "" && !slices.Contains(n.Forms[:i], f) {
			out = append(out, i)
		}
	}
	return out
}

// Empty reports whether the name has no form (an absent neighbour).
func (n Name) Empty() bool {
	for _, f := range n.Forms {
		if f != "" {
			return false
		}
	}
	return true
}

func (n Name) String() string {
	if len(n.Forms) == 0 {
		return ""
	}
	return n.Forms[0]
}

// span is a byte range of a line.
type span struct{ beg, end, form int }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isLower(c) || isUpper(c) }

// atBoundary reports whether form f occurs in s at [i, j) as a whole word
// of an identifier: not continued by a letter or digit on either side, or
// continued across a change of case (Red in raiseRed, Red in RedLight; but
// not post in postRead: a form in lower case alone is a whole word).
// An underscore is a boundary: red in e_red, RED in P_STATE_RED.
func atBoundary(s string, i, j int, f string) bool {
	if i > 0 && isAlnum(s[i-1]) && !(isUpper(f[0]) && (isLower(s[i-1]) || isDigit(s[i-1]))) {
		return false
	}
	if j < len(s) && isAlnum(s[j]) && !(isUpper(s[j]) && !isUpper(f[len(f)-1]) && strings.ContainsFunc(f, func(r rune) bool { return r >= 'A' && r <= 'Z' })) {
		return false
	}
	return true
}

// find returns the occurrences of the forms of n in line at identifier
// boundaries that lie outside the spans of shadow, leftmost first, the
// longest form at a position. A form is only sought where the line holds
// it at all.
func (n Name) find(line string, shadow []span) []span {
	var out []span
	for _, fi := range distinct(n) {
		f := n.Forms[fi]
		for i := range occurrences(line, f) {
			j := i + len(f)
			if !atBoundary(line, i, j, f) || inside(shadow, i, j) {
				continue
			}
			out = addSpan(out, span{i, j, fi})
		}
	}
	return out
}

// addSpan adds s to the spans, keeping them sorted and without overlaps:
// of two overlapping occurrences the longer one stays.
func addSpan(ss []span, s span) []span {
	for k, t := range ss {
		if s.beg < t.end && t.beg < s.end {
			if s.end-s.beg > t.end-t.beg {
				ss[k] = s
			}
			return ss
		}
	}
	ss = append(ss, s)
	for k := len(ss) - 1; k > 0 && ss[k].beg < ss[k-1].beg; k-- {
		ss[k], ss[k-1] = ss[k-1], ss[k]
	}
	return ss
}

func inside(ss []span, i, j int) bool {
	for _, s := range ss {
		if i < s.end && s.beg < j {
			return true
		}
	}
	return false
}

// mentions reports, without regard to boundaries, whether text holds a
// form of one of the names: fresh names are unique enough for that.
func mentions(text string, names []Name) bool {
	for _, n := range names {
		for _, i := range distinct(n) {
			if strings.Contains(text, n.Forms[i]) {
				return true
			}
		}
	}
	return false
}

// mentionsBytes is mentions for a file's content.
func mentionsBytes(text []byte, names []Name) bool {
	for _, n := range names {
		for _, i := range distinct(n) {
			if bytes.Contains(text, []byte(n.Forms[i])) {
				return true
			}
		}
	}
	return false
}

// shadowsOf returns the names of others that a form of n occurs in without
// being the whole name (RedLight for Red): an occurrence of n inside one
// of them is not n.
func shadowsOf(n Name, others []Name) []Name {
	if canon(n) != "" && len(others) >= shadowIndexMin {
		// (the others whose canon holds n's, from an index of them all:
		// each name of a seed of thousands of declarations looked at
		// every other, which made a seed's first test cases quadratic)
		return shadowsAmong(n, others, shadowIndexOf(others).holding(canon(n)))
	}
	return shadowsAmong(n, others, nil)
}

// shadowsAmong is shadowsOf among the others at the indices given, in
// order, or among them all for nil.
func shadowsAmong(n Name, others []Name, at []int) []Name {
	var out []Name
	cn := canon(n)
	check := func(o Name) {
		if sameName(o, n) || !strings.Contains(canon(o), cn) {
			return
		}
		for _, of := range o.Forms {
			for _, f := range n.Forms {
				if f != "" && len(of) > len(f) && strings.Contains(of, f) {
					out = append(out, o)
					return
				}
			}
		}
	}
	if at != nil {
		for _, i := range at {
			check(others[i])
		}
		return out
	}
	for _, o := range others {
		check(o)
	}
	return out
}

// canon is a name in lower case without separators: every form of a name
// is a case and separator variant of it, so a name whose canon does not
// hold another's has no form that holds one of the other's.
func canon(n Name) string {
	if n.canon != "" || len(n.Forms) == 0 {
		return n.canon
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, n.Forms[0])
}

func sameName(a, b Name) bool {
	return len(a.Forms) > 0 && len(b.Forms) > 0 && a.Forms[0] == b.Forms[0]
}

// scanner finds one name in lines, with the occurrences of the names that
// shadow it masked.
type scanner struct {
	n       Name
	others  []Name
	shadows []Name // the names of others that shadow n, once needed
	found   bool
	uniq    []int // the distinct forms, for searching
}

func newScanner(n Name, others []Name) *scanner {
	return &scanner{n: n, others: others, uniq: distinct(n)}
}

// find returns the occurrences of the scanner's name in line.
func (sc *scanner) find(line string) []span {
	if sc.n.Empty() || !sc.maybe(line) {
		return nil
	}
	if !sc.found {
		sc.shadows, sc.found = sc.n.shadows, true
		if !sc.n.shadowed {
			sc.shadows = shadowsOf(sc.n, sc.others)
		}
	}
	var shadow []span
	for _, o := range sc.shadows {
		shadow = append(shadow, o.find(line, nil)...)
	}
	return sc.n.find(line, shadow)
}

// maybe is a quick test: does the line hold any form at all?
func (sc *scanner) maybe(line string) bool {
	for _, i := range sc.uniq {
		if strings.Contains(line, sc.n.Forms[i]) {
			return true
		}
	}
	return false
}

// lines returns the indices of the lines of text (starts: their offsets)
// that hold a form of the scanner's name, in order: one search of the
// whole text per form instead of one per line.
func (sc *scanner) lines(text string, starts []int) []int {
	var out []int
	for _, fi := range sc.uniq {
		for at := range occurrences(text, sc.n.Forms[fi]) {
			i, _ := slices.BinarySearch(starts, at+1)
			out = append(out, i-1)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// occurrences yields the offset of each occurrence of sub in s, from the
// left, overlapping ones included ("aa" is twice in "aaa").
func occurrences(s, sub string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for off := 0; off <= len(s); {
			k := strings.Index(s[off:], sub)
			if k < 0 || !yield(off+k) {
				return
			}
			off += k + 1
		}
	}
}

// view is the content of an output file as a string, without a copy: a
// checker reads the trees it is given and nobody changes them meanwhile.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// lineStarts returns the offset of each line of text.
func lineStarts(text string) []int {
	starts := make([]int, 1, strings.Count(text, "\n")+1)
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 || off+i+1 == len(text) {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

// lineAt returns line i of text.
func lineAt(text string, starts []int, i int) string {
	end := len(text)
	if i+1 < len(starts) {
		end = starts[i+1] - 1
	}
	return strings.TrimSuffix(text[starts[i]:end], "\n")
}

// maskNumbers replaces every run of digits by '#'.
func maskNumbers(s string) string { return maskNumbersAs(s, "#", "#") }

// maskNumbersAs is maskNumbers with num for a decimal number and hex for
// a hexadecimal one.
func maskNumbersAs(s, num, hex string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			b.WriteByte(s[i])
			continue
		}
		if s[i] == '0' && i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && isHex(s[i+2]) && (i == 0 || !isAlnum(s[i-1])) {
			// a hexadecimal literal is one number (0x0f, 0x1f)
			b.WriteString(hex)
			for i += 2; i+1 < len(s) && isHex(s[i+1]); i++ {
			}
			continue
		}
		b.WriteString(num)
		for i+1 < len(s) && isDigit(s[i+1]) {
			i++
		}
	}
	return b.String()
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// maskSigned is maskNumbers that masks a number's minus sign with it (a
// negative value against a positive one: `= -1` and `= 2` are both `= #`);
// a '-' after a word, ')' or ']' is a subtraction and stays. A constant
// expression of numbers alone in parentheses is a number too: C writes the
// smallest int as `(-2147483647 - 1)`.
func maskSigned(s string) string {
	if !strings.Contains(s, "-") {
		return collapseConst(maskNumbers(s))
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i+1 < len(s) && isDigit(s[i+1]) && !afterOperand(s[:i]) {
			continue
		}
		b.WriteByte(s[i])
	}
	return collapseConst(maskNumbers(b.String()))
}

// afterOperand reports whether s ends, but for spaces, with an operand: a
// word, ')' or ']' (then a '-' is a subtraction). A keyword that an
// expression follows is no operand: the minus of `return -1` or
// `case -1:` is a sign.
func afterOperand(s string) bool {
	s = strings.TrimRight(s, " \t")
	if s == "" {
		return false
	}
	c := s[len(s)-1]
	if c == ')' || c == ']' || c == '#' {
		return true
	}
	if !isAlnum(c) && c != '_' {
		return false
	}
	i := len(s)
	for i > 0 && (isAlnum(s[i-1]) || s[i-1] == '_') {
		i--
	}
	// a member named like a keyword (x.return) is an operand
	return i > 0 && s[i-1] == '.' || !exprKeywords[s[i:]]
}

// exprKeywords are the keywords, of the languages the packs read, after
// which an expression starts.
var exprKeywords = map[string]bool{
	"return": true, "case": true, "throw": true, "yield": true, "await": true,
	"typeof": true, "void": true, "delete": true, "in": true, "of": true,
	"instanceof": true, "else": true, "do": true, "not": true, "and": true, "or": true,
}

var constExprRE = regexp.MustCompile(`\(\s*#(?:\s*[-+*/]\s*#)+\s*\)`)

func collapseConst(s string) string {
	if !strings.Contains(s, "(#") && !strings.Contains(s, "( #") {
		return s
	}
	return constExprRE.ReplaceAllString(s, "#")
}

// InFiles reports whether file f is one of files, each a name or a
// pattern of path.Match (`*.c`, `gen/*_types.h`).
func InFiles(files []string, f string) bool {
	for _, p := range files {
		if p == f {
			return true
		}
		if ok, _ := path.Match(p, f); ok {
			return true
		}
	}
	return false
}

// commentStarts are the line comment and block comment continuations of
// output languages, by file extension: a line that starts with one is a
// comment, whose words are no declaration's (a header comment that says
// "Order" is not the interface Order).
var commentStarts = map[string][]string{}

func init() {
	cLike := []string{"//", "/*", "* ", "*/"}
	for _, e := range []string{"c", "h", "cc", "cpp", "cxx", "hh", "hpp", "hxx", "ts", "tsx", "mts", "cts", "js", "mjs", "cjs", "jsx", "go", "java", "cs", "rs", "swift", "kt", "kts", "dart", "scala", "php", "proto", "thrift", "fbs"} {
		commentStarts[e] = cLike
	}
	for _, e := range []string{"py", "pyi", "rb", "sh", "yaml", "yml", "toml", "pl", "r", "cmake"} {
		commentStarts[e] = []string{"#"}
	}
	for _, e := range []string{"lua", "sql", "hs", "ada", "adb", "ads"} {
		commentStarts[e] = []string{"--"}
	}
}

// commentLine reports whether a line of file is a comment, as the file's
// extension says comments start; a file of another language has none.
func commentLine(file, line string) bool {
	ext := path.Ext(file)
	if ext == "" {
		return false
	}
	starts := commentStarts[strings.ToLower(ext[1:])]
	t := strings.TrimLeft(line, " \t")
	for _, c := range starts {
		if strings.HasPrefix(t, c) || c == "* " && t == "*" {
			return true
		}
	}
	return false
}
