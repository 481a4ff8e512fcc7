package yamlrel

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/relation"
)

// TestDeclareWithoutFinalNewline: at the end of a program without a final
// newline (which a golden archive cannot hold), both insertions stand on
// lines of their own. testdata/statements/declare-blocks.txtar has the
// rest.
func TestDeclareWithoutFinalNewline(t *testing.T) {
	const rel = `regions:
  body: {from: '^cycle', to: '^end_of_program'}
  decls: {from: '^declarations', to: '^init'}
kinds:
  stmt: {region: body, match: '^\s*(?P<name>send|if)\b'}
  timer: {region: decls, match: '^\s*timer\s+(?P<name>\w+)'}
relations:
  - name: send-fresh
    doc: Send a fresh command.
    spots: {boundaries: body}
    fresh: [N]
    declare: {region: decls, insert: '  command {{.N}}'}
    insert: '  send {{.N}}'
    checks: [equivalence: {}]
`
	rels, err := Load(fstest.MapFS{"rel.yaml": {Data: []byte(rel)}}, "rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "door.cll", Src: []byte("logic Door\ndeclarations\n  timer Hold\ninit\ncycle\n  if Shut then\n    send Close\n  end")}
	spots, err := rels[0].Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	fu, err := rels[0].Mutate(context.Background(), in, spots[len(spots)-1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if n := fu.Bindings["N"]; !strings.HasSuffix(string(fu.Src), "  end\n  send "+n+"\n") || !strings.Contains(string(fu.Src), "timer Hold\n  command "+n+"\ninit") {
		t.Errorf("follow-up at the end\n%s", fu.Src)
	}
}
