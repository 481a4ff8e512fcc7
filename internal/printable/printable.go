// Package printable makes text that comes from outside mcpt, such as the
// names of the files a transpiler writes, safe to print: control
// characters (which could move the cursor or retitle a terminal), Unicode
// format characters (which could reorder a line) and bytes that are not
// UTF-8 are written as Go escapes (\x1b, \u202e, \xff), so that the text
// shows what is there and an odd file name can still be found.
package printable

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line escapes s for printing on one line: newlines and tabs are escaped
// too.
func Line(s string) string { return escape(s, false) }

// Text escapes s for printing as lines of text: newlines and tabs stay.
func Text(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if clean(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x80 && !printableRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !printableRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func clean(s string, keepLines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return cleanSlow(s[i:], keepLines)
		}
		if (c < 0x20 || c == 0x7f) && !(keepLines && (c == '\n' || c == '\t')) {
			return false
		}
	}
	return true
}

func cleanSlow(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return false
		}
		if !printableRune(r) && !(keepLines && (r == '\n' || r == '\t')) {
			return false
		}
		i += n
	}
	return true
}

func printableRune(r rune) bool {
	return r == ' ' || !(unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
}

// Writer escapes everything written through it with Text. Each Write must
// hold whole characters, as one Fprintf call does.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
