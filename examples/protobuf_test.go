package examples_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle/protodesc"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
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
	s, err := setup.Load(filepath.Join("protobuf", config), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	// protoc and its generators are deterministic: one re-run confirms.
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: 4, BaseRuns: s.Config.BaseRuns, ConfirmRuns: 1, Normalize: s.Normalize,
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

// TestProtobufCommentedOutField: a comment line that reads like a doc
// comment going on in code (a field commented out) is a comment: the
// message's last spot is after its last field, none is inside the comment.
func TestProtobufCommentedOutField(t *testing.T) {
	rels := loadRelationSets(t, []string{filepath.Join("protobuf", "derived", "add-field.yaml")})
	src := []byte("syntax = \"proto2\";\n\nmessage M {\n  optional string name = 2;\n  // do not use.\n  // repeated Type parameters = 3;\n}\n")
	for _, r := range rels {
		if r.Name != "add-field" {
			continue
		}
		got := spotDescs(t, r, "c.proto", src)
		want := []string{"mbody of M, before name", "mbody of M, after name"}
		if !slices.Equal(got, want) {
			t.Errorf("add-field spots: %q, want %q", got, want)
		}
		return
	}
	t.Fatal("no relation add-field")
}

// TestProtobufGoFaultExact (tools tier): the shipped Go fault
// (faulty/gen-go.sh drops the last entry of every enum's name map, the
// descriptor stays intact) is caught by go/mcpt.yaml's exact relation
// descriptor-enum-value, through its check protobuf-go-enum, and the same
// relation gives no finding on the correct protoc-gen-go.
func TestProtobufGoFaultExact(t *testing.T) {
	needProtobuf(t)
	s, err := setup.Load(filepath.Join("protobuf", "go", "mcpt.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	rep := campaign(t, s, s.Transpiler, []string{"descriptor-enum-value"}, 100)
	if rep.TestCases == 0 {
		t.Error("correct protoc-gen-go: no test case")
	}
	for _, f := range rep.Findings {
		t.Errorf("correct protoc-gen-go: %s %s on %s: %s", f.Relation, f.Checker, filepath.Base(f.SeedFile), f.Message)
	}
	rep = protobufCampaign(t, "go/mcpt.faulty.yaml", nil, 100)
	if len(rep.Findings) == 0 {
		t.Errorf("the Go fault was not caught by descriptor-enum-value in %d test cases", rep.TestCases)
	}
	for _, f := range rep.Findings {
		if f.Relation != "descriptor-enum-value" || f.Checker != "protobuf-go-enum" {
			t.Errorf("finding of %s %s (%s), want descriptor-enum-value protobuf-go-enum", f.Relation, f.Checker, f.Message)
		}
	}
}

// TestProtobufGoEnumLines (tools tier): protobuf-go-enum predicts what
// protoc-gen-go writes for a value added anywhere in an enum, top level or
// nested twice, first or last, with aliases: a fresh number after an
// alias, the number of a later value (which turns into a duplicate in the
// map of names) and of an earlier one (the new value is the duplicate).
// On the faulty generator it fails exactly where the new value follows
// the value whose entry the fault drops.
func TestProtobufGoEnumLines(t *testing.T) {
	needProtobuf(t)
	const base = `syntax = "proto2";
package p;
enum E {
  option allow_alias = true;
  A = 0;
  B = 1;
  C = 1;
  D = 2; // trailing
}
message M {
  message N {
    enum K { X = 1; Y = 3; }
  }
  optional N.K k = 1;
}
`
	for _, c := range []struct {
		name, old, new string
		last           bool
	}{
		{"fresh number after an alias", "C = 1;", "C = 1;\n  ZQ = 5;", false},
		{"a later value's number", "A = 0;", "A = 0;\n  ZQ = 1;", false},
		{"an earlier value's number, last", "D = 2; // trailing", "D = 2; // trailing\n  ZQ = 0;", true},
		{"first", "  A = 0;", "  ZQ = 7;\n  A = 0;", false},
		{"nested twice", "X = 1;", "X = 1; ZQ = 2;", false},
		{"nested twice, last", "Y = 3;", "Y = 3; ZQ = 4;", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := &protodesc.EnumLines{File: "x.pb.go", Value: "ZQ"}
			follow := strings.Replace(base, c.old, c.new, 1)
			if follow == base {
				t.Fatalf("%q is not in the base", c.old)
			}
			if f := check.Check(protocGo(t, "gen-go.sh", base), protocGo(t, "gen-go.sh", follow)); f != nil {
				t.Errorf("protoc-gen-go: %s\n%s", f[0].Message, f[0].Diff)
			}
			f := check.Check(protocGo(t, "faulty/gen-go.sh", base), protocGo(t, "faulty/gen-go.sh", follow))
			if c.last && f == nil {
				t.Error("faulty/gen-go.sh: no failure where the new value follows the dropped entry")
			}
			if f != nil && (f[0].Compared == nil || f[0].Compared.Kind != "enum-lines" || len(f[0].Compared.Differences) == 0) {
				t.Errorf("faulty/gen-go.sh: the failure does not say what the check compared: %+v", f[0].Compared)
			}
			if !c.last && f != nil {
				t.Errorf("faulty/gen-go.sh: %s, where the fault is the same in o and o′", f[0].Message)
			}
		})
	}
}

// protocGo runs a generator script of the pack on src as x.proto and
// returns the x.pb.go it writes.
func protocGo(t *testing.T, script, src string) tree.Tree {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "x.proto")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join("protobuf", script), in, out)
	cmd.Env = append(os.Environ(), "PROTO_PATH=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
	b, err := os.ReadFile(filepath.Join(out, "x.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	return tree.Tree{"x.pb.go": b}
}
