package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
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
		s, err := setup.Load(filepath.Join(tsDir, cfg), setup.Options{SeedFiles: []string{file}, Skip: setup.SkipTranspiler, NoRelease: true})
		if err != nil {
			t.Fatal(err)
		}
		free := 0
		for _, r := range s.Relations {
			if !strings.HasPrefix(r.Name, "add-enum-member") {
				continue
			}
			for _, e := range []string{"Level", "Shape", "Mode"} {
				noSpots(t, s, r.Name, file, "an exhaustive enum", "of "+e+",")
			}
			free += len(spotDescs(t, r, "exhaustive.ts", []byte(seed)))
		}
		if free == 0 {
			t.Errorf("%s: no spot in enum Free", cfg)
		}
	}
}
