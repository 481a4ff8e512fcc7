// Package scanner splits a CLL source into tokens with their positions, and
// reports the lexical errors of docs/cll.md (Lexical rules): invalid escapes, unterminated
// strings, over-long identifiers and characters that start no token.
package scanner

import (
	"fmt"
	"unicode/utf8"

	"github.com/mcpt-tool/mcpt/cll/token"
)

// Token is one lexical token.
type Token struct {
	Kind token.Kind
	Pos  token.Pos
	// Text is the token's source text: for a string literal the quotes and
	// the escapes are included (an unterminated string has no closing quote).
	Text string
}

// ErrorHandler receives each lexical error as it is found.
type ErrorHandler func(pos token.Pos, msg string)

// eof is the rune next returns at the end of the source.
const eof = -1

// Scanner produces the tokens of one source, in order, through Scan.
type Scanner struct {
	file string
	src  []byte
	errh ErrorHandler

	// The reading position: the next rune starts at off, on line:col.
	off, line, col int
	// The position before the last next, for backup.
	prevOff, prevLine, prevCol int

	start token.Pos // where the token being scanned starts

	// ErrorCount is the number of errors reported so far.
	ErrorCount int
}

// New returns a scanner of src, whose positions name filename. Lexical
// errors go to errh, which may be nil.
func New(filename string, src []byte, errh ErrorHandler) *Scanner {
	return &Scanner{file: filename, src: src, errh: errh, line: 1, col: 1}
}

func (s *Scanner) pos() token.Pos {
	return token.Pos{File: s.file, Offset: s.off, Line: s.line, Col: s.col}
}

func (s *Scanner) errorf(pos token.Pos, format string, args ...any) {
	s.ErrorCount++
	if s.errh != nil {
		s.errh(pos, fmt.Sprintf(format, args...))
	}
}

// next consumes and returns the next rune, eof at the end of the source.
// An invalid UTF-8 byte comes back as utf8.RuneError.
func (s *Scanner) next() rune {
	s.prevOff, s.prevLine, s.prevCol = s.off, s.line, s.col
	if s.off >= len(s.src) {
		return eof
	}
	r, w := rune(s.src[s.off]), 1
	if r >= utf8.RuneSelf {
		r, w = utf8.DecodeRune(s.src[s.off:])
	}
	s.off += w
	if r == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return r
}

// backup steps back over the rune next returned; only once per next.
func (s *Scanner) backup() {
	s.off, s.line, s.col = s.prevOff, s.prevLine, s.prevCol
}

// peek returns the next rune without consuming it.
func (s *Scanner) peek() rune {
	r := s.next()
	s.backup()
	return r
}

// accept consumes the next rune if it satisfies ok.
func (s *Scanner) accept(ok func(rune) bool) bool {
	if ok(s.next()) {
		return true
	}
	s.backup()
	return false
}

// acceptRun consumes runes while they satisfy ok.
func (s *Scanner) acceptRun(ok func(rune) bool) {
	for s.accept(ok) {
	}
}

// invalidUTF8 reports whether the rune just read at pos is an encoding
// error rather than a real U+FFFD.
func (s *Scanner) invalidUTF8(r rune, at int) bool {
	if r != utf8.RuneError {
		return false
	}
	_, w := utf8.DecodeRune(s.src[at:])
	return w == 1
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }
func isDigit(r rune) bool  { return '0' <= r && r <= '9' }
func isIdentRune(r rune) bool {
	return isLetter(r) || isDigit(r) || r == '_'
}

// skipSpace skips whitespace and comments.
func (s *Scanner) skipSpace() {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == ' ' || c == '\t' || c == '\r':
			s.off++ // what next does, without the bookkeeping for backup
			s.col++
		case c == '\n':
			s.off++
			s.line++
			s.col = 1
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			s.skipComment()
		default:
			return
		}
	}
}

// skipComment skips a comment up to the end of its line; comments may hold
// any UTF-8 text.
func (s *Scanner) skipComment() {
	for {
		at := s.off
		p := s.pos()
		r := s.next()
		switch {
		case r == eof:
			return
		case r == '\n':
			s.backup()
			return
		case s.invalidUTF8(r, at):
			s.errorf(p, "invalid UTF-8 encoding")
		}
	}
}

// Scan returns the next token; at the end of the source it returns EOF,
// again and again.
func (s *Scanner) Scan() Token {
	s.skipSpace()
	s.start = s.pos()
	at := s.off
	r := s.next()
	switch {
	case r == eof:
		return s.emit(token.EOF)
	case isLetter(r):
		return s.scanIdent()
	case isDigit(r):
		return s.scanNumber()
	case r == '"':
		return s.scanString()
	}
	switch r {
	case ',':
		return s.emit(token.COMMA)
	case ':':
		return s.emit(token.COLON)
	case '{':
		return s.emit(token.LBRACE)
	case '}':
		return s.emit(token.RBRACE)
	case '(':
		return s.emit(token.LPAREN)
	case ')':
		return s.emit(token.RPAREN)
	case '=':
		return s.emit(token.EQ)
	case '+':
		return s.emit(token.ADD)
	case '-':
		return s.emit(token.SUB)
	case '*':
		return s.emit(token.MUL)
	case '/':
		return s.emit(token.QUO)
	case '<':
		switch s.peek() {
		case '=':
			s.next()
			return s.emit(token.LEQ)
		case '>':
			s.next()
			return s.emit(token.NEQ)
		}
		return s.emit(token.LSS)
	case '>':
		if s.peek() == '=' {
			s.next()
			return s.emit(token.GEQ)
		}
		return s.emit(token.GTR)
	}
	switch {
	case s.invalidUTF8(r, at):
		s.errorf(s.start, "invalid UTF-8 encoding")
	case r >= utf8.RuneSelf:
		s.errorf(s.start, "non-ASCII character %U %q outside a string or comment", r, r)
	case r < ' ' || r == 0x7f:
		s.errorf(s.start, "invalid character %U", r)
	default:
		s.errorf(s.start, "invalid character %q", r)
	}
	return s.emit(token.ILLEGAL)
}

func (s *Scanner) emit(k token.Kind) Token {
	if k.IsOperator() {
		// The spelling of an operator is its text: no copy of the source.
		return Token{Kind: k, Pos: s.start, Text: k.String()}
	}
	return Token{Kind: k, Pos: s.start, Text: string(s.src[s.start.Offset:s.off])}
}

// scanIdent scans [A-Za-z][A-Za-z0-9_]*, a keyword or type name when it
// is reserved.
func (s *Scanner) scanIdent() Token {
	s.acceptRun(isIdentRune)
	word := s.src[s.start.Offset:s.off]
	if k := token.LookupBytes(word); k != token.IDENT {
		// A keyword or type name: its text is its spelling, not a copy.
		return Token{Kind: k, Pos: s.start, Text: k.String()}
	}
	t := s.emit(token.IDENT)
	if len(t.Text) > token.MaxIdentLen {
		s.errorf(t.Pos, "identifier longer than %d characters", token.MaxIdentLen)
	}
	return t
}

// scanNumber scans [0-9]+ or [0-9]+\.[0-9]+. A unit after an integer is a
// separate identifier token: only the parser knows a duration position.
func (s *Scanner) scanNumber() Token {
	s.acceptRun(isDigit)
	if s.off+1 < len(s.src) && s.src[s.off] == '.' && isDigit(rune(s.src[s.off+1])) {
		s.next()
		s.acceptRun(isDigit)
		return s.emit(token.REALLIT)
	}
	return s.emit(token.INTLIT)
}

// scanString scans a string literal after its opening quote. A line break
// (a carriage return too, since C takes it for one) or the end of the
// source ends an unterminated string; a NUL byte is refused because no C
// compiler keeps it in a literal without a warning.
func (s *Scanner) scanString() Token {
	for {
		at := s.off
		p := s.pos()
		r := s.next()
		switch {
		case r == '"':
			return s.emit(token.STRINGLIT)
		case r == eof || r == '\n' || r == '\r':
			if r != eof {
				s.backup()
			}
			s.errorf(s.start, "unterminated string")
			return s.emit(token.STRINGLIT)
		case r == '\\':
			switch e := s.next(); e {
			case '"', '\\', 'n', 't':
			case eof, '\n', '\r':
				s.backup()
				s.errorf(p, "invalid escape sequence at end of line")
			default:
				s.backup()
				if ' ' <= e && e < utf8.RuneSelf {
					s.errorf(p, "invalid escape sequence \"\\%c\"", e)
				} else {
					s.errorf(p, "invalid escape sequence: backslash followed by %U", e)
				}
			}
		case r == 0:
			s.errorf(p, "invalid character NUL in string")
		case s.invalidUTF8(r, at):
			s.errorf(p, "invalid UTF-8 encoding")
		}
	}
}
