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
			s, err := setup.Load(filepath.Join("protobuf", cfg), setup.Options{SeedFiles: []string{seed}, Tools: &setup.Tools{CheckerKinds: protorel.Kinds}})
			if err != nil {
				t.Fatal(err)
			}
			spotCases(t, s, seed, []string{"add-oneof-field", "descriptor-oneof-field"}, "")
		})
	}
}
