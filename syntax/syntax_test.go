package syntax

import "testing"

func TestPosition(t *testing.T) {
	src := []byte("ab\ncd\n\nx")
	for _, c := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {7, 4, 1},
	} {
		l, col := Position(src, c.off)
		if l != c.line || col != c.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
}

func TestWalkAndParents(t *testing.T) {
	leaf := &Node{Kind: "b"}
	root := &Node{Kind: "a", Children: []*Node{leaf, {Kind: "c", Children: []*Node{{Kind: "d"}}}}}
	LinkParents(root)
	var kinds string
	Walk(root, func(n *Node) bool { kinds += n.Kind; return n.Kind != "c" })
	if kinds != "abc" {
		t.Errorf("Walk visited %q, want abc (c's children skipped)", kinds)
	}
	if leaf.Parent != root {
		t.Error("LinkParents did not set the parent")
	}
}
