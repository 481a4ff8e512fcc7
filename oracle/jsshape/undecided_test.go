package jsshape

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// TestUndecided: without node, or without the module in o, the check
// cannot decide; a module o′ lost is a finding.
func TestUndecided(t *testing.T) {
	o := tree.Tree{"m.js": []byte("export const A = 1;\n")}
	v := (&Check{File: "m.js", Node: "/nonexistent/node"}).DecideContext(context.Background(), o, o)
	if len(v.Fails) > 0 || len(v.Undecided) != 1 || !strings.Contains(v.Undecided[0], "node is not available") {
		t.Errorf("without node: %+v", v)
	}
	v = (&Check{File: "n.js"}).DecideContext(context.Background(), o, o)
	if len(v.Fails) > 0 || len(v.Undecided) != 1 || !strings.Contains(v.Undecided[0], "n.js is not in o") {
		t.Errorf("without the module: %+v", v)
	}
	v = (&Check{File: "m.js"}).DecideContext(context.Background(), o, tree.Tree{})
	if len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "m.js is in o but not in o′") {
		t.Errorf("a module o′ lost: %+v", v)
	}
}
