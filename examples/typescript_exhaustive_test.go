package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
)

// TestTypeScriptExhaustiveEnums: an enum that keys a Record or a mapped
// type, or whose switch ends in a never check, takes no new member from
// the enum relations of either configuration (tsc would reject the
// follow-up: the seed's own table or switch misses the member), while an
// enum of the same file that nothing uses so has its spots. (Tools tier:
// loading the pack's configurations needs its tsc installed.)
func TestTypeScriptExhaustiveEnums(t *testing.T) {
	needTsc(t)
	const seed = `export enum Level { Debug, Info, Warn }
export const levelNames: Record<Level, string> = {
  [Level.Debug]: "debug",
  [Level.Info]: "info",
  [Level.Warn]: "warn",
};
export enum Shape { Circle = 1, Square = 2 }
export function sides(s: Shape): number {
  switch (s) {
    case Shape.Circle: return 0;
    case Shape.Square: return 4;
    default: { const never: never = s; return never; }
  }
}
export enum Mode { Read = "r", Write = "w" }
export type ModeFlags = { [m in Mode]: boolean };
export enum Free { A, B }
`
	dir := t.TempDir()
	file := filepath.Join(dir, "exhaustive.ts")
	if err := os.WriteFile(file, []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
		// Without the transpiler: spots need no compiler, so this runs
		// without tsc installed.
		s, err := setup.Load(filepath.Join(tsDir, cfg), setup.Options{SeedFiles: []string{file}, Skip: setup.SkipTranspiler, NoRelease: true, Tools: &setup.Tools{Parsers: tsParsers}})
		if err != nil {
			t.Fatal(err)
		}
		free := 0
		for _, r := range s.Relations {
			if !strings.HasPrefix(r.Name, "add-enum-member") {
				continue
			}
			// the pack's relations read the release (the one package.json
			// pins), which the version command is not run to tell
			ss, err := r.Spots(context.Background(), relation.Input{Name: "exhaustive.ts", Src: []byte(seed), Release: "5.9.3"})
			if err != nil {
				t.Fatal(err)
			}
			for _, sp := range ss {
				for _, e := range []string{"Level", "Shape", "Mode"} {
					if strings.Contains(sp.Desc, "of "+e+",") {
						t.Errorf("%s: a spot in an exhaustive enum: %s", r.Name, sp.Desc)
					}
				}
				if strings.Contains(sp.Desc, "of Free") {
					free++
				}
			}
		}
		if free == 0 {
			t.Errorf("%s: no spot in enum Free", cfg)
		}
	}
}
