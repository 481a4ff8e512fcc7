package token

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocReservedWords checks that the reserved words docs/cll.md lists
// (Lexical rules) are exactly the keywords and type names of the scanner.
func TestDocReservedWords(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cll.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)the keywords `([^`]*)`\\s+and the type names `([^`]*)`").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/cll.md lists no keywords and type names")
	}
	got := strings.Fields(string(m[1]) + " " + string(m[2]))
	var want []string
	for w := range reserved {
		want = append(want, w)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("docs/cll.md lists the reserved words\n%v\nthe scanner has\n%v", got, want)
	}
}
