package examples_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
)

// TestFlatBuffersIncludedTypes: a table with a field whose type comes
// from an included file (foxglove's PoseInFrame holds a foxglove.Pose of
// Pose.fbs, LinePrimitive a LineType enum of ubyte of its own and tables
// of Color.fbs and Point3.fbs) gets no spot of the exact add-field and
// add-string-field, whose CreateX and createX predictions need the type's
// size and kind; nor does a table with a (deprecated) field, for which
// flatc writes no accessor and no CreateX parameter; a table of the same
// file whose fields are all known keeps its spots. In the tools tier, the
// exact and derived relations on those files (flatc finding the includes
// in the corpus directory, FBS_PATH) give no finding.
func TestFlatBuffersIncludedTypes(t *testing.T) {
	corpus := filepath.Join("..", "testdata", "corpus", "flatbuffers")
	dir := t.TempDir()
	deprecated := filepath.Join(dir, "deprecated.fbs")
	if err := os.WriteFile(deprecated, []byte("namespace d;\ntable Old {\n  a: int;\n  b: string (deprecated);\n  c: short;\n}\ntable Fine {\n  x: int;\n  y: string;\n}\nroot_type Fine;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := setup.Load(filepath.Join("flatbuffers", "mcpt.yaml"), setup.Options{SeedFiles: []string{deprecated}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"add-field", "add-string-field"} {
		noSpots(t, s, name, filepath.Join(corpus, "PoseInFrame.fbs"), "a table with a field of an included type", "table PoseInFrame,")
		noSpots(t, s, name, filepath.Join(corpus, "LinePrimitive.fbs"), "a table with a field of an included type", "table LinePrimitive,")
		noSpots(t, s, name, deprecated, "a table with a deprecated field", "table Old,")
	}
	n := 0
	for _, r := range s.Relations {
		if r.Name == "add-field" {
			n = len(spotDescs(t, r, "deprecated.fbs", readFile(t, deprecated)))
		}
	}
	if n == 0 {
		t.Error("add-field: no spot in table Fine")
	}

	t.Run("campaign", func(t *testing.T) {
		p := packNamed(t, "flatbuffers")
		needCompiler(t, p)
		abs, err := filepath.Abs(corpus)
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("FBS_PATH", abs)
		seeds := []string{filepath.Join(corpus, "PoseInFrame.fbs"), filepath.Join(corpus, "LinePrimitive.fbs"), filepath.Join(corpus, "SceneUpdate.fbs"), filepath.Join(corpus, "PointCloud.fbs"), deprecated}
		for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
			s, err := setup.Load(filepath.Join("flatbuffers", cfg), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			rep := campaign(t, s, s.Transpiler, nil, 60)
			if len(rep.Seeds.Rejected) > 0 {
				t.Fatalf("%s: flatc rejects %v (the includes?)", cfg, rep.Seeds.Rejected)
			}
			for _, f := range rep.Findings {
				kind := "false alarm"
				if f.Kind == result.RejectedFollowUp {
					kind = "rejected follow-up"
				}
				t.Errorf("%s: %s: %s %s on %s (%s): %s\n%s", cfg, kind, f.Relation, f.Checker, filepath.Base(f.SeedFile), f.Spot.Desc, f.Message, f.Diff)
			}
			t.Logf("%s: %d test cases", cfg, rep.TestCases)
		}
	})
}
