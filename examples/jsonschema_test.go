package examples_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/syntax"
)

const jsonSchemaDir = "jsonschema"

// jsonKey is a key json.grammar reads as a declared name.
var jsonKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// jsonDeclared are the names a JSON document declares as json.grammar
// reads it, by kind (prop, def): the keys of every "properties" object,
// and of every "definitions" or "$defs" object, whose keys are all names.
func jsonDeclared(t *testing.T, src []byte) map[string][]string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				kind := map[string]string{"properties": "prop", "definitions": "def", "$defs": "def"}[k]
				if m, ok := e.(map[string]any); ok && kind != "" {
					var names []string
					for n := range m {
						if !jsonKey.MatchString(n) {
							names = nil
							break
						}
						names = append(names, n)
					}
					out[kind] = append(out[kind], names...)
				}
				walk(e)
			}
		}
	}
	walk(v)
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// treeDeclared are the names a tree declares, by kind.
func treeDeclared(tr *syntax.Tree) map[string][]string {
	out := map[string][]string{}
	syntax.Walk(tr.Root, func(n *syntax.Node) bool {
		if n.Field == "new" {
			out[n.Kind] = append(out[n.Kind], n.Text(tr.Src))
		}
		return true
	})
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// TestJSONSchemaGrammar: the grammar of the json2ts example reads every
// JSON Schema of the corpus and the example's layout.json, with the keys
// of their properties and definitions, and nothing else, as declared
// names; the schemas it generates are JSON, and read back the same way.
func TestJSONSchemaGrammar(t *testing.T) {
	g, err := grammar.ParseFile(filepath.Join(jsonSchemaDir, "json.grammar"))
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	files, _ := filepath.Glob("../testdata/corpus/jsonschema/*.json")
	if len(files) < 20 {
		t.Fatalf("%d corpus files, want 20 or more", len(files))
	}
	// and layout.json, in the layouts real schemas use
	files = append(files, filepath.Join(jsonSchemaDir, "layout.json"))
	props, defs := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := p.Parse(filepath.Base(f), src)
		if err != nil {
			t.Error(err)
			continue
		}
		got, want := treeDeclared(tr), jsonDeclared(t, src)
		for _, k := range []string{"prop", "def"} {
			if !slices.Equal(got[k], want[k]) {
				t.Errorf("%s: %s declares %v, want %v", f, k, got[k], want[k])
			}
		}
		if len(got["prop"]) == 0 {
			t.Errorf("%s: no property declared", f)
		}
		props += len(got["prop"])
		defs += len(got["def"])
	}
	if defs == 0 {
		t.Error("no definition declared in the corpus")
	}
	t.Logf("%d files, %d properties, %d definitions", len(files), props, defs)

	b, err := grammar.Generate(g, grammar.Options{N: 100, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, prog := range b.Programs {
		if !json.Valid(prog.Source) {
			t.Fatalf("seed %d is no JSON:\n%s", i+1, prog.Source)
		}
		tr, err := p.Parse(fmt.Sprintf("seed-%d.json", i+1), prog.Source)
		if err != nil {
			t.Fatalf("%v\n%s", err, prog.Source)
		}
		got, want := treeDeclared(tr), jsonDeclared(t, prog.Source)
		if !slices.Equal(got["prop"], want["prop"]) || !slices.Equal(got["def"], want["def"]) {
			t.Fatalf("seed %d declares %v, want %v:\n%s", i+1, got, want, prog.Source)
		}
	}
}

// needJSON2TS skips the test unless MCPT_TEST_TOOLS=1, and then fails it
// when json-schema-to-typescript is not installed in the example.
func needJSON2TS(t *testing.T) {
	t.Helper()
	testtier.Tools(t, "apt-get install nodejs npm", "node")
	if _, err := os.Stat(filepath.Join(jsonSchemaDir, "node_modules", "json-schema-to-typescript", "package.json")); err != nil {
		t.Fatalf("json-schema-to-typescript is not installed in examples/jsonschema: run `npm ci` there (scripts/test does): %v", err)
	}
}

// TestJSONSchemaSeedsAccepted (tools tier): json2ts accepts the schemas
// the grammar generates (mcpt seeds -g json.grammar).
func TestJSONSchemaSeedsAccepted(t *testing.T) {
	needJSON2TS(t)
	g, err := grammar.ParseFile(filepath.Join(jsonSchemaDir, "json.grammar"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := grammar.Generate(g, grammar.Options{N: 30, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := b.WriteDir(filepath.Join(dir, "seeds"), "json")
	if err != nil {
		t.Fatal(err)
	}
	json2ts, err := filepath.Abs(filepath.Join(jsonSchemaDir, "node_modules", ".bin", "json2ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		out := filepath.Join(dir, "out", filepath.Base(path)+".d.ts")
		cmd := exec.Command(json2ts, "-i", path, "-o", out, "--unreachableDefinitions")
		if msg, err := cmd.CombinedOutput(); err != nil {
			src, _ := os.ReadFile(path)
			t.Errorf("json2ts rejects %s: %v\n%s\n%s", filepath.Base(path), err, msg, src)
		}
	}
}

// TestJSONSchemaZeroConfig (tools tier) runs the json2ts example, a
// zero-config campaign on the corpus's JSON Schemas read with the
// example's grammar: json2ts is correct, so every oracle finding is a
// false alarm. 60 test cases, as TestZeroConfigCorpus; MCPT_CORPUS_CASES
// sets them (the figures of docs/zeroconfig.md are for 300).
func TestJSONSchemaZeroConfig(t *testing.T) {
	needJSON2TS(t)
	cases := 60
	if n, err := strconv.Atoi(os.Getenv("MCPT_CORPUS_CASES")); err == nil && n > 0 {
		cases = n
	}
	_, rep := runInferred(t, filepath.Join(jsonSchemaDir, "mcpt.yaml"), nil, cases)
	alarms, rejected := 0, 0
	for _, f := range rep.Findings {
		if f.Kind == result.RejectedFollowUp {
			rejected++
			continue
		}
		alarms++
		t.Errorf("false alarm: %s %s %s on %s (%s): %s\n%s", f.Relation, f.Kind, f.Checker, filepath.Base(f.SeedFile), f.Spot.Desc, f.Message, f.Diff)
	}
	decided, undecided := 0, 0
	for name, st := range rep.ByRelation {
		d := 0
		for _, cs := range st.Checkers {
			d += cs.Decided
			undecided += cs.Undecided
		}
		if name == "copy-property-in-properties" && d == 0 {
			t.Errorf("%s decided no check", name)
		}
		decided += d
	}
	t.Logf("%d test cases, %d oracle false alarms, %d rejected follow-ups, %d checks decided, %d undecided", rep.TestCases, alarms, rejected, decided, undecided)
	if rep.TestCases < cases {
		t.Errorf("%d test cases of %d", rep.TestCases, cases)
	}
	if rejected*100 > rep.TestCases {
		t.Errorf("%d of %d follow-ups rejected: more than 1 %%", rejected, rep.TestCases)
	}
}
