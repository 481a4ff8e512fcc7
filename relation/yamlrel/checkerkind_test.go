package yamlrel

import (
	"fmt"
	"strings"
	"testing"
)

const (
	kindsBegin = "<!-- checker kinds: begin -->\n"
	kindsEnd   = "<!-- checker kinds: end -->\n"
)

// kindTable is the table of checker kinds docs/relations.md shows: each
// kind's name, its help line and the rest of its doc.
func kindTable() string {
	var b strings.Builder
	b.WriteString("| kind | checks | spec |\n|---|---|---|\n")
	for _, k := range CheckerKinds {
		help, rest, _ := strings.Cut(k.Doc, "\n")
		cell := strings.NewReplacer("|", `\|`, "\n", " ").Replace
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.Name, cell(help), cell(rest))
	}
	return b.String()
}

// TestCheckerKindsDoc: the table of checker kinds in docs/relations.md is
// the one CheckerKinds makes, and every kind has a name, a doc of a help
// line and its keys, and New; UPDATE_GOLDEN=1 writes the table.
func TestCheckerKindsDoc(t *testing.T) {
	for _, k := range CheckerKinds {
		if k.Name == "" || k.New == nil || !strings.Contains(k.Doc, "\n") {
			t.Errorf("checker kind %q: a name, New, and a doc of two parts (what it checks, its keys) are needed", k.Name)
		}
	}
	checkDocSection(t, kindsBegin, kindsEnd, kindTable(), "TestCheckerKindsDoc")
}

// TestCheckerKindsOptions: a kind of the options joins CheckerKinds; one
// whose name is taken is an error.
func TestCheckerKindsOptions(t *testing.T) {
	mine := CheckerKind{Name: "mine", Doc: "Mine.\nNo keys.", New: newEquivalence}
	kinds, err := checkerKinds([]CheckerKind{mine})
	if err != nil || len(kinds) != len(CheckerKinds)+2 || kinds["mine"].Name != "mine" {
		t.Errorf("kinds %v, error %v", len(kinds), err)
	}
	if _, err := checkerKinds([]CheckerKind{{Name: "locality", Doc: "x", New: newEquivalence}}); err == nil || !strings.Contains(err.Error(), "checker kind locality given twice") {
		t.Errorf("a kind named as one of CheckerKinds: %v", err)
	}
	for _, name := range []string{"if", "name", "when"} {
		if _, err := checkerKinds([]CheckerKind{{Name: name, Doc: "x", New: newEquivalence}}); err == nil || !strings.Contains(err.Error(), "the name is a key of every check") {
			t.Errorf("a kind named %s: %v", name, err)
		}
	}
}
