package oracle

import (
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

const blocksBase = `void f(void)
{
    a();
    if (x) {
        b();
    }
}
void g(void)
{
    c();
}
`

func TestBlocks(t *testing.T) {
	call := []string{"zq();"}
	wrapped := []string{"if (true) {", "    zq();", "}"}
	reset := []string{"zq = 0;"}
	for _, tc := range []struct {
		name   string
		o2     string
		blocks [][]string
		ok     bool
	}{
		{"first line", "zq();\n" + blocksBase, [][]string{call}, true},
		{"nested, indentation not compared", strings.Replace(blocksBase, "b();\n", "b();\n        zq();\n", 1), [][]string{call}, true},
		{"at the end", blocksBase + "zq();\n", [][]string{call}, true},
		{"a run of lines", strings.Replace(blocksBase, "    c();\n", "    if (true) {\n        zq();\n    }\n    c();\n", 1), [][]string{wrapped}, true},
		{"two blocks in order", strings.Replace(strings.Replace(blocksBase, "a();\n", "a();\n    zq = 0;\n", 1), "c();\n", "c();\n    zq();\n", 1), [][]string{reset, call}, true},
		{"two blocks out of order", strings.Replace(strings.Replace(blocksBase, "a();\n", "a();\n    zq = 0;\n", 1), "c();\n", "c();\n    zq();\n", 1), [][]string{call, reset}, false},
		{"no block", blocksBase, [][]string{call}, false},
		{"a block changed", strings.Replace(blocksBase, "b();\n", "b();\n        zq(1);\n", 1), [][]string{call}, false},
		{"trailing white space compared", strings.Replace(blocksBase, "b();\n", "b();\n        zq(); \n", 1), [][]string{call}, false},
		{"a run split", strings.Replace(blocksBase, "    c();\n", "    if (true) {\n        zq();\n    c();\n    }\n", 1), [][]string{wrapped}, false},
		{"another line changed too", strings.Replace(strings.Replace(blocksBase, "b();\n", "b();\n        zq();\n", 1), "a();", "a(1);", 1), [][]string{call}, false},
		{"another line added too", strings.Replace(blocksBase, "b();\n", "b();\n        zq();\n        b();\n", 1), [][]string{call}, false},
		{"a line removed", strings.Replace(blocksBase, "    a();\n", "    zq();\n", 1), [][]string{call}, false},
		{"final newline lost", strings.TrimSuffix("zq();\n"+blocksBase, "\n"), [][]string{call}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Blocks{Name: "stmt", File: "p.c", Blocks: tc.blocks}
			fails := b.Check(tree.Tree{"p.c": []byte(blocksBase)}, tree.Tree{"p.c": []byte(tc.o2)})
			if tc.ok && len(fails) > 0 {
				t.Errorf("failed: %s\n%s", fails[0].Message, fails[0].Diff)
			}
			if !tc.ok && len(fails) == 0 {
				t.Error("passed")
			}
			if len(fails) > 0 && fails[0].Checker != "stmt" {
				t.Errorf("checker %q", fails[0].Checker)
			}
		})
	}
	b := &Blocks{File: "p.c", Blocks: [][]string{call}}
	if f := b.Check(tree.Tree{}, tree.Tree{"p.c": nil}); len(f) != 1 || !strings.Contains(f[0].Message, "missing from o") || f[0].Checker != "blocks:p.c" {
		t.Errorf("missing from o: %v", f)
	}
	if f := b.Check(tree.Tree{"p.c": nil}, tree.Tree{}); len(f) != 1 || !strings.Contains(f[0].Message, "missing from o′") {
		t.Errorf("missing from o′: %v", f)
	}
}
