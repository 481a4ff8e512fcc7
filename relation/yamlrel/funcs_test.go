package yamlrel

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update: UPDATE_GOLDEN=1, the module's one switch for generated files,
// rewrites the generated parts of docs/relations.md and the want sections
// of the golden archives under testdata.
func update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

const (
	funcsBegin = "<!-- funcs: begin -->\n"
	funcsEnd   = "<!-- funcs: end -->\n"
)

// TestFuncsDoc: the table of template functions in docs/relations.md is
// the one funcList makes; UPDATE_GOLDEN=1 writes it there.
func TestFuncsDoc(t *testing.T) {
	checkDocSection(t, funcsBegin, funcsEnd, funcTable(), "TestFuncsDoc")
}

// checkDocSection fails unless the section of docs/relations.md between
// the lines begin and end is want, which UPDATE_GOLDEN=1 writes there; test is
// the test that checks it.
func checkDocSection(t *testing.T, begin, end, want, test string) {
	t.Helper()
	doc := filepath.Join("..", "..", "docs", "relations.md")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	before, rest, ok1 := strings.Cut(text, begin)
	table, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q section", doc, begin, end)
	}
	if table == want {
		return
	}
	if !update() {
		t.Fatalf("%s: the section %q is not what the code makes: UPDATE_GOLDEN=1 go test ./relation/yamlrel -run %s rewrites it\nit has:\n%s\nwant:\n%s", doc, strings.TrimSpace(begin), test, table, want)
	}
	tmp := doc + ".tmp"
	if err := os.WriteFile(tmp, []byte(before+begin+want+end+after), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, doc); err != nil {
		t.Fatal(err)
	}
}

// TestFuncsDocumented: every function has its arguments' place and a doc,
// and the table has a row per function.
func TestFuncsDocumented(t *testing.T) {
	for _, f := range Funcs() {
		if f.Name == "" || f.Doc == "" || f.Fn == nil {
			t.Errorf("function %q: name, doc and Go function are needed", f.Name)
		}
	}
	if rows := strings.Count(funcTable(), "\n| `"); rows != len(funcList) {
		t.Errorf("%d rows for %d functions", rows, len(funcList))
	}
	if len(funcs) != len(funcList) {
		t.Errorf("%d functions in the map, %d in the list", len(funcs), len(funcList))
	}
}

// find gives the first item whose key is the value, or an empty item, on
// a short list by a search and on a long one by an index, alike.
func TestFind(t *testing.T) {
	for _, n := range []int{3, memoMin + 5} {
		var xs []map[string]any
		for i := range n {
			xs = append(xs, map[string]any{"name": fmt.Sprintf("T%d", i%(n-1)), "what": fmt.Sprint(i)})
		}
		xs = append(xs, map[string]any{"other": "T0"})
		for _, tc := range []struct {
			value any
			want  string
		}{{"T1", "1"}, {"T0", "0"}, {"T99", ""}, {1, ""}} {
			got, err := find("name", tc.value, xs)
			if err != nil {
				t.Fatal(err)
			}
			if w, _ := got["what"].(string); w != tc.want || (tc.want == "" && len(got) != 0) {
				t.Errorf("%d items: find name %v = %v, want what %q", n, tc.value, got, tc.want)
			}
		}
		// an item without the key is no match, and the first of two is
		if got, _ := find("name", fmt.Sprintf("T%d", 0), xs); got["what"] != "0" {
			t.Errorf("%d items: find gave %v, not the first T0", n, got)
		}
	}
}
