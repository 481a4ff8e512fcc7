package examples_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation/protorel"
)

// TestProtobufGoNames (tools tier): google/type/phone_number.proto has a
// message ShortCode nested in PhoneNumber and a member short_code of
// PhoneNumber's oneof kind, whose wrapper protoc-gen-go names
// PhoneNumber_ShortCode_ (PhoneNumber_ShortCode is the nested message): a
// member added to that oneof, at every spot, passes every check of the Go
// configurations.
func TestProtobufGoNames(t *testing.T) {
	needProtobuf(t)
	seed := filepath.Join("..", "testdata", "corpus", "protobuf", "google-type-phone_number.proto")
	for _, cfg := range []string{"go/derived.yaml", "go/mcpt.yaml"} {
		t.Run(cfg, func(t *testing.T) {
			s, err := setup.Load(filepath.Join("protobuf", cfg), setup.Options{SeedFiles: []string{seed}, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			spotCases(t, s, seed, []string{"add-oneof-field", "descriptor-oneof-field"}, "")
		})
	}
}

// TestProtobufCorpusClasses (tools tier): the false-alarm classes real
// files showed, each at the spots that showed it, on the correct
// generators. google/rpc/error_details.proto: a copy of
// BadRequest.FieldViolation, a message of some 170 lines of Go whose
// comment lines the copy repeats (locality once took a repeated line for
// another region's and left the copy's next line unexplained), and of
// messages with proto3 optional fields, whose oneof wrappers the copy
// initialises by its index alone (Go only: protoc-c 1.4 rejects the file).
// onnx-ml.proto: a nested message next to a neighbour called Optional,
// which protoc-c's own PROTOBUF_C_LABEL_OPTIONAL holds; descriptor.proto:
// enum values LABEL_REQUIRED and TYPE_INT32, named like protoc-c's runtime
// constants PROTOBUF_C_LABEL_REQUIRED and PROTOBUF_C_TYPE_INT32.
func TestProtobufCorpusClasses(t *testing.T) {
	needProtobuf(t)
	corpus := filepath.Join("..", "testdata", "corpus", "protobuf")
	abs, err := filepath.Abs(corpus)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROTO_PATH", abs)
	for _, c := range []struct {
		configs   []string
		seed      string
		relations []string
		within    string
	}{
		{[]string{"go/derived.yaml", "go/mcpt.yaml"}, "google-rpc-error_details.proto", []string{"add-message", "add-nested-message"}, ""},
		{[]string{"c/derived.yaml", "c/mcpt.yaml"}, "onnx-ml.proto", []string{"add-nested-message"}, "mbody of TypeProto,"},
		{[]string{"c/derived.yaml", "c/mcpt.yaml", "go/derived.yaml"}, "descriptor.proto", []string{"add-enum-value"}, "ebody of Label,"},
		{[]string{"c/derived.yaml", "c/mcpt.yaml"}, "descriptor.proto", []string{"add-enum-value"}, "ebody of Type,"},
	} {
		for _, cfg := range c.configs {
			t.Run(cfg+"/"+c.seed, func(t *testing.T) {
				seed := filepath.Join(corpus, c.seed)
				s, err := setup.Load(filepath.Join("protobuf", cfg), setup.Options{SeedFiles: []string{seed}, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
				if err != nil {
					t.Fatal(err)
				}
				spotCases(t, s, seed, c.relations, c.within)
			})
		}
	}
}
