package yamlrel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

const stmtRel = `include: [defs.yaml]
relations:
  - name: send-fresh
    doc: Send a fresh command.
    spots: {boundaries: body}
    fresh: [N]
    declare: {region: decls, insert: '  command {{.N}}'}
    insert: '  send {{.N}}'
    checks:
      - blocks:
          name: call
          file: p.c
          insert: ['{{if false}}never{{end}}', 'reset_{{snake .N}}();', 'cmd_{{snake .N}}();']
`

const stmtProgram = `logic Door
declarations
  timer Hold
init
cycle
  send Open
  if Shut then
    send Close
  end
`

// TestDeclareAndBlocks: a statement spot's follow-up holds the statement
// and, after the last declaration, the declaration of its fresh name;
// blocks checks the lines in order, wherever they are, and leaves out a
// block that renders empty.
func TestDeclareAndBlocks(t *testing.T) {
	// The stmt kind is appended under kinds: of defsYAML, and the region
	// under a second regions: key, which YAML refuses: write them apart.
	defs := strings.Replace(defsYAML, "kinds:\n", "kinds:\n  stmt: {region: body, match: '^\\s*(?P<name>send|if)\\b'}\n", 1)
	defs = strings.Replace(defs, "regions:\n", "regions:\n  body: {from: '^cycle', to: '^end_of_program'}\n", 1)
	rels := loadFiles(t, map[string]string{"defs.yaml": defs, "rel.yaml": stmtRel})
	r := rels[0]
	in := relation.Input{Name: "door.cll", Src: []byte(stmtProgram)}
	spots, err := r.Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var descs []string
	for _, s := range spots {
		descs = append(descs, s.Desc)
	}
	// The if with its body and end is one statement: after send Close
	// (and its end) is the end of the cycle.
	if got, want := strings.Join(descs, "|"), "start of body|after stmt send|after stmt if|after stmt send (end of body)"; got != want {
		t.Errorf("spots %q, want %q", got, want)
	}
	fu, err := r.Mutate(context.Background(), in, spots[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	want := strings.Replace(strings.Replace(stmtProgram, "  timer Hold\n", "  timer Hold\n  command "+n+"\n", 1), "then\n", "then\n  send "+n+"\n", 1)
	if string(fu.Src) != want {
		t.Fatalf("follow-up\n%s\nwant\n%s", fu.Src, want)
	}
	b, ok := fu.Checks[0].(*oracle.Blocks)
	if !ok || len(b.Blocks) != 2 || b.Name != "call" {
		t.Fatalf("check %#v", fu.Checks[0])
	}
	o := tree.Tree{"p.c": []byte("init();\nif (shut) {\n    close();\n}\n")}
	x := relation.Snake(n)
	good := tree.Tree{"p.c": []byte("init();\nreset_" + x + "();\nif (shut) {\n    cmd_" + x + "();\n    close();\n}\n")}
	if f := b.Check(o, good); len(f) > 0 {
		t.Errorf("good o′: %s", f[0].Message)
	}
	swapped := tree.Tree{"p.c": []byte("init();\ncmd_" + x + "();\nif (shut) {\n    reset_" + x + "();\n    close();\n}\n")}
	if f := b.Check(o, swapped); len(f) == 0 {
		t.Error("blocks out of order passed")
	}
	// At the end of a program without a final newline, both insertions
	// stand on lines of their own.
	in.Src = []byte(strings.TrimSuffix(stmtProgram, "\n"))
	spots, _ = r.Spots(context.Background(), in)
	fu, err = r.Mutate(context.Background(), in, spots[len(spots)-1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if n := fu.Bindings["N"]; !strings.HasSuffix(string(fu.Src), "  end\n  send "+n+"\n") || !strings.Contains(string(fu.Src), "timer Hold\n  command "+n+"\ninit") {
		t.Errorf("follow-up at the end\n%s", fu.Src)
	}
}

func TestDeclareAndBlocksErrors(t *testing.T) {
	defs := strings.Replace(defsYAML, "regions:\n", "regions:\n  body: {from: '^cycle', to: '^end_of_program'}\n", 1)
	for _, tc := range []struct{ name, rel, want string }{
		{"unknown region", strings.Replace(stmtRel, "region: decls", "region: nowhere", 1), `declare: no region named "nowhere"`},
		{"empty declaration", strings.Replace(stmtRel, "insert: '  command {{.N}}'", "insert: ''", 1), "declare: nothing to insert"},
		{"blocks without a file", strings.Replace(stmtRel, "file: p.c", "file: ''", 1), "a blocks check needs a file"},
		{"blocks without lines", strings.Replace(stmtRel, "insert: ['{{if false}}never{{end}}', 'reset_{{snake .N}}();', 'cmd_{{snake .N}}();']", "insert: []", 1), "nothing to insert"},
		{"blocks and equivalence in one check", strings.Replace(stmtRel, "      - blocks:\n", "      - equivalence: {}\n        blocks:\n", 1), "a check names one checker kind: equivalence or blocks, not both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"defs.yaml": defs, "rel.yaml": tc.rel})
			_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
