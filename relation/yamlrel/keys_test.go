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

// TestGrammarDoc: the grammar of docs/relations.md names every key the
// decoder takes, in the mapping it takes it in, and no other; its table of
// old names names every old name.
func TestGrammarDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "relations.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## Grammar\n")
	if start < 0 {
		t.Fatal("docs/relations.md has no section ## Grammar")
	}
	doc = doc[start+1:]
	if end := strings.Index(doc[3:], "\n## "); end >= 0 {
		doc = doc[:end+3]
	}
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
