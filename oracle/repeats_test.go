package oracle

import (
	"regexp"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// A copied exception of a function is written again in every throws
// clause that lists the function's exceptions: with Repeats, the old
// line that gains a copy of a run of its own words is explained, the
// new name's lines beside it too; without it, the lines are not.
func TestLocalityRepeats(t *testing.T) {
	o := tree.Tree{"A.java": []byte("  public S method1(int myint) throws exception1, TException;\n  if (result.exn != null) {\n    throw result.exn;\n  }\n")}
	o2 := tree.Tree{"A.java": []byte("  public S method1(int myint) throws exception1, exception1, TException;\n  if (result.exn != null) {\n    throw result.exn;\n  }\n  if (result.zqabcdef != null) {\n    throw result.zqabcdef;\n  }\n")}
	l := &Locality{Fresh: []Name{nm("zqabcdef")}, Numbers: -1, Punctuation: -1, Hunks: true, Repeats: true}
	if v := l.Decide(o, o2); len(v.Fails) > 0 {
		t.Errorf("with repeats: %v", v.Fails)
	}
	l.Repeats = false
	if v := l.Decide(o, o2); len(v.Fails) == 0 {
		t.Error("without repeats: the repeated exception is explained")
	}
}

// An also pattern that matches the old line whole does not pair it with
// another added line (a blank line of the new declaration's block, which
// differs from it only in what the pattern matches), leaving the repeat
// unexplained: the repeat is paired first.
func TestLocalityRepeatsBeforeAlso(t *testing.T) {
	o := tree.Tree{"A.java": []byte("  public S method1(int myint) throws exception1, TException;\n  }\n")}
	o2 := tree.Tree{"A.java": []byte("  public S method1(int myint) throws exception1, exception1, TException;\n  }\n\n  int zqabcdef;\n")}
	also := regexp.MustCompile(`^\s*(?:public \w+ \w+\(int myint\) throws \w+, TException;)\s*$`)
	l := &Locality{Fresh: []Name{nm("zqabcdef")}, Numbers: Any, Punctuation: Any, Repeats: true, Also: []*regexp.Regexp{also}}
	if v := l.Decide(o, o2); len(v.Fails) > 0 {
		t.Errorf("the repeat is not paired first: %v", v.Fails)
	}
}

// The copied run may come from anywhere in the line; a line that gains
// words it does not hold is no repeat.
func TestRepeats(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"throws A, T;", "throws A, A, T;", true},
		{"f(args[0], eval(args[1]),)", "f(args[0], eval(args[1]), args[2], eval(args[3]),)", false},
		{"f(args[#], eval(args[#]),)", "f(args[#], eval(args[#]), args[#], eval(args[#]),)", true},
		{"f(args[#], eval(args[#]), eval(args[#]),)", "f(args[#], eval(args[#]), args[#], eval(args[#]),)", true},
		{"f(a, b)", "f(a, c, b)", false},
		{"f(a, b)", "f(a, b)", false},
	} {
		if got := repeats(tokens(tc.a), tokens(tc.b)); got != tc.want {
			t.Errorf("repeats(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// A serialized descriptor written as hexadecimal bytes grows by a line:
// the lines that changed in their bytes alone pair as numbers, and the
// line left over is still one of bytes for an also pattern of 0x…
// literals (a hexadecimal literal is masked as 0x0, not 0).
func TestLocalityHexBytesAlso(t *testing.T) {
	o := tree.Tree{"a.pb.go": []byte("var d = []byte{\n\t0x1f, 0x8b, 0x08, 0x00,\n\t0x14, 0xc6,\n}\n")}
	o2 := tree.Tree{"a.pb.go": []byte("var d = []byte{\n\t0x1f, 0x8b, 0x08, 0x01,\n\t0x24, 0xc6, 0x77, 0xa0,\n\t0x4c, 0xb3,\n}\n")}
	also := regexp.MustCompile(`^\s*(0x[0-9a-f]+,\s*)+$`)
	l := &Locality{Fresh: []Name{nm("zqabcdef")}, Numbers: Any, Punctuation: Any, Hunks: true, Also: []*regexp.Regexp{also}}
	if v := l.Decide(o, o2); len(v.Fails) > 0 {
		t.Errorf("a descriptor's bytes: %v", v.Fails)
	}
	l.Also = nil
	if v := l.Decide(o, o2); len(v.Fails) == 0 {
		t.Error("without the pattern, the added line of bytes is explained")
	}
}
