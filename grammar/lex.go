package grammar

import (
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"sort"
	"strconv"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tVar       // $name
	tAction    // @name
	tDirective // %name
	tString
	tClass
	tInt
	tPunct
	tBad // a lexical error, already reported
)

type token struct {
	kind tokKind
	pos  Pos
	text string // identifier or directive name, the string's value, punctuation, the digits
	set  []byte // a class's bytes
	// negated is true for a class written [^…].
	negated bool
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return "name " + t.text
	case tVar:
		return "variable $" + t.text
	case tAction:
		return "@" + t.text
	case tDirective:
		return "%" + t.text
	case tString:
		return "literal " + strconv.Quote(t.text)
	case tClass:
		return "character class"
	case tInt:
		return "number " + t.text
	case tPunct:
		return strconv.Quote(t.text)
	}
	return "bad token"
}

// lexer splits a grammar file into tokens: a synchronous scanner called by
// the parser for one token at a time.
type lexer struct {
	file      string
	src       []byte
	off       int
	line, col int
	errs      *ErrorList
}

func (l *lexer) pos() Pos { return Pos{File: l.file, Line: l.line, Col: l.col} }

func (l *lexer) peekByte() int {
	if l.off >= len(l.src) {
		return -1
	}
	return int(l.src[l.off])
}

func (l *lexer) nextByte() int {
	if l.off >= len(l.src) {
		return -1
	}
	c := l.src[l.off]
	l.off++
	if c == '\n' {
		l.line++
		l.col = 1
	} else if c&0xc0 != 0x80 { // a UTF-8 continuation byte is no new column
		l.col++
	}
	return int(c)
}

func (l *lexer) errorf(p Pos, format string, args ...any) {
	l.errs.Add(yamlpos.Errorf(p, format, args...))
}

func isLetter(c int) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c int) bool  { return '0' <= c && c <= '9' }

func (l *lexer) name() string {
	start := l.off
	for isLetter(l.peekByte()) || isDigit(l.peekByte()) {
		l.nextByte()
	}
	return string(l.src[start:l.off])
}

// next returns the next token, skipping white space and # comments.
func (l *lexer) next() token {
	for {
		c := l.peekByte()
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.nextByte()
			continue
		case c == '#':
			for l.peekByte() != '\n' && l.peekByte() != -1 {
				l.nextByte()
			}
			continue
		}
		break
	}
	p := l.pos()
	c := l.peekByte()
	switch {
	case c == -1:
		return token{kind: tEOF, pos: p}
	case isLetter(c):
		return token{kind: tIdent, pos: p, text: l.name()}
	case isDigit(c):
		start := l.off
		for isDigit(l.peekByte()) {
			l.nextByte()
		}
		return token{kind: tInt, pos: p, text: string(l.src[start:l.off])}
	case c == '$' || c == '@' || c == '%':
		l.nextByte()
		if !isLetter(l.peekByte()) {
			l.errorf(p, "%q must be followed by a name", rune(c))
			return token{kind: tBad, pos: p}
		}
		k := map[int]tokKind{'$': tVar, '@': tAction, '%': tDirective}[c]
		return token{kind: k, pos: p, text: l.name()}
	case c == '"':
		return l.str(p)
	case c == '[':
		return l.class(p)
	case c < 128 && stringsContains("=|;()<>,?{}:.", byte(c)):
		l.nextByte()
		return token{kind: tPunct, pos: p, text: string(rune(c))}
	}
	l.nextByte()
	if c >= 128 {
		l.errorf(p, "non-ASCII byte 0x%02x outside a literal", c)
	} else {
		l.errorf(p, "unexpected character %q", rune(c))
	}
	return token{kind: tBad, pos: p}
}

func stringsContains(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// escape reads the byte after a backslash; ok is false for an unknown
// escape, which has been reported.
func (l *lexer) escape(extra string) (byte, bool) {
	p := l.pos()
	c := l.peekByte()
	switch c {
	case 'n':
		l.nextByte()
		return '\n', true
	case 't':
		l.nextByte()
		return '\t', true
	case 'r':
		l.nextByte()
		return '\r', true
	case '\\':
		l.nextByte()
		return '\\', true
	case -1, '\n':
		return 0, false // the caller reports the unterminated token
	}
	if c < 128 && stringsContains(extra, byte(c)) {
		l.nextByte()
		return byte(c), true
	}
	l.nextByte()
	l.errorf(Pos{File: p.File, Line: p.Line, Col: p.Col - 1}, "unknown escape \\%c", rune(c))
	return 0, false
}

// str reads a string literal: "..." on one line, escapes \n \t \r \\ \".
func (l *lexer) str(p Pos) token {
	l.nextByte()
	var b []byte
	bad := false
	for {
		c := l.peekByte()
		switch c {
		case -1, '\n':
			l.errorf(p, "unterminated literal")
			return token{kind: tBad, pos: p}
		case '"':
			l.nextByte()
			if bad {
				return token{kind: tBad, pos: p}
			}
			return token{kind: tString, pos: p, text: string(b)}
		case '\\':
			l.nextByte()
			e, ok := l.escape(`"`)
			if !ok {
				if c := l.peekByte(); c == -1 || c == '\n' {
					l.errorf(p, "unterminated literal")
					return token{kind: tBad, pos: p}
				}
				bad = true
			}
			b = append(b, e)
		default:
			l.nextByte()
			b = append(b, byte(c))
		}
	}
}

// class reads a character class: [...] with ranges a-z, a leading ^ for the
// complement within printable ASCII, and escapes \] \\ \- \^ \n \t \r.
func (l *lexer) class(p Pos) token {
	l.nextByte()
	negate := false
	if l.peekByte() == '^' {
		l.nextByte()
		negate = true
	}
	in, empty, bad := l.classMembers()
	if l.peekByte() != ']' {
		l.errorf(p, "unterminated character class")
		return token{kind: tBad, pos: p}
	}
	l.nextByte()
	if bad {
		return token{kind: tBad, pos: p}
	}
	if empty {
		l.errorf(p, "empty character class")
		return token{kind: tBad, pos: p}
	}
	set := classSet(&in, negate)
	if len(set) == 0 {
		l.errorf(p, "character class matches nothing")
		return token{kind: tBad, pos: p}
	}
	sort.Slice(set, func(i, j int) bool { return set[i] < set[j] })
	return token{kind: tClass, pos: p, set: set, negated: negate}
}

// classMembers reads the members and ranges of a character class up to
// its end, and says which bytes they hold, whether there was none and
// whether one was bad (reported).
func (l *lexer) classMembers() (in [128]bool, empty, bad bool) {
	empty = true
	for {
		lo, q, ok, badItem := l.classItem()
		bad = bad || badItem
		if !ok {
			break
		}
		hi := lo
		if l.peekByte() == '-' && l.off+1 < len(l.src) && l.src[l.off+1] != ']' {
			l.nextByte()
			h, _, ok2, badItem := l.classItem()
			bad = bad || badItem
			if !ok2 {
				break
			}
			hi = h
			if hi < lo {
				l.errorf(q, "bad range %c-%c in character class", rune(lo), rune(hi))
				bad = true
				continue
			}
		}
		for c := lo; c <= hi; c++ {
			in[c] = true
		}
		empty = false
	}
	return in, empty, bad
}

// classItem reads one member of a character class at q; ok is false when
// the class ends, bad true when the member is bad (reported).
func (l *lexer) classItem() (c int, q Pos, ok, bad bool) {
	q = l.pos()
	c = l.peekByte()
	switch c {
	case -1, '\n':
		return 0, q, false, false
	case ']':
		return 0, q, false, false
	case '\\':
		l.nextByte()
		e, good := l.escape(`]-^[`)
		if !good {
			if c := l.peekByte(); c == -1 || c == '\n' {
				return 0, q, false, false
			}
			bad = true
		}
		return int(e), q, true, bad
	}
	l.nextByte()
	if c >= 128 {
		l.errorf(q, "non-ASCII byte 0x%02x in a character class", c)
		return 0, q, true, true
	}
	return c, q, true, false
}

// classSet lists the bytes in holds, or with negate the printable ASCII
// bytes it does not hold.
func classSet(in *[128]bool, negate bool) []byte {
	var set []byte
	for c := 0; c < 128; c++ {
		member := in[c]
		if negate {
			member = !member && c >= ' ' && c <= '~'
		}
		if member {
			set = append(set, byte(c))
		}
	}
	return set
}
