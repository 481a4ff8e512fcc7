package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// docBlockRx matches the yaml blocks of docs/config.md.
var docBlockRx = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocExamples parses every yaml block of docs/config.md, in a
// directory holding the files the examples name, so that the reference
// cannot drift from the parser. A block that leaves out a required section
// gets a minimal one.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlockRx.FindAllSubmatch(doc, -1)
	if len(blocks) < 10 {
		t.Fatalf("found %d yaml blocks in docs/config.md, want at least 10", len(blocks))
	}
	dir := t.TempDir()
	for _, f := range []string{"traffic.cll", "pump.cll", "cll.grammar", "grammars/c-like.txt", "relations/add.yaml"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fill := []struct{ key, section string }{
		{"transpiler", "transpiler: {builtin: cllc}\n"},
		{"seeds", "seeds: {files: [traffic.cll]}\n"},
		{"relations", "relations: {files: [relations/add.yaml]}\n"},
	}
	for i, b := range blocks {
		src := string(b[1])
		for _, f := range fill {
			if !regexp.MustCompile("(?m)^" + f.key + ":").MatchString(src) {
				src += f.section
			}
		}
		if _, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(src)); err != nil {
			t.Errorf("yaml block %d of docs/config.md:\n%s\n%v", i+1, b[1], err)
		}
	}
}

// TestDocKeys checks that docs/config.md names every key the parser knows.
func TestDocKeys(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range yamlKeys(reflect.TypeFor[fileYAML]()) {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/config.md does not describe the key %s", k)
		}
	}
}

// yamlKeys returns the yaml keys of a struct type and of the structs
// (behind pointers and slices) its fields hold.
func yamlKeys(ty reflect.Type) []string {
	for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
		ty = ty.Elem()
	}
	if ty.Kind() != reflect.Struct || ty == reflect.TypeFor[String]() || ty == reflect.TypeFor[Int]() {
		return nil
	}
	var keys []string
	for f := range ty.Fields() {
		if k := f.Tag.Get("yaml"); k != "" {
			keys = append(keys, k)
			keys = append(keys, yamlKeys(f.Type)...)
		}
	}
	return keys
}
