package yamlrel

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// languageKeys lists every key the decoder of relation files takes, as
// "MAPPING KEY" (MAPPING the dotted path of the mapping that holds the key,
// NAME for a name the file chooses, "." for the top of a file), and the old
// names as "MAPPING OLD NEW"; it walks the yaml tags of the schema structs.
func languageKeys() (keys, olds []string) {
	var walk func(at string, t reflect.Type)
	walk = func(at string, t reflect.Type) {
		for f := range t.Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if key == "" || key == "-" {
				continue
			}
			keys = append(keys, at+" "+key)
			for _, old := range strings.Fields(f.Tag.Get("was")) {
				olds = append(olds, at+" "+old+" "+key)
			}
			inner := strings.TrimPrefix(at+"."+key, "..")
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct && ft.Elem() != reflect.TypeFor[yamlpos.String]() {
				ft, inner = ft.Elem(), inner+".NAME"
			}
			if ft == reflect.TypeFor[checkYAML]() {
				keys = append(keys, inner+" if", inner+" name")
				olds = append(olds, inner+" when if", inner+" go KIND")
				for _, k := range CheckerKinds {
					keys = append(keys, inner+" "+k.Name)
					if spec := specType(k); spec != nil {
						walk(inner+"."+k.Name, spec)
					}
				}
				continue
			}
			if ft.Kind() == reflect.Struct && ft != reflect.TypeFor[yamlpos.String]() && ft != reflect.TypeFor[matcherYAML]() {
				walk(inner, ft)
			}
		}
	}
	walk(".", reflect.TypeFor[fileYAML]())
	return keys, olds
}

// specType is the struct a checker kind decodes its spec into, as New
// given an empty spec decodes it.
func specType(k CheckerKind) reflect.Type {
	spec := &Spec{Kind: String{Value: k.Name}}
	k.New(spec) //nolint:errcheck // an empty spec may well be wrong
	t := spec.decoded
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

// grammarRow is a row of the grammar of docs/relations.md: | `MAPPING` | `KEY` | … |.
var grammarRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)` \\| (?:`([^`]+)` \\| )?")

// docSection is the section of doc under the heading (a line "## …"),
// up to the next such heading.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	start := strings.Index(doc, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("docs/relations.md has no section %s", heading)
	}
	doc = doc[start+1:]
	if end := strings.Index(doc[3:], "\n## "); end >= 0 {
		doc = doc[:end+3]
	}
	return doc
}

// appendixHeading is the heading of the appendix of docs/relations.md on
// the line model: the only part that teaches it, whose table lists its
// keys.
const appendixHeading = "## Appendix: inputs read as text"

// TestGrammarDoc: the grammar of docs/relations.md (with the table of the
// appendix on inputs read as text) names every key the decoder takes, in
// the mapping it takes it in, and no other; its table of old names names
// every old name.
func TestGrammarDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "relations.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := docSection(t, string(b), "## Grammar") + docSection(t, string(b), appendixHeading)
	var documented, documentedOld []string
	for _, m := range grammarRow.FindAllStringSubmatch(doc, -1) {
		if m[3] != "" {
			documentedOld = append(documentedOld, m[1]+" "+m[2]+" "+m[3])
		} else {
			documented = append(documented, m[1]+" "+m[2])
		}
	}
	keys, olds := languageKeys()
	compare := func(what string, want, have []string) {
		for _, k := range want {
			if !slices.Contains(have, k) {
				t.Errorf("docs/relations.md, ## Grammar: no row for the %s %q", what, k)
			}
		}
		for _, k := range have {
			if !slices.Contains(want, k) {
				t.Errorf("docs/relations.md, ## Grammar: a row for the %s %q, which the decoder does not take", what, k)
			}
		}
	}
	compare("key", keys, documented)
	compare("old name", olds, documentedOld)
}

// keyNamesCeiling is the number of distinct key names of the language (a
// name counted once whatever the mappings that take it), which a new key
// raises on purpose: 107 before each word got one meaning, 105 after.
const keyNamesCeiling = 105

// TestKeyNames: the language has no more distinct key names than the
// ceiling.
func TestKeyNames(t *testing.T) {
	keys, _ := languageKeys()
	names := map[string]bool{}
	for _, k := range keys {
		_, name, _ := strings.Cut(k, " ")
		names[name] = true
	}
	if len(names) > keyNamesCeiling {
		t.Errorf("%d distinct key names, more than the %d of keyNamesCeiling: a key of the language is one more for every user to learn; reuse a name of the same meaning, or raise the ceiling on purpose", len(names), keyNamesCeiling)
	}
}

// TestOneMeaning: the words that once had two meanings are keys of the
// mappings of one meaning only: list, the group of a declaration's list;
// kind, a kind of declarations; skip, the lines of no declaration (inputs
// read as text); files, the only files a check looks at; before and after,
// where an edit goes.
func TestOneMeaning(t *testing.T) {
	allowed := map[string][]string{
		"list":   {"kinds.NAME"},
		"kind":   {"relations.spots.lists", "relations.choose", "relations.clone"},
		"skip":   {"."},
		"files":  {"relations.checks.locality", "relations.checks.order", "relations.checks.analogy"},
		"before": {"relations.checks.difference.edits.where"},
		"after":  {"relations.checks.difference.edits.where"},
	}
	keys, _ := languageKeys()
	seen := map[string]int{}
	for _, k := range keys {
		at, name, _ := strings.Cut(k, " ")
		if want, ok := allowed[name]; ok {
			seen[name]++
			if !slices.Contains(want, at) {
				t.Errorf("the key %s of %s: %s has one meaning, that of %s", name, at, name, strings.Join(want, ", "))
			}
		}
	}
	for name, want := range allowed {
		if seen[name] != len(want) {
			t.Errorf("the key %s is taken in %d mappings, want %d (%s)", name, seen[name], len(want), strings.Join(want, ", "))
		}
	}
}
