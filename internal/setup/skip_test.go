package setup

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadSkips: Load leaves out the parts Options.Skip names, reading
// the rest as it always does: without the transpiler, a command whose
// program is not installed loads (mcpt experiment runs an instrumented
// build in its place); without relations and seeds, a relation file in
// error and a seed that is no text do not matter (mcpt seeds --accept). The
// normalisation rules are the configuration's, compiled once.
func TestLoadSkips(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.prog", "x\n")
	write("rel.yaml", "relations: []\n")
	write("mcpt.yaml", "transpiler: {command: [no-such-transpiler-installed, '{input}']}\nseeds: {files: [a.prog]}\nrelations: {files: [rel.yaml]}\n"+
		"normalize:\n  - {match: '^// at .*', files: ['*.c']}\n")
	cfg := filepath.Join(dir, "mcpt.yaml")

	if _, err := Load(cfg, Options{NoRelease: true}); err == nil || !strings.Contains(err.Error(), "no-such-transpiler-installed") {
		t.Fatalf("a program that is not installed, with the transpiler: %v", err)
	}
	s, err := Load(cfg, Options{Skip: SkipTranspiler, NoRelease: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Transpiler != nil || len(s.Seeds) != 1 || s.Seeds[0].Name != "a.prog" {
		t.Errorf("without the transpiler: transpiler %v, seeds %v", s.Transpiler, s.Seeds)
	}
	if want := []string{"a.prog", "mcpt.yaml", "rel.yaml"}; !slices.Equal(s.Files.Names(), want) {
		t.Errorf("snapshot %v, want %v", s.Files.Names(), want)
	}
	if len(s.Normalize) != 1 || s.Normalize[0].Match.String() != "^// at .*" || &s.Normalize[0] != &s.Config.Normalize[0] {
		t.Errorf("normalisation %+v, want the configuration's rule", s.Normalize)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}

	write("rel.yaml", "relations: [{name: broken\n")
	write("a.prog", "\xff\n")
	if _, err := Load(cfg, Options{Skip: SkipTranspiler | SkipRelations, NoRelease: true}); err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("a seed that is not UTF-8, with the seeds: %v", err)
	}
	write("mcpt.yaml", "transpiler: {builtin: none-here}\nseeds: {files: [a.prog]}\nrelations: {files: [rel.yaml]}\n")
	if _, err := Load(cfg, Options{Skip: SkipTranspiler | SkipSeeds, NoRelease: true}); err == nil || !strings.Contains(err.Error(), "rel.yaml") {
		t.Errorf("a broken relation file, with the relations: %v", err)
	}
	s, err = Load(cfg, Options{Skip: SkipTranspiler | SkipRelations | SkipSeeds, NoRelease: true})
	if err != nil {
		t.Fatalf("the configuration alone: %v", err)
	}
	if len(s.Relations) != 0 || len(s.Seeds) != 0 || !slices.Equal(s.Files.Names(), []string{"mcpt.yaml"}) {
		t.Errorf("the configuration alone: relations %d, seeds %d, snapshot %v", len(s.Relations), len(s.Seeds), s.Files.Names())
	}
}
