package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeScriptIndexedTypes: the relations that add a member to an
// interface or an object type (exact, derived and semantic) have no spot
// in one with an index signature, whose type a new member must agree with
// (zod's `{ [k: string]: $ZSFLiteral }` in
// testdata/corpus/typescript/zod-zsf.ts: tsc rejected the follow-up with
// TS2411), nor in a mapped type, which takes no member; one without them
// keeps its spots.
func TestTypeScriptIndexedTypes(t *testing.T) {
	const seed = `export interface Literal { value: string }
export interface Table { [k: string]: Literal }
export interface Mixed { first: number; readonly [k: string]: unknown; last: string }
export type Flags = { [K in "x" | "y"]: boolean };
export type Options = { first: number; second?: string };
`
	dir := t.TempDir()
	file := filepath.Join(dir, "indexed.ts")
	if err := os.WriteFile(file, []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []string{"mcpt.yaml", "derived.yaml", "derived.semantic.yaml"} {
		var options, literal int
		for _, sp := range tsSpots(t, cfg, file, seed, "member") {
			t.Logf("%s: %s", cfg, sp.Desc)
			for _, e := range []string{"Table", "Mixed", "Flags"} {
				if strings.Contains(sp.Desc, e) {
					t.Errorf("%s: a spot in an object type with an index signature or a mapped type: %s", cfg, sp.Desc)
				}
			}
			if strings.Contains(sp.Desc, "Options") {
				options++
			}
			if strings.Contains(sp.Desc, "Literal") {
				literal++
			}
		}
		if options == 0 && cfg != "derived.semantic.yaml" {
			t.Errorf("%s: no spot in the object type Options", cfg)
		}
		if literal == 0 {
			t.Errorf("%s: no spot in the interface Literal", cfg)
		}
	}
}
