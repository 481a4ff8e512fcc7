package yamlpos

import (
	"bytes"
	"context"
	"strconv"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// scalarSource is where a scalar is written in its file: enough to find
// the line and column of any byte of its value, inside a block scalar
// (`|-`, `>`) or a quoted one with escapes.
type scalarSource struct {
	data      []byte // the file
	start     int    // the offset in data of the first byte of the value as written
	line, col int    // and its position
	style     byte   // '"', '\\'', or 0 (plain, literal, folded)
}

// newScalarSource finds the scalar of the token tk in the file being
// decoded; nil when it cannot.
func newScalarSource(ctx context.Context, tk *token.Token) *scalarSource {
	text, _ := ctx.Value(dataKey{}).(*fileText)
	if text == nil || tk == nil || tk.Position == nil {
		return nil
	}
	data := text.data
	line, col := tk.Position.Line, tk.Position.Column
	off := text.lineStart(line)
	if off < 0 {
		return nil
	}
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ { // columns count characters
		_, n := utf8.DecodeRune(data[off:])
		off += n
	}
	src := &scalarSource{data: data, start: off, line: line, col: col}
	switch tk.Type {
	case token.LiteralType, token.FoldedType:
		// The value starts on the line after the header (|-, >2 # comment).
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return nil
		}
		src.start, src.line, src.col = off+i+1, line+1, 1
	case token.SingleQuoteType, token.DoubleQuoteType:
		if off >= len(data) {
			return nil
		}
		src.style = data[off]
		src.start, src.col = off+1, col+1
	}
	return src
}

// PosAt is the position in the file of the byte at offset off of the
// value: inside a block scalar, the line of the block that holds it and
// its column past the indentation; inside a quoted scalar, past the quote
// and the escapes before it. A String that knows no more than its start
// (made in Go) returns its start.
func (s String) PosAt(off int) Pos {
	if s.src == nil {
		return s.Pos
	}
	line, col := s.src.place(s.Value, off)
	return Pos{File: s.Pos.File, Line: line, Col: col}
}

// place walks the value and its text as written side by side up to the
// value's offset off: a byte of the value is the same byte written, or an
// escape sequence, or has no counterpart (a line folded into a space);
// what is written and is not in the value is indentation, line breaks and
// quotes.
func (src *scalarSource) place(v string, off int) (line, col int) {
	r, p := src.data, src.start
	line, col = src.line, src.col
	adv := func(n int) {
		for range n {
			if p >= len(r) {
				return
			}
			switch {
			case r[p] == '\n':
				line, col = line+1, 1
			case r[p]&0xC0 != 0x80:
				col++
			}
			p++
		}
	}
	for i := 0; i < off && i < len(v) && p < len(r); {
		c := r[p]
		switch {
		case src.style == '"' && c == '\\' && p+1 < len(r):
			if r[p+1] == '\n' || r[p+1] == '\r' { // a line continued: no byte of the value
				adv(2)
				for p < len(r) && (r[p] == ' ' || r[p] == '\t' || r[p] == '\n') {
					adv(1)
				}
				continue
			}
			n, m := escape(r[p+1:])
			i += m
			adv(1 + n)
		case src.style == '\'' && c == '\'' && p+1 < len(r) && r[p+1] == '\'':
			i++
			adv(2)
		case c == v[i]:
			i++
			adv(1)
		case isSpace(c):
			adv(1)
		default:
			i++ // a byte of the value that is not written: a folded line break
		}
	}
	// The indentation, line breaks and continued lines before the byte.
	for off < len(v) && p < len(r) && r[p] != v[off] {
		switch {
		case isSpace(r[p]):
			adv(1)
		case src.style == '"' && r[p] == '\\' && p+1 < len(r) && (r[p+1] == '\n' || r[p+1] == '\r'):
			adv(2)
		default:
			return line, col
		}
	}
	return line, col
}

// escape reads the escape sequence of a double-quoted scalar after its
// backslash: how many bytes it takes, and how many bytes of the value it
// stands for.
func escape(b []byte) (n, m int) {
	if len(b) == 0 {
		return 0, 0
	}
	hex := map[byte]int{'x': 2, 'u': 4, 'U': 8}[b[0]]
	switch {
	case hex > 0 && len(b) > hex:
		c, err := strconv.ParseUint(string(b[1:1+hex]), 16, 32)
		if err != nil || utf8.RuneLen(rune(c)) < 0 {
			return 1 + hex, 1
		}
		return 1 + hex, utf8.RuneLen(rune(c))
	case b[0] == 'N' || b[0] == '_':
		return 1, 2 // U+0085, U+00A0
	case b[0] == 'L' || b[0] == 'P':
		return 1, 3 // U+2028, U+2029
	}
	return 1, 1
}
