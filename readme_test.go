package mcpt_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// readmeRelation is the relation file README.md shows in "Using mcpt on
// your transpiler", its indentation as a list item taken off.
func readmeRelation(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "2. Write relations")
	if i < 0 {
		t.Fatal(`README.md has no item "2. Write relations"`)
	}
	j := strings.Index(s[i:], "```yaml\n")
	if j < 0 {
		t.Fatal("README.md shows no relation file in item 2")
	}
	body := s[i+j+len("```yaml\n"):]
	body = body[:strings.Index(body, "```")]
	var b strings.Builder
	for _, l := range strings.Split(body, "\n") {
		b.WriteString(strings.TrimPrefix(l, "   "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReadmeRelation: the relation file of the README is complete as
// shown: beside a copy of the CLL grammar, on the CLL example's seeds, it
// finds nothing with the correct cllc and finds the fault of the demo.
func TestReadmeRelation(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"cll.grammar", "traffic.cll", "elevator.cll", "boiler.cll"} {
		data, err := os.ReadFile(filepath.Join("examples", "cll", f))
		if err != nil {
			t.Fatal(err)
		}
		write(f, data)
	}
	write("relations/values.yaml", []byte(readmeRelation(t)))
	for _, fault := range []string{"", "reverse-enums"} {
		cfg := "transpiler:\n  builtin: cllc\n"
		if fault != "" {
			cfg += "  faults: [" + fault + "]\n"
		}
		cfg += "seeds: {files: ['*.cll']}\nrelations: {files: ['relations/*.yaml']}\nbudget: {max_cases: 60}\n"
		write("mcpt.yaml", []byte(cfg))
		c, err := mcpt.Load(filepath.Join(dir, "mcpt.yaml"), mcpt.Builtin(cllc.Name, cllc.New))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := c.Run(context.Background())
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rep.TestCases != 60 {
			t.Errorf("fault %q: %d test cases, want 60", fault, rep.TestCases)
		}
		switch {
		case fault == "" && len(rep.Findings) > 0:
			t.Errorf("the correct cllc gives %d findings, e.g. %s", len(rep.Findings), rep.Findings[0].Message)
		case fault != "" && len(rep.Findings) == 0:
			t.Errorf("the fault %s is not found", fault)
		}
	}
}
