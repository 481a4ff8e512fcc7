package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadThroughSnapshot: a Load given an earlier setup as
// Options.Snapshot reads the files the earlier one read from its
// snapshot, not from disk: the configuration, relation files, seeds and
// grammar changed on disk in between change nothing of it, while a Load
// without it sees the change; a file the earlier Load did not read is
// read. mcpt bench loads a pack twice (with and without its semantic
// checks) and the two modes of its workers comparison this way.
func TestLoadThroughSnapshot(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	relations := func(name string) string {
		return "relations:\n  - name: " + name + "\n    doc: A timer.\n    spots: {boundaries: decls}\n    fresh: [n]\n    text: 'timer {{.n}}'\n    checks: [{equivalence: {}}]\n"
	}
	rel := func(name string) string {
		return "syntax: cll\nfresh_pattern: 'Zq[a-z]{6}'\nregions:\n  decls: {node: [body], members: [forward, states, decl]}\n" + relations(name)
	}
	write("a.prog", "x\n")
	write("rel.yaml", rel("first"))
	write("other.yaml", relations("other"))
	write("g.grammar", "program = \"x\" ;\n")
	write("mcpt.yaml", "transpiler: {command: [cp, '{input}', '{outdir}']}\nseeds: {files: [a.prog]}\nrelations: {files: [rel.yaml]}\n")
	write("two.yaml", "transpiler: {command: [cp, '{input}', '{outdir}']}\nseeds: {files: [a.prog]}\nrelations: {files: [rel.yaml, other.yaml]}\n")
	cfg := filepath.Join(dir, "mcpt.yaml")

	s, err := Load(cfg, Options{Skip: SkipTranspiler, NoRelease: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGrammar(filepath.Join(dir, "g.grammar"), s); err != nil {
		t.Fatal(err)
	}
	write("rel.yaml", rel("second"))
	write("a.prog", "changed\n")
	write("g.grammar", "broken")
	write("mcpt.yaml", "transpiler: {command: [cp, '{input}', '{outdir}']}\nseeds: {files: [a.prog]}\nrelations: {files: [rel.yaml]}\nbudget: {max_cases: 3}\n")

	again, err := Load(cfg, Options{Skip: SkipTranspiler, NoRelease: true, Snapshot: s})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Relations) != 1 || again.Relations[0].Name != "first" || string(again.Seeds[0].Src) != "x\n" || again.Config.Budget.MaxCases != 0 {
		t.Errorf("through the snapshot: relations %v, seed %q, budget %+v; want the files as first read", again.Relations, again.Seeds[0].Src, again.Config.Budget)
	}
	if _, err := ReadGrammar(filepath.Join(dir, "g.grammar"), s); err != nil {
		t.Errorf("the grammar through the snapshot: %v", err)
	}
	fresh, err := Load(cfg, Options{Skip: SkipTranspiler, NoRelease: true})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Relations[0].Name != "second" || string(fresh.Seeds[0].Src) != "changed\n" || fresh.Config.Budget.MaxCases != 3 {
		t.Errorf("from disk: relations %v, seed %q", fresh.Relations, fresh.Seeds[0].Src)
	}
	if _, err := ReadGrammar(filepath.Join(dir, "g.grammar"), nil); err == nil {
		t.Error("the broken grammar from disk reads")
	}

	// Another configuration on the same inputs: what the first read is
	// not read again, the rest is.
	two, err := Load(filepath.Join(dir, "two.yaml"), Options{Skip: SkipTranspiler, NoRelease: true, Snapshot: s})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range two.Relations {
		names = append(names, r.Name)
	}
	if strings.Join(names, " ") != "first other" || string(two.Seeds[0].Src) != "x\n" {
		t.Errorf("another configuration through the snapshot: relations %v, seed %q", names, two.Seeds[0].Src)
	}
}
