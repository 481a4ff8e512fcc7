package printable

import "testing"

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, line, text string }{
		{"main.c", "main.c", "main.c"},
		{"café/ü.c", "café/ü.c", "café/ü.c"},
		{"evil\x1b]0;pwned\a.c", `evil\x1b]0;pwned\x07.c`, `evil\x1b]0;pwned\x07.c`},
		{"latin\xe9.c", `latin\xe9.c`, `latin\xe9.c`},
		{"a\nb\tc", `a\x0ab\x09c`, "a\nb\tc"},
		{"rtl\u202egnp.exe", `rtl\u202egnp.exe`, `rtl\u202egnp.exe`},
		{"c1\u0085", `c1\u0085`, `c1\u0085`},
		{"del\x7f", `del\x7f`, `del\x7f`},
	} {
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}
