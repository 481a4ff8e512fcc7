package dtsprobe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// TestFindTypeScript: the package is found as node finds it, from a
// directory up.
func TestFindTypeScript(t *testing.T) {
	root := t.TempDir()
	ts := filepath.Join(root, "node_modules", "typescript")
	deep := filepath.Join(root, "a", "b")
	for _, d := range []string{ts, deep} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if got := FindTypeScript(deep); got != "" {
		t.Errorf("found %s before it was installed", got)
	}
	if err := os.WriteFile(filepath.Join(ts, "package.json"), []byte("{}"), 0o666); err != nil {
		t.Fatal(err)
	}
	if got := FindTypeScript(deep); got != ts {
		t.Errorf("found %q, want %s", got, ts)
	}
}

// TestUndecided: without TypeScript, or without the declaration file,
// the check cannot decide.
func TestUndecided(t *testing.T) {
	o2 := tree.Tree{"m.d.ts": []byte("export declare const A = 1;\n")}
	for _, c := range []struct {
		check Check
		want  string
	}{
		{Check{File: "m.d.ts", Member: "A"}, "no TypeScript package found"},
		{Check{File: "n.d.ts", Member: "A", TypeScript: "/nonexistent"}, "n.d.ts is not in o′"},
		{Check{File: "m.d.ts", Member: "A", TypeScript: "/nonexistent", Node: "/nonexistent/node"}, "node is not available"},
	} {
		v := c.check.DecideContext(context.Background(), nil, o2)
		if len(v.Fails) > 0 || len(v.Undecided) != 1 || !strings.Contains(v.Undecided[0], c.want) {
			t.Errorf("%+v: %+v, want undecided %q", c.check, v, c.want)
		}
	}
}
