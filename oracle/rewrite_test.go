package oracle

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

const vtable = `struct T {
  enum {
    VT_A = 4,
    VT_B = 6,
    VT_C = 8
  };
  int8_t a() const;
  names[3] = {
    "A",
    "",
    "C",
    nullptr
  };
};
`

func TestPredictRanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []Edit
		want  string
		err   string
	}{
		{
			name: "renumber the items after an insertion, within a range",
			edits: []Edit{
				{Op: Insert, Lines: []string{"    VT_N = 6,"}, Anchors: []Anchor{{Path: exact("VT_A = 4,")}}},
				{Op: Renumber, Pattern: regexp.MustCompile(`^\s*VT_(?:B|C) = (\d+)`), By: 2,
					Anchors: []Anchor{{Path: exact("struct T {", "enum {")}}, Through: exact("};")},
			},
			want: strings.Replace(vtable, "    VT_A = 4,\n    VT_B = 6,\n    VT_C = 8\n", "    VT_A = 4,\n    VT_N = 6,\n    VT_B = 8,\n    VT_C = 10\n", 1),
		},
		{
			name: "renumber meets no line",
			edits: []Edit{{Op: Renumber, Pattern: regexp.MustCompile(`VT_Q = (\d+)`), By: 1,
				Anchors: []Anchor{{Path: exact("enum {")}}, Through: exact("};")}},
			want: vtable,
		},
		{
			name: "substitute in the anchor line",
			edits: []Edit{{Op: Substitute, Pattern: regexp.MustCompile(`\[3\]`), With: "[4]",
				Anchors: []Anchor{{Path: []Matcher{{Re: regexp.MustCompile(`^\s*names\[\d+\] = \{$`)}}}}}},
			want: strings.Replace(vtable, "names[3]", "names[4]", 1),
		},
		{
			name: "substitute with groups over a range",
			edits: []Edit{{Op: Substitute, Pattern: regexp.MustCompile(`^(\s*)"(\w*)",$`), With: `$1"x$2",`,
				Anchors: []Anchor{{Path: exact("names[3] = {")}}, Through: exact("};")}},
			want: strings.Replace(strings.Replace(strings.Replace(vtable, `"A",`, `"xA",`, 1), `"",`, `"x",`, 1), `"C",`, `"xC",`, 1),
		},
		{
			name: "substitute with a replacement given the groups, its $ as it is",
			edits: []Edit{{Op: Substitute, Pattern: regexp.MustCompile(`^(\s*)"(\w*)",$`),
				Replace: func(g []string) (string, error) { return g[1] + `"$1${2}` + g[2] + `",`, nil },
				Anchors: []Anchor{{Path: exact("names[3] = {")}}, Through: exact("};")}},
			want: strings.Replace(strings.Replace(strings.Replace(vtable, `"A",`, `"$1${2}A",`, 1), `"",`, `"$1${2}",`, 1), `"C",`, `"$1${2}C",`, 1),
		},
		{
			name: "substitute that changes nothing",
			edits: []Edit{{Op: Substitute, Pattern: regexp.MustCompile(`nothing`), With: "x",
				Anchors: []Anchor{{Path: exact("enum {")}}}},
			err: "the substitution /nothing/ at line 2: no line of the range matches /nothing/",
		},
		{
			name: "replace a block",
			edits: []Edit{{Op: Replace, Lines: []string{"  names[2] = {", `    "A",`, "    nullptr", "  };"},
				Anchors: []Anchor{{Path: exact("names[3] = {")}}, Through: exact("};")}},
			want: strings.Replace(vtable, "  names[3] = {\n    \"A\",\n    \"\",\n    \"C\",\n    nullptr\n  };\n", "  names[2] = {\n    \"A\",\n    nullptr\n  };\n", 1),
		},
		{
			name: "delete a block, insert next to it",
			edits: []Edit{
				{Op: Delete, Anchors: []Anchor{{Path: exact("enum {")}}, Through: exact("};")},
				{Op: Insert, Lines: []string{"  int8_t z() const;"}, Anchors: []Anchor{{Path: exact("int8_t a() const;")}}},
			},
			want: strings.Replace(vtable, "  enum {\n    VT_A = 4,\n    VT_B = 6,\n    VT_C = 8\n  };\n  int8_t a() const;\n", "  int8_t a() const;\n  int8_t z() const;\n", 1),
		},
		{
			name:  "end of range missing",
			edits: []Edit{{Op: Delete, Anchors: []Anchor{{Path: exact("enum {")}}, Through: exact("nope")}},
			err:   `no end of range found in o for a deletion from line 2: tried "nope"`,
		},
		{
			name: "overlapping ranges",
			edits: []Edit{
				{Op: Delete, Anchors: []Anchor{{Path: exact("enum {")}}, Through: exact("};")},
				{Op: Replace, Lines: []string{"x"}, Anchors: []Anchor{{Path: exact("VT_C = 8")}}},
			},
			err: "two edits replace or delete line 5",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Difference{File: "t.h", Edits: tc.edits}
			got, err := d.Predict(vtable)
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

func TestCreation(t *testing.T) {
	c := &Creation{Name: "new-class", File: "ts/zoo/cage.ts", Content: "export class Cage {}\n"}
	o := tree.Tree{"ts/zoo/zoo.ts": []byte("x\n")}
	if f := c.Check(o, tree.Tree{"ts/zoo/zoo.ts": []byte("x\n"), "ts/zoo/cage.ts": []byte("export class Cage {}\n")}); len(f) != 0 {
		t.Fatalf("false alarm: %+v", f)
	}
	for name, tc := range map[string]struct {
		o, o2 tree.Tree
		msg   string
	}{
		"missing":  {o, tree.Tree{}, "missing from o′"},
		"in base":  {tree.Tree{"ts/zoo/cage.ts": []byte("y")}, tree.Tree{"ts/zoo/cage.ts": []byte("y")}, "already in o"},
		"contents": {o, tree.Tree{"ts/zoo/cage.ts": []byte("export class Cage { x }\n")}, "differs from the predicted content"},
	} {
		f := c.Check(tc.o, tc.o2)
		if len(f) != 1 || f[0].Checker != "new-class" || !strings.Contains(f[0].Message, tc.msg) {
			t.Errorf("%s: want one failure saying %q, got %+v", name, tc.msg, f)
		}
	}
}
