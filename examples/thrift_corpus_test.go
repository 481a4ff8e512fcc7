package examples_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
)

// TestThriftCorpusCases runs the Thrift packs on corpus files that once
// gave false alarms: constants built through numbered temporaries
// (tmp627, renumbered by a struct added before them), and a service that
// another extends (whose Python remote tool lists the base's methods too:
// the exact add-service-method leaves it out; the derived one allows
// those lines).
func TestThriftCorpusCases(t *testing.T) {
	p := packNamed(t, "thrift")
	needCompiler(t, p)
	corpus := filepath.Join("..", "testdata", "corpus", "thrift")
	seeds := []string{filepath.Join(corpus, "ConstantsDemo.thrift"), filepath.Join(corpus, "DebugProtoTest.thrift")}
	for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
		t.Run(cfg, func(t *testing.T) {
			s, err := setup.Load(filepath.Join(p.dir, cfg), setup.Options{SeedFiles: seeds})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range s.Relations {
				if cfg != "mcpt.yaml" || r.Name != "add-service-method" {
					continue
				}
				src := readFile(t, seeds[1])
				ss, err := r.Spots(context.Background(), relation.Input{Name: "DebugProtoTest.thrift", Src: src})
				if err != nil {
					t.Fatal(err)
				}
				for _, sp := range ss {
					if strings.Contains(sp.Desc, "of Srv,") {
						t.Errorf("a spot in service Srv, which Inherited extends: %s", sp.Desc)
					}
				}
			}
			rep := campaign(t, s, s.Transpiler, []string{"add-struct", "add-constant", "add-service-method"}, 30)
			if rep.TestCases < 30 {
				t.Fatalf("%d test cases, want 30", rep.TestCases)
			}
			if len(rep.Findings) > 0 {
				t.Errorf("%d false alarms in %d test cases:\n%s", len(rep.Findings), rep.TestCases, describe(rep, 3))
			}
			t.Logf("%d test cases, %d transpiler runs, no finding", rep.TestCases, rep.TranspilerRuns)
		})
	}
}
