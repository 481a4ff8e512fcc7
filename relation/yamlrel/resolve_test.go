package yamlrel

import (
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// TestResolveFindsEveryTemplate: the resolve pass checks every template
// that loading the shipped relation files makes, wherever a check kind
// keeps it; and none of them is in error.
func TestResolveFindsEveryTemplate(t *testing.T) {
	for _, dir := range []string{"cll/relations", "cll/relations/statements", "cll/derived", "thrift/relations", "thrift/derived", "flatbuffers/relations", "flatbuffers/derived", "protobuf/relations", "protobuf/derived", "typescript/relations", "typescript/derived"} {
		pack, sub, _ := strings.Cut(dir, "/") // the pack's directory holds its grammar
		fsys := os.DirFS(path.Join("..", "..", "examples", pack))
		entries, err := os.ReadDir(path.Join("..", "..", "examples", dir))
		if err != nil {
			t.Fatal(err)
		}
		before := tmplsMade.Load()
		l := &loader{d: newDefs(), seen: map[string]bool{}, fsys: fsys, parsers: tsParsers}
		// protobuf-js, a kind written in Go that the Protocol Buffers
		// pack's derived relations carry, has no template
		goKinds := []CheckerKind{{Name: "protobuf-js", New: func(*Spec) (Check, error) { return nil, nil }}}
		if l.d.checkers, err = checkerKinds(goKinds); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if path.Ext(e.Name()) == ".yaml" {
				name := path.Join(sub, e.Name())
				l.loadFile(name, name, yamlpos.Pos{})
			}
		}
		l.compile()
		if err := l.errs.Err(); err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		made := tmplsMade.Load() - before
		found := int64(len(l.d.lets))
		for _, k := range l.d.kinds {
			found += int64(len(k.lets))
		}
		for _, r := range l.d.spotted {
			h := &held{visiting: map[uintptr]bool{}}
			h.collect(reflect.ValueOf(r))
			found += int64(len(h.tmpls))
		}
		if made == 0 || found != made {
			t.Errorf("%s: %d templates made, the resolve pass finds %d", dir, made, found)
		}
	}
}
