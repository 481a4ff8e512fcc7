package examples_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bench/realbugs"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/result"
)

// goReleases are the releases the Go configurations of the Protocol
// Buffers pack are measured on (TestProtobufGoReleases): protoc-gen-go of
// google.golang.org/protobuf, its first release (v1.20, which rejects
// proto3 optional fields) and from v1.26 to today, github.com/golang/protobuf's
// own generator where the benchmark of real bugs needs it (v1.3.0 and
// v1.3.3 are the fixed releases of protoc-gen-go-736 and -3023) and its
// v1.4 and v1.5, which run google.golang.org/protobuf's; protoc-gen-go-grpc
// for go-grpc/mcpt.yaml.
var goReleases = []struct {
	pkg, version string
	configs      []string
}{
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.20.0", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.26.0", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.27.1", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.30.0", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.34.2", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/protobuf/cmd/protoc-gen-go", "v1.36.12", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:github.com/golang/protobuf/protoc-gen-go", "v1.3.0", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:github.com/golang/protobuf/protoc-gen-go", "v1.3.3", []string{"go/mcpt.yaml", "go/derived.yaml", "go/grpc.yaml"}},
	{"go:github.com/golang/protobuf/protoc-gen-go", "v1.4.3", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:github.com/golang/protobuf/protoc-gen-go", "v1.5.4", []string{"go/mcpt.yaml", "go/derived.yaml"}},
	{"go:google.golang.org/grpc/cmd/protoc-gen-go-grpc", "v1.0.1", []string{"go-grpc/mcpt.yaml"}},
	{"go:google.golang.org/grpc/cmd/protoc-gen-go-grpc", "v1.5.1", []string{"go-grpc/mcpt.yaml"}},
}

// TestProtobufGoReleases (MCPT_TEST_REALBUGS=1, the tier that installs
// releases, with MCPT_TEST_TOOLS=1 for protoc): each Go configuration of
// the pack on each release of goReleases, installed by version into the
// cache of the benchmark of real bugs ($MCPT_REALBUGS_CACHE), 300 test cases on the
// pack's seeds, its generated seeds and the Protocol Buffers corpus, with
// 2 workers and seed 1: no oracle finding (every one would be a false
// alarm, or a bug of that release), at most 1 % rejected follow-ups. It
// logs a row per campaign; -v shows the table. A subtest per release:
// -run 'TestProtobufGoReleases/v1.27.1'.
func TestProtobufGoReleases(t *testing.T) {
	if !testtier.On(testtier.RealBugsVar) {
		t.Skipf("installs releases of protoc-gen-go and runs 300 test cases on each; %s=1 runs it", testtier.RealBugsVar)
	}
	needProtobuf(t)
	dir, err := realbugs.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	cache := &realbugs.Cache{Dir: dir, Log: t.Logf}
	seeds := protobufSeeds(t)
	corpus, err := filepath.Abs(filepath.Join("..", "testdata", "corpus", "protobuf"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range goReleases {
		t.Run(r.version, func(t *testing.T) {
			p, err := realbugs.ParsePackage(r.pkg)
			if err != nil {
				t.Fatal(err)
			}
			bin, err := cache.Install(context.Background(), p, r.version)
			if err != nil {
				t.Fatal(err)
			}
			for _, cfg := range r.configs {
				rep, release := releaseCampaign(t, cfg, bin, corpus, seeds)
				oracle, rejected := 0, 0
				for _, f := range rep.Findings {
					switch f.Kind {
					case result.RejectedFollowUp:
						rejected++
					case result.Oracle:
						oracle++
						t.Errorf("%s on %s: %s %s on %s: %s", cfg, r.version, f.Relation, f.Checker, filepath.Base(f.SeedFile), f.Message)
					default:
						t.Errorf("%s on %s: %s of %s on %s: %s", cfg, r.version, f.Kind, f.Relation, filepath.Base(f.SeedFile), f.Message)
					}
				}
				if rep.TestCases < 300 || rejected*100 > rep.TestCases {
					t.Errorf("%s on %s: %d test cases, %d rejected follow-ups (300 wanted, at most 1 %% rejected)", cfg, r.version, rep.TestCases, rejected)
				}
				row := fmt.Sprintf("| %s %s | %s | %s | %d | %d | %d |", strings.TrimPrefix(r.pkg, "go:"), r.version, release, cfg, rep.TestCases, oracle, rejected)
				t.Log(row)
				rows = append(rows, row)
			}
		})
	}
	t.Logf("\n| release installed | release read | configuration | test cases | oracle findings | rejected follow-ups |\n|---|---|---|---|---|---|\n%s", strings.Join(rows, "\n"))
}

// protobufSeeds are the pack's seeds, its generated seeds and the corpus.
func protobufSeeds(t *testing.T) []string {
	t.Helper()
	var seeds []string
	for _, g := range []string{"protobuf/*.proto", "protobuf/generated/*.proto", "../testdata/corpus/protobuf/*.proto"} {
		m, err := filepath.Glob(g)
		if err != nil || len(m) == 0 {
			t.Fatalf("no seeds %s: %v", g, err)
		}
		seeds = append(seeds, m...)
	}
	return seeds
}

// releaseCampaign runs 300 test cases of a configuration of the pack with
// the programs of bin first on PATH and the corpus on PROTO_PATH, and
// returns the report and the release the configuration read.
func releaseCampaign(t *testing.T, cfg, bin, corpus string, seeds []string) (*result.Report, string) {
	t.Helper()
	edit := func(c *config.Config) error {
		sp := &c.Transpiler.Spec
		sp.Env = slices.DeleteFunc(slices.Clone(sp.Env), func(e string) bool {
			return strings.HasPrefix(e, "PATH=") || strings.HasPrefix(e, "PROTO_PATH=")
		})
		sp.Env = append(sp.Env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "PROTO_PATH="+corpus)
		return nil
	}
	s, err := setup.Load(filepath.Join("protobuf", cfg), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}, Edit: edit})
	if err != nil {
		t.Fatal(err)
	}
	opt := s.EngineOptions()
	opt.Seed, opt.Workers, opt.MaxCases, opt.MaxTime, opt.OutDir = 1, 2, 300, 0, ""
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep, s.Release
}
