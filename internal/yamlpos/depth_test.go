package yamlpos

import (
	"strings"
	"testing"
)

func TestCheckDepth(t *testing.T) {
	deep := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	refused := []struct {
		name, src string
		line, col int
	}{
		{"flow sequences", deep("[", "]", 200_000), 1, MaxDepth + 1},
		{"flow mappings", "a: " + deep("{a: ", "}", 1000), 1, 4 + 4*MaxDepth},
		{"compact sequences", strings.Repeat("- ", 1000) + "x\n", 1, 1 + 2*MaxDepth},
		{"after a comment and a string", "# [[[[\na: '[[[['\nb:\n  " + deep("[", "]", 1000), 4, 2 + MaxDepth},
		{"across lines", "a: [\n" + strings.Repeat("  [\n", 1000), MaxDepth + 1, 3},
	}
	for _, tc := range refused {
		err := checkDepth("f.yaml", []byte(tc.src), MaxDepth)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if err.Pos.Line != tc.line || err.Pos.Col != tc.col {
			t.Errorf("%s: error at %d:%d, want %d:%d (%v)", tc.name, err.Pos.Line, err.Pos.Col, tc.line, tc.col, err)
		}
	}
	// Brackets that open no collection are not counted: in quoted, plain
	// and block scalars, and in comments; and closed collections are not.
	many := strings.Repeat("[", 1000)
	accepted := map[string]string{
		"quoted":       "a: '" + many + "'\nb: \"" + many + "\\\"\"\n",
		"plain":        "a: x" + many + "\n",
		"block scalar": "a: |\n  " + many + "\n  " + many + "\nb: 1\n",
		"comment":      "a: 1 # " + many + "\n",
		"closed":       strings.Repeat("- "+deep("[", "]", MaxDepth-2)+"\n", 100),
		"regexp":       "match: '^\\s*states\\s+(?P<names>[A-Za-z0-9_,\\s]*)'\n",
	}
	for name, src := range accepted {
		if err := checkDepth("f.yaml", []byte(src), MaxDepth); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDecodeDeep(t *testing.T) {
	var v any
	err := Decode("deep.yaml", []byte(strings.Repeat("[", 200_000)), &v)
	if err == nil || err.Error() != "deep.yaml:1:201: collections nested deeper than 200 levels" {
		t.Errorf("got %v", err)
	}
}
