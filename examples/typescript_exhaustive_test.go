package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/semrel"
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
		free := 0
		for _, sp := range tsSpots(t, cfg, file, seed, "add-enum-member") {
			for _, e := range []string{"Level", "Shape", "Mode"} {
				if strings.Contains(sp.Desc, "of "+e+",") {
					t.Errorf("%s: a spot in an exhaustive enum: %s", sp.Relation, sp.Desc)
				}
			}
			if strings.Contains(sp.Desc, "of Free") {
				free++
			}
		}
		if free == 0 {
			t.Errorf("%s: no spot in enum Free", cfg)
		}
	}
}

// relSpot is a spot of a relation, named.
type relSpot struct {
	relation.Spot
	Relation string
}

// tsSpots lists the spots of the TypeScript pack's configuration cfg on
// the seed file (whose text is seed) of the relations whose names contain
// part, without running tsc: the relations read the release that
// package.json pins, which the version command is not run to tell.
func tsSpots(t *testing.T, cfg, file, seed, part string) []relSpot {
	t.Helper()
	s, err := setup.Load(filepath.Join(tsDir, cfg), setup.Options{SeedFiles: []string{file}, Skip: setup.SkipTranspiler, NoRelease: true, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	var out []relSpot
	for _, r := range s.Relations {
		if !strings.Contains(r.Name, part) {
			continue
		}
		ss, err := r.Spots(context.Background(), relation.Input{Name: filepath.Base(file), Src: []byte(seed), Release: "5.9.3"})
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range ss {
			out = append(out, relSpot{sp, r.Name})
		}
	}
	return out
}
