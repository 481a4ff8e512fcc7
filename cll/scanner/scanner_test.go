package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/token"
)

// scanAll returns the tokens of src up to EOF included, each as
// "line:col kind text", and the errors as "line:col: msg".
func scanAll(src string) (toks, errs []string) {
	s := New("f.cll", []byte(src), func(pos token.Pos, msg string) {
		errs = append(errs, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Col, msg))
	})
	for i := 0; i < 1000; i++ {
		t := s.Scan()
		toks = append(toks, fmt.Sprintf("%d:%d %s %s", t.Pos.Line, t.Pos.Col, t.Kind, t.Text))
		if t.Kind == token.EOF {
			break
		}
	}
	return toks, errs
}

func TestTokens(t *testing.T) {
	src := "logic L // a comment\n" +
		"\tstates Red,Green\n" +
		"x<>y<=z>=1 < 2 > 3.25 = (a+b)-c*d/e { } :\n" +
		"\"a\\\"b\\\\c\\nd\\te\" \"é\" start T for 3s 10 ms s\n" +
		"Boolean Integer Real String mod not expired"
	toks, errs := scanAll(src)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors %q", errs)
	}
	want := []string{
		"1:1 logic logic", "1:7 identifier L",
		"2:2 states states", "2:9 identifier Red", "2:12 , ,", "2:13 identifier Green",
		"3:1 identifier x", "3:2 <> <>", "3:4 identifier y", "3:5 <= <=", "3:7 identifier z",
		"3:8 >= >=", "3:10 integer literal 1", "3:12 < <", "3:14 integer literal 2",
		"3:16 > >", "3:18 real literal 3.25", "3:23 = =", "3:25 ( (", "3:26 identifier a",
		"3:27 + +", "3:28 identifier b", "3:29 ) )", "3:30 - -", "3:31 identifier c",
		"3:32 * *", "3:33 identifier d", "3:34 / /", "3:35 identifier e", "3:37 { {",
		"3:39 } }", "3:41 : :",
		`4:1 string literal "a\"b\\c\nd\te"`, `4:17 string literal "é"`,
		"4:21 start start", "4:27 identifier T", "4:29 for for", "4:33 integer literal 3",
		"4:34 identifier s", "4:36 integer literal 10", "4:39 identifier ms", "4:42 identifier s",
		"5:1 Boolean Boolean", "5:9 Integer Integer", "5:17 Real Real", "5:22 String String",
		"5:29 mod mod", "5:33 not not", "5:37 expired expired", "5:44 end of file ",
	}
	if strings.Join(toks, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(toks, "\n"), strings.Join(want, "\n"))
	}
}

func TestKeywords(t *testing.T) {
	words := "logic declarations states enumeration command configuration parameter variable timer input event attribute init cycle if then elif else end send transition to next previous set start stop for expired and or not mod true false state time"
	for _, w := range strings.Fields(words) {
		toks, _ := scanAll(w)
		if want := "1:1 " + w + " " + w; toks[0] != want {
			t.Errorf("scan %q = %q, want %q", w, toks[0], want)
		}
		if k := token.Lookup(w); !k.IsKeyword() {
			t.Errorf("Lookup(%q) = %v, not a keyword", w, k)
		}
	}
	for _, w := range []string{"Logic", "ms", "s", "TIME", "x_1"} {
		if k := token.Lookup(w); k != token.IDENT {
			t.Errorf("Lookup(%q) = %v, want identifier", w, k)
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"0", "1:1 integer literal 0"},
		{"2147483648", "1:1 integer literal 2147483648"},
		{"007", "1:1 integer literal 007"},
		{"1.5", "1:1 real literal 1.5"},
		{"1.", "1:1 integer literal 1|1:2 illegal character ."},
		{"1.x", "1:1 integer literal 1|1:2 illegal character .|1:3 identifier x"},
		{"3s", "1:1 integer literal 3|1:2 identifier s"},
		{"12abc", "1:1 integer literal 12|1:3 identifier abc"},
	} {
		toks, _ := scanAll(tc.src)
		got := strings.Join(toks[:len(toks)-1], "|")
		if got != tc.want {
			t.Errorf("scan %q = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestPositions checks that a column counts characters, a tab and a
// multi-byte character each as one.
func TestPositions(t *testing.T) {
	toks, _ := scanAll("\t\ta\n\"ü€\" b // ü\n\t c")
	want := []string{"1:3 identifier a", "2:1 string literal \"ü€\"", "2:6 identifier b", "3:3 identifier c"}
	for i, w := range want {
		if toks[i] != w {
			t.Errorf("token %d = %q, want %q", i, toks[i], w)
		}
	}
	s := New("f.cll", []byte("ab\n  cd"), nil)
	s.Scan()
	if p := s.Scan().Pos; p != (token.Pos{File: "f.cll", Offset: 5, Line: 2, Col: 3}) {
		t.Errorf("pos = %+v", p)
	}
}

func TestLexicalErrors(t *testing.T) {
	long := strings.Repeat("a", 65)
	for _, tc := range []struct{ src, want string }{
		{`x = "a\qb"`, `1:7: invalid escape sequence "\q"`},
		{"x = \"a\\\n", `1:7: invalid escape sequence at end of line|1:5: unterminated string`},
		{"x = \"abc\ny", "1:5: unterminated string"},
		{"x = \"abc", "1:5: unterminated string"},
		{"\"a\rb\"", "1:1: unterminated string|1:5: unterminated string"},
		{"\t" + long, "1:2: identifier longer than 64 characters"},
		{"x @ y", "1:3: invalid character '@'"},
		{"a\x01", "1:2: invalid character U+0001"},
		{"é", "1:1: non-ASCII character U+00E9 'é' outside a string or comment"},
		{"\"a\x00\"", "1:3: invalid character NUL in string"},
		{"\"\xff\"", "1:2: invalid UTF-8 encoding"},
		{"// \xff", "1:4: invalid UTF-8 encoding"},
		{"x \xfe", "1:3: invalid UTF-8 encoding"},
		{"a ; b", "1:3: invalid character ';'"},
		{"a . b", "1:3: invalid character '.'"},
	} {
		_, errs := scanAll(tc.src)
		if got := strings.Join(errs, "|"); got != tc.want {
			t.Errorf("scan %q: errors %q, want %q", tc.src, got, tc.want)
		}
	}
	// An identifier of exactly 64 characters is fine.
	if _, errs := scanAll(long[1:]); len(errs) != 0 {
		t.Errorf("64 characters: %q", errs)
	}
}

// TestEOFRepeats checks that Scan keeps returning EOF.
func TestEOFRepeats(t *testing.T) {
	s := New("f.cll", []byte("a"), nil)
	s.Scan()
	for i := 0; i < 3; i++ {
		if k := s.Scan().Kind; k != token.EOF {
			t.Fatalf("scan %d after end = %v", i, k)
		}
	}
}
