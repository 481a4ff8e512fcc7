package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// TestTranspilerSection: the section decodes into the spec by its tags,
// every setting included, and the keys that are not the kind's, the
// values no transpiler takes, are errors at their place.
func TestTranspilerSection(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.cll", "r.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tail := "seeds: {files: [a.cll]}\nrelations: {files: [r.yaml]}\n"
	c, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(`transpiler:
  worker: [w, -x]
  arguments: ['{input}']
  worker_requests: 3
  env: {B: 2, A: one}
  timeout: 90s
  accept: [0, 3]
  reject: []
  input_name: in.c
  max_output_files: 4
  max_output_bytes: 5
`+tail))
	if err != nil {
		t.Fatal(err)
	}
	want := spec.Spec{Kind: spec.Worker, Arguments: []string{"{input}"}, WorkerRequests: 3, Process: spec.Process{
		Argv: []string{"w", "-x"}, Dir: dir, Env: spec.Env{"A=one", "B=2"}, Timeout: 90 * time.Second,
		Accept: []int{0, 3}, Reject: []int{}, InputName: "in.c", MaxOutputFiles: 4, MaxOutputBytes: 5,
	}}
	if !c.Transpiler.Equal(want) {
		t.Errorf("spec %s\nwant %s", c.Transpiler.JSON(), want.JSON())
	}
	if c.Transpiler.Pos.Line != 2 || c.Transpiler.Pos.Col != 12 {
		t.Errorf("position %v, want 2:12", c.Transpiler.Pos)
	}
	_, err = Parse(filepath.Join(dir, "mcpt.yaml"), []byte(`transpiler:
  builtin: cllc
  dir: .
  accept: [0, 300]
  reject: [0]
  timeout: 0s
  worker_requests: 0
`+tail))
	for _, w := range []string{
		"mcpt.yaml:3:8: transpiler: dir is for a command or a worker only, not for a builtin",
		"mcpt.yaml:4:15: accept: exit code 300 outside 0…255",
		"mcpt.yaml:5:12: transpiler: exit code 0 is both accept and reject",
		"mcpt.yaml:6:12: timeout: must be positive, found 0s",
		"mcpt.yaml:7:20: worker_requests: must be positive, found 0",
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v\nwant %s", err, w)
		}
	}
	for src, w := range map[string]string{
		"{builtin: cllc, url: 'http://x'}": "mcpt.yaml:1:13: transpiler: give one of builtin, url, ", // and the keys of the other kinds
		"{command: [c], timeout: soon}":    `mcpt.yaml:1:37: timeout: want a duration such as 30s, found "soon"`,
		"{command: ['']}":                  "mcpt.yaml:1:24: transpiler: empty command name",
	} {
		if _, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte("transpiler: "+src+"\n"+tail)); err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %v\nwant %s", src, err, w)
		}
	}
}

// TestEverySettingHasAKey: every field of a spec but its kind and command
// line is a key of the transpiler section, so that a setting added to the
// spec is one a configuration can give.
func TestEverySettingHasAKey(t *testing.T) {
	keys, _ := settings(reflect.TypeFor[transpilerYAML]())
	var fields func(reflect.Type) int
	fields = func(ty reflect.Type) int {
		n := 0
		for f := range ty.Fields() {
			if f.Anonymous {
				n += fields(f.Type)
			} else {
				n++
			}
		}
		return n
	}
	// Kind and Argv have no key of their own; command and worker give Argv.
	if got, want := len(keys), fields(reflect.TypeFor[spec.Spec]())-2+2; got != want {
		t.Errorf("%d keys %v for %d settings", got, keys, want)
	}
	if !slices.Contains(keys, "max_output_bytes") {
		t.Errorf("keys %v", keys)
	}
}
