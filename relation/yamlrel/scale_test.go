package yamlrel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
)

// manyRelations is a relation file of n relations on the enums of
// enumGrammar, each with lets, a spots condition and checks: templates
// to load and evaluate.
func manyRelations(n int) string {
	var b strings.Builder
	b.WriteString(grammarRelYAML) // its relations last
	for i := range n {
		fmt.Fprintf(&b, `  - name: add-member-%d
    doc: Add a member, again (%d).
    spots:
      boundaries: enum
      only: '{{ne .region.name "Never%d"}}'
    fresh: [n]
    let:
      - upper: '{{caps .n}}'
      - where: '{{.region.name}}.{{.upper}}'
    insert: '{{.n}}'
    checks:
      - equivalence: {except: ['{{.where}}.h']}
      - difference:
          name: member
          file: '{{.region.name}}.h'
          edits:
            - insert: '  {{.upper}},'
              where: [{after: ['enum {{.region.name}} {']}]
`, i, i, i)
	}
	return b.String()
}

// TestTemplatesShareFunctions: the templates of many relations are
// evaluated by a few evaluators, each holding the template functions
// once, not each template with a copy of them of its own (9 KB a
// template: 10,000 relations took gigabytes).
func TestTemplatesShareFunctions(t *testing.T) {
	fsys := grammarFS(manyRelations(200), enumGrammar)
	rels, err := Load(fsys, "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 201 {
		t.Fatalf("%d relations, want 201", len(rels))
	}
	before := evaluatorsMade.Load()
	ctx := context.Background()
	in := relation.Input{Name: "x.enums", Src: []byte("enum Color { Red, Green }\n")}
	mutated := 0
	for _, r := range rels {
		ss, err := r.Spots(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		fu, err := r.Mutate(ctx, in, ss[1], rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fu.Src), "Red,") {
			t.Fatalf("follow-up %q", fu.Src)
		}
		mutated++
	}
	// Each relation evaluated its spots condition, lets, insert and check
	// templates: over a thousand templates, in one goroutine.
	if made := evaluatorsMade.Load() - before; made > 8 {
		t.Errorf("%d evaluators made for %d relations' templates: the templates do not share them", made, mutated)
	}
}

// BenchmarkLoadRelations loads a file of 1,000 relations: the time and
// memory per relation must not grow with their number (the file was read
// again for each checker, and each template copied the template
// functions).
func BenchmarkLoadRelations(b *testing.B) {
	for _, n := range []int{250, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := grammarFS(manyRelations(n), enumGrammar)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(fsys, "pack/rels/rel.yaml"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/relation")
		})
	}
}
