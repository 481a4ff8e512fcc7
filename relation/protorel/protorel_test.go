package protorel

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// load reads a relation file whose one relation has the given checks.
func load(checks string) error {
	src := `fresh_pattern: 'zq[a-z]{6}'
regions:
  file: {whole: true}
kinds:
  m: {region: file, match: '^message (?P<name>\w+)'}
relations:
  - name: r
    spots: {boundaries: file}
    fresh: [n]
    text: 'message {{upperfirst .n}} {}'
    checks:
` + checks
	fsys := fstest.MapFS{"rel.yaml": {Data: []byte(src)}}
	_, err := yamlrel.LoadWith(yamlrel.Options{CheckerKinds: Kinds}, fsys, "rel.yaml")
	return err
}

// TestSpecs: every kind loads with its keys, and a missing or wrong key
// is an error at its place.
func TestSpecs(t *testing.T) {
	for _, c := range []struct{ checks, err string }{
		{"      - protobuf-descriptor: {file: x.pb.go, element: message, name: '{{upperfirst .n}}', imports: 'a.proto b.proto', alias: ''}\n", ""},
		{"      - protobuf-go-field: {file: x.pb.go, name: '{{.n}}', values: 'A=1 B=2'}\n", ""},
		{"      - protobuf-go-deprecated: {file: x.pb.go, element: message, name: '{{.n}}', deprecated: 'true'}\n", ""},
		{"      - protobuf-grpc-names: {file: x_grpc.pb.go, name: '{{.n}}'}\n", ""},
		{"      - protobuf-go-deprecated: {file: x.pb.go, element: message, name: '{{.n}}'}\n", "deprecated is required"},
		{"      - protobuf-go-deprecated: {file: x.pb.go, element: enum, name: '{{.n}}', deprecated: 'true'}\n", `unknown element "enum"`},
		{"      - protobuf-go-field: {file: x.pb.go}\n", "file and name are required"},
		{"      - protobuf-go-field: {file: x.pb.go, name: '{{.n}}', valeus: 'A=1'}\n", `unknown field "valeus"`},
		{"      - protobuf-grpc-names: {file: x.pb.go, name: '{{.nope}}'}\n", "nope"},
	} {
		err := load(c.checks)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", strings.TrimSpace(c.checks), err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one with %q", strings.TrimSpace(c.checks), err, c.err)
		case c.err != "" && !strings.Contains(err.Error(), "rel.yaml:"):
			t.Errorf("%s: %v has no place", strings.TrimSpace(c.checks), err)
		}
	}
}
