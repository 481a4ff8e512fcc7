package oracle

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// TestNormalizerJSON: the rules read and write the JSON form recipes have
// always had ({"files", "match", "replace"}); a recipe of an earlier mcpt
// reads back into rules that normalise as the configuration's did, and a
// pattern that does not compile is an error of the reading.
func TestNormalizerJSON(t *testing.T) {
	stamp := "${1}N"
	n := Normalizer{
		{Match: regexp.MustCompile(`^// generated at .*$`)},
		{Files: []string{"cpp/*"}, Match: regexp.MustCompile(`\b(tmp)[0-9]+\b`), Replace: &stamp},
	}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	// What bundle.Rule, the recipe's own type before this one, wrote.
	old := `[{"match":"^// generated at .*$"},{"files":["cpp/*"],"match":"\\b(tmp)[0-9]+\\b","replace":"${1}N"}]`
	if string(b) != old {
		t.Errorf("JSON\n%s\nwant\n%s", b, old)
	}
	var back Normalizer
	if err := json.Unmarshal([]byte(old), &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check(); err != nil {
		t.Fatal(err)
	}
	in := tree.Tree{"cpp/a.cpp": []byte("// generated at 12:00\nint tmp12;\n"), "py/a.py": []byte("tmp3\n")}
	for name, want := range map[string]string{"cpp/a.cpp": "int tmpN;\n", "py/a.py": "tmp3\n"} {
		if got := string(back.Apply(in)[name]); got != want {
			t.Errorf("%s normalised by the rules read back: %q, want %q", name, got, want)
		}
	}

	var bad Normalizer
	if err := json.Unmarshal([]byte(`[{"match":"(unclosed"}]`), &bad); err == nil || !strings.Contains(err.Error(), "normalisation rule \"(unclosed\": error parsing regexp: missing closing )") {
		t.Errorf("a pattern that does not compile: %v", err)
	}
	for text, want := range map[string]string{
		`[{"files":["*.c"]}]`:                          "normalisation rule 1 has no match",
		`[{"match":"x"},{"match":"y","files":["[z"]}]`: `normalisation rule 2 (y): bad file pattern "[z"`,
	} {
		var n Normalizer
		if err := json.Unmarshal([]byte(text), &n); err != nil {
			t.Fatal(err)
		}
		if err := n.Check(); err == nil || err.Error() != want {
			t.Errorf("%s: Check says %v, want %q", text, err, want)
		}
	}
}
