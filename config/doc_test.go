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
	for _, f := range []string{"traffic.cll", "pump.cll", "cll.grammar", "grammars/c-like.txt", "relations/add.yaml", "graphql.grammar", "schemas/shop.graphql"} {
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
			// (a zero-config example has no relations: the syntax of its
			// seeds stands in their place)
			zero := f.key == "relations" && regexp.MustCompile("(?m)^syntax:").MatchString(src)
			if !zero && !regexp.MustCompile("(?m)^"+f.key+":").MatchString(src) {
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
		k, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if k != "" && k != "-" {
			keys = append(keys, k)
		}
		if k != "-" && (k != "" || opt == "inline") {
			keys = append(keys, yamlKeys(f.Type)...)
		}
	}
	return keys
}

// TestSignature reads the signature section and reports a form mcpt does
// not know and a generic word with a space, each at its place.
func TestSignature(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.cll", "r.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	head := "transpiler: {builtin: cllc}\nseeds: {files: [a.cll]}\nrelations: {files: [r.yaml]}\n"
	c, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(head+"signature:\n  forms: [written, camel]\n  generic: [ctx, next_state]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Signature, Signature{Forms: []string{"written", "camel"}, Generic: []string{"ctx", "next_state"}}) {
		t.Errorf("signature = %+v", c.Signature)
	}
	_, err = Parse(filepath.Join(dir, "mcpt.yaml"), []byte(head+"signature:\n  forms: [written, title]\n  generic: ['a b']\n"))
	for _, want := range []string{`mcpt.yaml:5:20: signature: unknown name form "title"`, `mcpt.yaml:6:13: signature: a generic word is one word, found "a b"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %s", err, want)
		}
	}
}
