package examples_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/relation/protorel"
)

// TestProtobufNumberForms: the relations that need a fresh number read
// every number of the seed as protoc does. ONNX's Version enum writes its
// values in zero-padded hex (IR_VERSION = 0x0000000000000008):
// no template fails on it, and no follow-up of any relation of the four
// configurations reuses one of its numbers (the number it takes, read
// back, is none of the enum's) but an alias, which says so (its binding
// alias). The follow-ups of the enum relations at
// every spot of Version are then accepted by protoc and pass their
// checks (tools tier).
func TestProtobufNumberForms(t *testing.T) {
	onnx := filepath.Join("..", "testdata", "corpus", "protobuf", "onnx.proto")
	src := readFile(t, onnx)
	in := relation.Input{Name: "onnx.proto", Src: src}
	var versions []int64 // the numbers of enum Version
	text := string(src)
	body := text[strings.Index(text, "enum Version {"):]
	body = body[:strings.Index(body, "\n}")]
	for _, l := range numlit.Protobuf.All(body) {
		versions = append(versions, l.Value)
	}
	if len(versions) < 9 || versions[len(versions)-1] != 0x0000000000000008 {
		t.Fatalf("the numbers of Version: %v", versions)
	}
	forms := filepath.Join(t.TempDir(), "forms.proto")
	if err := os.WriteFile(forms, []byte(formsProto), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []string{"go/derived.yaml", "go/mcpt.yaml", "c/derived.yaml", "c/mcpt.yaml"} {
		s, err := setup.Load(filepath.Join("protobuf", cfg), setup.Options{SeedFiles: []string{onnx}, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
		if err != nil {
			t.Fatal(err)
		}
		tried := 0
		for _, r := range s.Relations {
			spots, err := r.Spots(context.Background(), in)
			if err != nil {
				t.Fatalf("%s %s: %v", cfg, r.Name, err)
			}
			for _, sp := range spots {
				// Three draws where the numbers are the question, one
				// elsewhere: every spot's templates run on the file.
				draws := uint64(1)
				if strings.Contains(sp.Desc, "of Version,") {
					draws = 3
				}
				for draw := range draws {
					fu, err := r.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(uint64(sp.Index), draw)))
					if err != nil {
						t.Fatalf("%s %s at %s: %v", cfg, r.Name, sp.Desc, err)
					}
					if !strings.Contains(sp.Desc, "of Version,") {
						continue
					}
					w, ok := fu.Bindings["w"]
					if !ok {
						continue // not a relation of enum values
					}
					tried++
					if fu.Bindings["alias"] != "" {
						continue // an alias takes a number of the enum by design (allow_alias)
					}
					n, err := numlit.Protobuf.Parse(w)
					if err != nil {
						t.Fatalf("%s %s at %s: %v", cfg, r.Name, sp.Desc, err)
					}
					for _, v := range versions {
						if n == v {
							t.Errorf("%s %s at %s: the new value takes %d, a number of Version", cfg, r.Name, sp.Desc, n)
						}
					}
				}
			}
		}
		if tried == 0 {
			t.Errorf("%s: no follow-up in enum Version", cfg)
		}
		t.Run(cfg, func(t *testing.T) {
			needProtobuf(t)
			spotCases(t, s, onnx, []string{"add-enum-value", "c-add-enum-value", "descriptor-enum-value"}, "of Version,")
			spotCases(t, s, forms, []string{"add-enum-value", "c-add-enum-value", "descriptor-enum-value", "add-field", "descriptor-field"}, "")
		})
	}
}

// TestProtobufNumberForms' seed of every number form protoc reads: the
// enum's values in octal, hex and negative, reserved numbers above the
// values and a range to max; the message's field numbers in hex and
// octal, a reserved range to max and a nested message that numbers its
// own fields.
const formsProto = `syntax = "proto2";
package forms;
enum Mode {
  MODE_ZERO = 0;
  MODE_OCT = 010;
  MODE_HEX = 0x0A;
  MODE_NEG = -0x2;
  reserved 11, 12;
}
enum Wide {
  WIDE_A = 1;
  WIDE_B = 3;
  reserved 100 to max;
}
message Holder {
  optional int32 a = 0x1;
  optional int32 b = 03;
  message Inner {
    optional int32 deep = 40;
  }
  optional Inner inner = 4;
  reserved 20 to max;
}
`
