package examples_test

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/snapshot"
)

// relationFiles are the relation files of the examples: the YAML files
// under a relations, derived or godesc directory.
func relationFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Base(filepath.Dir(p)) {
		case "relations", "derived", "statements", "godesc":
		default:
			return nil
		}
		if strings.HasSuffix(p, ".yaml") && !strings.Contains(p, "node_modules") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("only %d relation files found: %v", len(files), files)
	}
	return files
}

// TestShippedRelationFilesUseCurrentKeys: every relation file of the
// examples loads, each on its own (those of ts2js with a pack's lets,
// which they read), without a warning: none writes a key under an old
// name.
func TestShippedRelationFilesUseCurrentKeys(t *testing.T) {
	for _, p := range relationFiles(t) {
		r := snapshot.NewReader()
		name, err := r.FSName(p)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{name}
		if strings.HasPrefix(filepath.ToSlash(p), "ts2js/") {
			pack, err := r.FSName(filepath.Join("esbuild", "pack.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, pack)
		}
		warn := func(w string) { t.Error(w) }
		if _, err := yamlrel.LoadWith(yamlrel.Options{Warn: warn, CheckerKinds: slices.Concat(protorel.Kinds, semrel.Kinds), Parsers: &tsParsers}, r.FS(), names...); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
