package oracle

import (
	"regexp"
	"slices"
	"testing"
)

// TestDeadPlaceAlternatives: the alternatives of a places or not_places
// pattern that no place can match (a place is the indentation and one
// word, numbers masked), and none that some place matches; each live one
// is shown with a line whose place it matches.
func TestDeadPlaceAlternatives(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		dead    []string
	}{
		// the whole line, where a place is the word at the name
		{`^\s*message\.@ = (\[\]|\{\});$|^\s*"@",$`, []string{`^\s*message\.@ = (\[\]|\{\});$`}},
		{`\[#\] = @|^\s*\{ "@", |^ +\w*@\),$`, []string{`\[#\] = @`, `^\s*\{ "@", `}},
		{`@\d`, []string{`@\d`}},          // numbers are masked as #
		{`@\n|x^`, []string{`@\n`, `x^`}}, // one line, begun once
		{`@$x`, []string{`@$x`}},
		{`^\s+\s@`, nil},                         // a tab then a space of the indentation
		{`^[^@]+$`, []string{`^[^@]+$`}},         // a place holds the name
		{`@\b\s`, []string{`@\b\s`}},             // a space only before the word
		{`\bx\B@`, []string{`\bx\B@`}},           // x then @ is a word boundary
		{`(?i)@ X|@ y`, []string{`(?i)@ X|@ y`}}, // taken whole
		{`(?i)@ X|y`, nil},
		{`(?i:@ X)|y`, []string{`(?i:@ X)`}},
		{`[|]@ |(a|b)`, []string{`[|]@ `}},
		{`\Q|@ \E|b`, []string{`\Q|@ \E`}},
	} {
		var got []string
		for _, a := range DeadPlaceAlternatives(tc.pattern) {
			got = append(got, a.Text)
			if tc.pattern[a.Offset:a.Offset+len(a.Text)] != a.Text {
				t.Errorf("%q: %q is not at %d", tc.pattern, a.Text, a.Offset)
			}
		}
		if !slices.Equal(got, tc.dead) {
			t.Errorf("DeadPlaceAlternatives(%q) = %q, want %q", tc.pattern, got, tc.dead)
		}
	}
	// Live, each with a line of o′ whose place it matches (n, the name).
	n := nm("zqnew")
	for _, tc := range []struct{ pattern, line string }{
		{`^\s*"@",$`, `    "zqnew",`},
		{`^ +\w*@\),$`, `   zqnew),`},
		{`__descriptor,$`, `  &zqnew__descriptor,`},
		{`^ +@$`, `    zqnew`},
		{`@_Entry"\)$`, `	proto.RegisterMapType((map[string]int32)(nil), "pkg.Msg.zqnew_Entry")`},
		{`^\s*\(message\.@$`, `    (message.zqnew`},
		{`=\*/#\)`, `  PROTOBUF_C_OFFSETOF(X, zqnew=*/7)`},
		{`builder_\.add_|\.add@\(`, `    builder_.add_zqnew(zqnew);`},
		{`writeFieldBegin|^ +'@',$`, `    xfer += oprot->writeFieldBegin("zqnew", T_I32, 4);`},
		{`_@_Handler,$`, `		Handler:    _Svc_zqnew_Handler,`},
		{`^\s*@\[#\]`, `  zqnew[3] = 1;`},
		{`\bzq\B`, `    zqfoo.zqnew`},
		{`(?i)^\s*MESSAGE`, `    message.zqnew.push(x);`},
		{`@\r$`, "    zqnew\r"},
	} {
		if d := DeadPlaceAlternatives(tc.pattern); len(d) != 0 {
			t.Errorf("DeadPlaceAlternatives(%q) = %v, want none", tc.pattern, d)
		}
		k, ok := PlaceOf(tc.line, n)
		if !ok || !regexp.MustCompile(tc.pattern).MatchString(k) {
			t.Errorf("%q: the place of %q is %q, which it does not match", tc.pattern, tc.line, k)
		}
	}
}
