package oracle

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

func exact(lines ...string) []Matcher {
	var ms []Matcher
	for _, l := range lines {
		ms = append(ms, Matcher{Text: l})
	}
	return ms
}

const base = `struct a {
    int x;
    int y;
};
void f(void)
{
    x = 1;
}
`

func TestPredict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		base  *string // base when nil
		edits []Edit
		want  string
		err   string
	}{
		{
			name:  "insert after, path scoped",
			edits: []Edit{{Op: Insert, Lines: []string{"    x = 2;"}, Anchors: []Anchor{{Path: exact("void f(void)", "x = 1;")}}}},
			want:  strings.Replace(base, "    x = 1;\n", "    x = 1;\n    x = 2;\n", 1),
		},
		{
			name: "first alternative missing, second used, before",
			edits: []Edit{{Op: Insert, Lines: []string{"    int w;"}, Anchors: []Anchor{
				{Path: exact("int nope;")},
				{Path: exact("int x;"), Before: true},
			}}},
			want: strings.Replace(base, "    int x;\n", "    int w;\n    int x;\n", 1),
		},
		{
			name:  "replace by regexp and delete",
			edits: []Edit{{Op: Replace, Lines: []string{"    long y;"}, Anchors: []Anchor{{Path: []Matcher{{Re: regexp.MustCompile(`^\s+int y;$`)}}}}}, {Op: Delete, Anchors: []Anchor{{Path: exact("int x;")}}}},
			want:  strings.Replace(base, "    int x;\n    int y;\n", "    long y;\n", 1),
		},
		{
			name:  "two inserts at one place keep edit order",
			edits: []Edit{{Op: Insert, Lines: []string{"A"}, Anchors: []Anchor{{Path: exact("};")}}}, {Op: Insert, Lines: []string{"", "B"}, Anchors: []Anchor{{Path: exact("};")}}}},
			want:  strings.Replace(base, "};\n", "};\nA\n\nB\n", 1),
		},
		{
			name:  "no anchor",
			edits: []Edit{{Op: Insert, Lines: []string{"z"}, Anchors: []Anchor{{Path: exact("void g(void)")}}}},
			err:   `no anchor line found in o for the insertion of "z": tried after "void g(void)"`,
		},
		{
			name:  "two edits on one line",
			edits: []Edit{{Op: Delete, Anchors: []Anchor{{Path: exact("int x;")}}}, {Op: Replace, Lines: []string{"q"}, Anchors: []Anchor{{Path: exact("int x;")}}}},
			err:   "two edits replace or delete line 2",
		},
		{
			name:  "append",
			edits: []Edit{{Op: Insert, Lines: []string{"z"}, Anchors: []Anchor{{End: true}}}},
			want:  base + "z\n",
		},
		{
			name:  "append to an empty file",
			base:  new(""),
			edits: []Edit{{Op: Insert, Lines: []string{"z", "y"}, Anchors: []Anchor{{End: true}}}},
			want:  "z\ny\n",
		},
		{
			name:  "nothing to anchor at in an empty file",
			base:  new(""),
			edits: []Edit{{Op: Delete, Anchors: []Anchor{{End: true}}}},
			err:   "no anchor line found in o for a deletion: tried at the end of the file",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Difference{File: "a.h", Edits: tc.edits}
			b := base
			if tc.base != nil {
				b = *tc.base
			}
			got, err := d.Predict(b)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestDifferenceCheck(t *testing.T) {
	d := &Difference{Name: "member", File: "a.h", Edits: []Edit{{Op: Insert, Lines: []string{"    int z;"}, Anchors: []Anchor{{Path: exact("int y;")}}}}}
	o := tree.Tree{"a.h": []byte(base)}
	good := tree.Tree{"a.h": []byte(strings.Replace(base, "int y;\n", "int y;\n    int z;\n", 1))}
	if f := d.Check(o, good); len(f) != 0 {
		t.Fatalf("false alarm: %+v", f)
	}
	// The item in the wrong place: the paper's reverse-order kind of fault.
	bad := tree.Tree{"a.h": []byte(strings.Replace(base, "    int x;\n", "    int z;\n    int x;\n", 1))}
	f := d.Check(o, bad)
	if len(f) != 1 || f[0].Checker != "member" || f[0].File != "a.h" {
		t.Fatalf("want one failure of member on a.h, got %+v", f)
	}
	if !strings.Contains(f[0].Diff, "-    int z;") || !strings.Contains(f[0].Diff, "+    int z;") {
		t.Errorf("diff does not show the misplaced line:\n%s", f[0].Diff)
	}
	if f := d.Check(o, tree.Tree{}); len(f) != 1 || !strings.Contains(f[0].Message, "missing from o′") {
		t.Errorf("missing follow-up file: %+v", f)
	}
	if f := d.Check(tree.Tree{}, good); len(f) != 1 || !strings.Contains(f[0].Message, "missing from o") {
		t.Errorf("missing base file: %+v", f)
	}
}

func TestEquivalence(t *testing.T) {
	o := tree.Tree{"a.h": []byte("a\n"), "b.h": []byte("b\n"), "c.h": []byte("c\n")}
	e := &Equivalence{Except: []string{"c.h"}}
	o2 := tree.Tree{"a.h": []byte("a\n"), "b.h": []byte("b\n"), "c.h": []byte("changed\n")}
	if f := e.Check(o, o2); len(f) != 0 {
		t.Fatalf("false alarm: %+v", f)
	}
	o2["b.h"] = []byte("B\n")
	delete(o2, "a.h")
	o2["d.h"] = []byte("new\n")
	f := e.Check(o, o2)
	var got []string
	for _, x := range f {
		got = append(got, x.File+": "+x.Message)
	}
	want := []string{
		"a.h: a.h is in o but missing from o′",
		"b.h: b.h changed, but the mutation must leave it byte-identical",
		"d.h: d.h appeared in o′ but is not in o",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalizer(t *testing.T) {
	stamp := "X"
	n := Normalizer{
		{Match: regexp.MustCompile(`^// generated at .*$`)},
		{Files: []string{"*.c"}, Match: regexp.MustCompile(`version [0-9.]+`), Replace: &stamp},
	}
	in := tree.Tree{
		"a.c":     []byte("// generated at 12:00\nint v; // version 1.2\n"),
		"sub/b.h": []byte("// generated at 13:00\n// version 3\n"),
	}
	out := n.Apply(in)
	if got := string(out["a.c"]); got != "int v; // X\n" {
		t.Errorf("a.c: %q", got)
	}
	if got := string(out["sub/b.h"]); got != "// version 3\n" {
		t.Errorf("sub/b.h: %q", got)
	}
	if string(in["a.c"]) != "// generated at 12:00\nint v; // version 1.2\n" {
		t.Error("Apply changed its input")
	}
}

func TestSplitJoin(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n"} {
		l, nl := SplitLines(s)
		if got := JoinLines(l, nl); got != s {
			t.Errorf("%q round-trips to %q", s, got)
		}
	}
}

// sameContent must agree with comparing the joined lines, for every pair
// of small texts, including those that differ only in the final newline.
func TestSameContent(t *testing.T) {
	texts := []string{"", "a", "a\n", "ab", "a\nb", "a\nb\n", "a\n\nb\n", "\n", "\n\n", "a\nbc", "ab\nc"}
	for _, s := range texts {
		l, nl := SplitLines(s)
		for _, c := range texts {
			if got, want := sameContent(l, nl, []byte(c)), s == c; got != want {
				t.Errorf("sameContent(%q, %q) = %v, want %v", s, c, got, want)
			}
		}
	}
}

// File names of checks may be patterns: the equivalence check leaves out
// the files they match, and the difference check takes the one file of o
// its pattern matches (failing when none or several do).
func TestFilePatterns(t *testing.T) {
	for _, c := range []struct {
		pattern, file string
		want          bool
	}{
		{"py/**/ttypes.py", "py/ttypes.py", true},
		{"py/**/ttypes.py", "py/a/b/ttypes.py", true},
		{"py/**/ttypes.py", "py/a/b/constants.py", false},
		{"cpp/*_types.h", "cpp/chat_types.h", true},
		{"cpp/*_types.h", "cpp/x/chat_types.h", false},
		{"cpp/a.h", "cpp/a.h", true},
		{"cpp/a.h", "cpp/b.h", false},
		{"py/*.py", "py/a.b.py", true},
	} {
		if got := MatchFile(c.pattern, c.file); got != c.want {
			t.Errorf("MatchFile(%q, %q) = %v", c.pattern, c.file, got)
		}
	}
	o := tree.Tree{"py/gen/ttypes.py": []byte("a\n"), "py/gen/constants.py": []byte("c\n"), "cpp/x_types.h": []byte("h\n")}
	o2 := tree.Tree{"py/gen/ttypes.py": []byte("a\nb\n"), "py/gen/constants.py": []byte("c\n"), "cpp/x_types.h": []byte("h\n")}
	if fails := (&Equivalence{Except: []string{"py/**/ttypes.py"}}).Check(o, o2); len(fails) != 0 {
		t.Errorf("equivalence except a pattern: %v", fails)
	}
	if fails := (&Equivalence{Except: []string{"py/*/constants.py"}}).Check(o, o2); len(fails) != 1 {
		t.Errorf("equivalence: %d failures, want 1 (ttypes.py changed)", len(fails))
	}
	d := &Difference{File: "py/**/ttypes.py", Edits: []Edit{{Op: Insert, Lines: []string{"b"}, Anchors: []Anchor{{Path: []Matcher{{Text: "a"}}}}}}}
	if fails := d.Check(o, o2); len(fails) != 0 {
		t.Errorf("difference on a pattern: %v", fails)
	}
	d.Edits[0].Lines = []string{"c"}
	if fails := d.Check(o, o2); len(fails) != 1 || fails[0].File != "py/gen/ttypes.py" {
		t.Errorf("difference on a pattern: %v, want one failure on py/gen/ttypes.py", fails)
	}
	for _, p := range []string{"py/**/*.py", "go/*.go"} {
		if fails := (&Difference{File: p}).Check(o, o2); len(fails) != 1 || !strings.Contains(fails[0].Message, "match") {
			t.Errorf("difference on %s: %v, want one failure saying what matched", p, fails)
		}
	}
}
