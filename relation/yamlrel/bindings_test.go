package yamlrel

import (
	"context"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// TestBindStepsInPhaseOrder: the phases of the steps never decrease, so
// that what a phase sees is a prefix of the steps (stepsThrough), and
// every phase sees a step more than the one before.
func TestBindStepsInPhaseOrder(t *testing.T) {
	for i := 1; i < len(bindSteps); i++ {
		if bindSteps[i].seen < bindSteps[i-1].seen {
			t.Errorf("step %d (%s) is seen before step %d (%s)", i, bindSteps[i].what, i-1, bindSteps[i-1].what)
		}
	}
	if a, c, m := len(stepsThrough(atSpot)), len(stepsThrough(atCondition)), len(stepsThrough(atMutation)); a == 0 || a >= c || c >= m || m != len(bindSteps) {
		t.Errorf("the phases see %d, %d and %d of the %d steps", a, c, m, len(bindSteps))
	}
}

// TestBindStepsShapeWhatTheyBind: at each step of a mutation of the
// shipped relations on their packs' seeds, every name the steps so far
// bound is one their shapes declare: the resolve pass checks a template
// against what the evaluation binds before it.
func TestBindStepsShapeWhatTheyBind(t *testing.T) {
	ctx := context.Background()
	packs := []struct{ dir, seeds string }{
		{"cll/relations", "*.cll"}, {"thrift/relations", "*.thrift"}, {"flatbuffers/relations", "*.fbs"},
		{"protobuf/relations", "*.proto"}, {"typescript/relations", "*.ts"},
	}
	checked := 0
	for _, p := range packs {
		pack, sub, _ := strings.Cut(p.dir, "/")
		root := path.Join("..", "..", "examples", pack)
		l := newLoader(os.DirFS(root))
		l.parsers = withTS(t)
		l.checkers["protobuf-js"] = CheckerKind{Name: "protobuf-js", New: func(*Spec) (Check, error) { return nil, nil }}
		entries, err := os.ReadDir(path.Join(root, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if path.Ext(e.Name()) == ".yaml" {
				l.loadFile(path.Join(sub, e.Name()), e.Name(), yamlpos.Pos{})
			}
		}
		c := l.compile()
		if err := l.errs.Err(); err != nil {
			t.Fatalf("%s: %v", p.dir, err)
		}
		seeds, _ := filepath.Glob(filepath.Join(root, p.seeds))
		if len(seeds) == 0 {
			t.Fatalf("%s: no seed %s", pack, p.seeds)
		}
		src, err := os.ReadFile(seeds[0])
		if err != nil {
			t.Fatal(err)
		}
		in := relation.Input{Name: filepath.Base(seeds[0]), Src: src, Release: "5.9.3"}
		for _, r := range c.spotted {
			m := r.models.parse(ctx, in.Src)
			ss, err := r.find(ctx, m, in)
			if err != nil || len(ss) == 0 {
				continue
			}
			b := &binding{ctx: ctx, r: r, m: m, s: ss[len(ss)/2], in: in, rng: rngFor(1)}
			for i, st := range bindSteps {
				if err := st.eval(b); err != nil {
					t.Errorf("%s: relation %s: step %q: %v", p.dir, r.name, st.what, err)
					break
				}
				s := newResolving().shapeSteps(r, bindSteps[:i+1], mapOf("binding"))
				for _, k := range slices.Sorted(maps.Keys(b.data)) {
					if _, ok := s.keys[k]; !ok {
						t.Errorf("%s: relation %s: after step %q, .%s is bound and not in the shape", p.dir, r.name, st.what, k)
					}
				}
			}
			checked++
		}
	}
	t.Logf("%d relations checked", checked)
	if checked < 20 {
		t.Errorf("%d relations checked, want at least 20", checked)
	}
}
