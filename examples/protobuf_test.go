package examples_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/result"
)

// needProtobuf skips (or, in the tools tier, fails) without protoc,
// protoc-c and protoc-gen-go.
func needProtobuf(t *testing.T) {
	t.Helper()
	testtier.Tools(t, "apt-get install protobuf-compiler protobuf-c-compiler; go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12", "protoc", "protoc-c")
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		out, err := exec.Command("go", "env", "GOPATH").Output()
		if err != nil {
			t.Fatal(err)
		}
		gopath = string(out[:len(out)-1])
	}
	if _, err := exec.LookPath("protoc-gen-go"); err != nil {
		if _, err := os.Stat(filepath.Join(gopath, "bin", "protoc-gen-go")); err != nil {
			t.Fatal("needs protoc-gen-go: go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12")
		}
	}
}

// protobufCampaign runs a configuration of the Protocol Buffers pack on
// seeds (nil: the configuration's own) for cases test cases.
func protobufCampaign(t *testing.T, config string, seeds []string, cases int) *result.Report {
	t.Helper()
	s, err := setup.Load(filepath.Join("protobuf", config), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: []yamlrel.CheckerKind{protorel.Descriptor}}})
	if err != nil {
		t.Fatal(err)
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: 4, BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestProtobufPack (tools tier): the pack's configurations give no oracle
// finding and at most 2 % rejected follow-ups on the correct generators,
// on the pack's seeds and on ten of its generated ones, and the shipped
// faults (faulty/) are caught.
func TestProtobufPack(t *testing.T) {
	needProtobuf(t)
	generated, err := filepath.Glob(filepath.Join("protobuf", "generated", "*.proto"))
	if err != nil || len(generated) == 0 {
		t.Fatalf("no generated seeds: %v", err)
	}
	for _, cfg := range []string{"go/derived.yaml", "go/mcpt.yaml", "c/derived.yaml", "c/mcpt.yaml"} {
		for _, set := range []struct {
			name  string
			seeds []string
		}{{"seeds", nil}, {"generated", generated[:10]}} {
			t.Run(cfg+"/"+set.name, func(t *testing.T) {
				rep := protobufCampaign(t, cfg, set.seeds, 30)
				rejected := 0
				for _, f := range rep.Findings {
					if f.Kind == result.RejectedFollowUp {
						rejected++
						continue
					}
					t.Errorf("false alarm: %s %s %s on %s: %s", f.Relation, f.Checker, f.File, filepath.Base(f.SeedFile), f.Message)
				}
				if rep.TestCases == 0 || rejected*50 > rep.TestCases {
					t.Errorf("%d test cases, %d rejected follow-ups (at most 2 %%)", rep.TestCases, rejected)
				}
			})
		}
	}
	for _, cfg := range []string{"go/derived.faulty.yaml", "c/derived.faulty.yaml", "c/mcpt.faulty.yaml"} {
		t.Run(cfg, func(t *testing.T) {
			rep := protobufCampaign(t, cfg, nil, 30)
			if len(rep.Findings) == 0 {
				t.Errorf("the fault of %s was not caught in %d test cases", cfg, rep.TestCases)
			}
		})
	}
}

// TestProtobufGeneratedHeader: a file as proto.grammar generates it (its
// first line, syntax and package in the generated alternative of the file
// rule) has the same top-level spots as the same file read by the
// alternative for any file: the messages, enums and services are members
// of the file's region either way.
func TestProtobufGeneratedHeader(t *testing.T) {
	rels := loadRelationSets(t, []string{filepath.Join("protobuf", "derived", "add-message.yaml")})
	body := "syntax = \"proto3\";\n\npackage p;\n\nmessage A {\n  bytes c = 1;\n}\n/** b */\nmessage B {\n  int32 d = 1;\n}\nservice S {\n  rpc R(A) returns (B);\n}\n"
	for _, r := range rels {
		if r.Name != "add-message" {
			continue
		}
		plain, generated := spotDescs(t, r, "h.proto", []byte(body)), spotDescs(t, r, "h.proto", []byte("// Generated seed.\n"+body))
		if len(plain) != 3 || !slices.Equal(plain, generated) {
			t.Errorf("add-message spots: %q read as any file, %q as a generated one; want the same 3", plain, generated)
		}
		return
	}
	t.Fatal("no relation add-message")
}
