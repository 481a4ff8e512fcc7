// Package numlit reads the integer literals of a seed the way its language
// reads them. Every place where a relation takes a number from a seed (an
// enum value, a field number, a reserved range) goes through Form.Parse or
// Form.All, so that a zero-padded hex value, an octal one or a negative
// one is read as the compiler reads it, and never as the digits it
// happens to hold.
//
// The languages differ where it matters: `010` is 8 in Protocol Buffers
// and C, 10 in Thrift and FlatBuffers; TypeScript writes `0o10`, `0b10`
// and `1_000`; a protobuf range may end at the word `max`.
package numlit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Form is the way a language writes integer literals. The zero Form is C.
type Form struct {
	name string
	// decimal0: a literal with leading zeros is decimal (Thrift,
	// FlatBuffers), not octal (C, Protocol Buffers).
	decimal0 bool
	// ecma: 0o and 0b prefixes, _ between digits, a BigInt's n suffix,
	// and legacy octal (0 and octal digits only; 08 is decimal).
	ecma bool
	// max: a range may end at the word max (`reserved 5 to max;`).
	max bool
}

// The forms, by the name a relation file gives them (numbers:).
var (
	// C: decimal, 0x or 0X hexadecimal, octal after a leading 0, a sign.
	C = Form{name: "c"}
	// Protobuf: as C, and the word max where a range ends (`to max`).
	Protobuf = Form{name: "protobuf", max: true}
	// Decimal: decimal (leading zeros too), 0x or 0X hexadecimal, a sign:
	// Thrift, FlatBuffers.
	Decimal = Form{name: "decimal", decimal0: true}
	// ECMAScript: TypeScript and JavaScript numeric literals that are
	// integers: decimal, 0x, 0o, 0b, legacy octal, _ separators, a BigInt
	// suffix n, a sign.
	ECMAScript = Form{name: "ecmascript", ecma: true}
)

var forms = []Form{C, Protobuf, Decimal, ECMAScript}

// Lookup is the form called name.
func Lookup(name string) (Form, bool) {
	for _, f := range forms {
		if f.name == name {
			return f, true
		}
	}
	return Form{}, false
}

// Names are the names of the forms.
func Names() []string {
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = f.name
	}
	return out
}

// String is the form's name.
func (f Form) String() string {
	if f.name == "" {
		return C.name
	}
	return f.name
}

// Parse reads s, white space around it ignored, as one integer literal of
// the form, with an optional sign (white space may follow it). A literal
// that does not fit in 64 bits is an error, as is anything that is not a
// literal of the form.
func (f Form) Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = strings.TrimLeft(t[1:], " \t")
	}
	u, ok := f.unsigned(t)
	if !ok {
		return 0, fmt.Errorf("%q is not an integer literal (%s)", strings.TrimSpace(s), f)
	}
	if neg {
		if u > 1<<63 {
			return 0, fmt.Errorf("%q does not fit in 64 bits", strings.TrimSpace(s))
		}
		return int64(-u), nil // -(1<<63) wraps to itself
	}
	if u > math.MaxInt64 {
		return 0, fmt.Errorf("%q does not fit in 64 bits", strings.TrimSpace(s))
	}
	return int64(u), nil
}

// unsigned reads a literal without a sign.
func (f Form) unsigned(t string) (uint64, bool) {
	if f.ecma {
		t = strings.TrimSuffix(t, "n")
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false
	}
	base, digits := 10, t
	if len(t) > 2 && t[0] == '0' {
		switch t[1] {
		case 'x', 'X':
			base, digits = 16, t[2:]
		case 'o', 'O', 'b', 'B':
			if !f.ecma {
				return 0, false
			}
			base, digits = 8, t[2:]
			if t[1] == 'b' || t[1] == 'B' {
				base = 2
			}
		}
	}
	if f.ecma {
		if !separated(digits) {
			return 0, false
		}
		digits = strings.ReplaceAll(digits, "_", "")
	}
	if base == 10 && len(digits) > 1 && digits[0] == '0' {
		switch {
		case f.decimal0:
		case f.ecma:
			// legacy octal: every digit octal; 08 and 019 are decimal
			if strings.Trim(digits, "01234567") == "" {
				base = 8
			}
		default:
			base = 8
		}
	}
	if strings.HasPrefix(digits, "+") || strings.HasPrefix(digits, "-") {
		return 0, false
	}
	u, err := strconv.ParseUint(digits, base, 64)
	return u, err == nil
}

// separated tells whether every _ of s stands between two digits.
func separated(s string) bool {
	for i := range len(s) {
		if s[i] == '_' && (i == 0 || i == len(s)-1 || s[i-1] == '_' || s[i+1] == '_') {
			return false
		}
	}
	return true
}

// Literal is an integer literal found in a text: its value, where it
// stands (the sign included) and, in the Protobuf form, whether it is the
// word max that ends a range (its Value is then 0: the caller knows what
// max stands for).
type Literal struct {
	Value      int64
	Start, End int
	Max        bool
}

// All finds the integer literals of text, in order: the words of the form
// that stand alone, not inside a name (the 2021 of IR_VERSION_2021_7_30),
// a string, a comment (// … and /* … */) or a real number (1.5, 1e3). A
// minus sign belongs to the literal after it (in ECMAScript, when no
// operand stands before it). Words too large for 64 bits are left out.
func (f Form) All(text string) []Literal {
	var out []Literal
	prevTo := false // the word before is "to"
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(text, i)
			prevTo = false
			continue
		case strings.HasPrefix(text[i:], "//"):
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(text)
			}
			continue
		case strings.HasPrefix(text[i:], "/*"):
			if j := strings.Index(text[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(text)
			}
			continue
		case !wordByte(c):
			i++
			continue
		}
		j := i
		for j < len(text) && (wordByte(text[j]) || text[j] == '.' && j+1 < len(text) && isDigit(text[j+1]) && isDigit(text[i])) {
			j++
		}
		// an exponent's sign: 1e-3 is one word
		for isDigit(text[i]) && j < len(text) && (text[j] == '-' || text[j] == '+') && j > i && (text[j-1] == 'e' || text[j-1] == 'E') && !strings.HasPrefix(text[i:], "0x") && !strings.HasPrefix(text[i:], "0X") {
			j++
			for j < len(text) && wordByte(text[j]) {
				j++
			}
		}
		word := text[i:j]
		switch {
		case f.max && word == "max" && prevTo:
			out = append(out, Literal{Start: i, End: j, Max: true})
		case isDigit(word[0]) && !(i > 0 && text[i-1] == '.'):
			if u, ok := f.unsigned(word); ok {
				start, v := i, int64(0)
				if k := f.signAt(text, i); k >= 0 {
					if u <= 1<<63 {
						start, v = k, int64(-u)
					} else {
						break
					}
				} else if u <= math.MaxInt64 {
					v = int64(u)
				} else {
					break
				}
				out = append(out, Literal{Value: v, Start: start, End: j})
			}
		}
		prevTo = word == "to"
		i = j
	}
	return out
}

// signAt is the position of the minus sign that belongs to the literal at
// i, or -1. The IDLs have no expressions: a minus before a literal is its
// sign. In ECMAScript it is one where no operand stands before it.
func (f Form) signAt(text string, i int) int {
	k := i - 1
	for k >= 0 && (text[k] == ' ' || text[k] == '\t') {
		k--
	}
	if k < 0 || text[k] != '-' {
		return -1
	}
	if !f.ecma {
		return k
	}
	p := k - 1
	for p >= 0 && (text[p] == ' ' || text[p] == '\t') {
		p--
	}
	if p >= 0 && slices.Contains([]byte(")]}.'\"`"), text[p]) {
		return -1
	}
	if p >= 0 && wordByte(text[p]) {
		// a name or number before it makes it a binary minus, but for
		// the words after which an operand starts: `reserved -9 to -5`
		w := p
		for w > 0 && wordByte(text[w-1]) {
			w--
		}
		if !slices.Contains(operandAfter, text[w:p+1]) {
			return -1
		}
	}
	return k
}

// operandAfter are the words after which a minus sign is a sign.
var operandAfter = []string{"to", "return", "case"}

// skipQuoted is the position after the quoted text that starts at i (a
// backslash escapes the next byte); the end of the line or text ends an
// unterminated one.
func skipQuoted(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			if q != '`' {
				return j
			}
		}
	}
	return len(text)
}

func wordByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
