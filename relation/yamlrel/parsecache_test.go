package yamlrel

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
)

// countingParser counts the seeds it parses.
type countingParser struct {
	syntax.Parser
	parses atomic.Int64
}

func (p *countingParser) Lang() string { return "counting-enums" }

func (p *countingParser) Parse(name string, src []byte) (*syntax.Tree, error) {
	p.parses.Add(1)
	return p.Parser.Parse(name, src)
}

// TestParseOncePerSeed: a relation on the syntax tree parses each seed
// once, however many times a campaign asks for its spots and mutates it at
// one spot after another, and with however many relations of the same
// files: parsing is per seed, not per test case or per spot.
func TestParseOncePerSeed(t *testing.T) {
	g, err := grammar.Parse("enums.grammar", []byte(enumGrammar))
	if err != nil {
		t.Fatal(err)
	}
	p := &countingParser{Parser: grammar.NewParser(g)}
	parsers, err := syntax.NewParsers(p)
	if err != nil {
		t.Fatal(err)
	}
	rel := strings.Replace(grammarRelYAML, "syntax: ../lang/enums.grammar", "syntax: counting-enums", 1) + `  - name: add-member-too
    doc: Add a member, again.
    spots: {boundaries: enum}
    fresh: [n]
    insert: '{{.n}}'
    checks:
      - equivalence: {}
`
	rels, err := LoadWith(Options{Parsers: parsers}, fstest.MapFS{"rel.yaml": {Data: []byte(rel)}}, "rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []string{"enum Color { Red, Green, Blue }\n", "enum Size {\n  Small,\n  Large\n}\nenum Mode { Fast }\n"}
	ctx := context.Background()
	cases := 0
	for round := range 3 {
		for _, r := range rels {
			for _, src := range seeds {
				in := relation.Input{Name: "x.enums", Src: []byte(src)}
				ss, err := r.Spots(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range ss {
					if _, err := r.Mutate(ctx, in, s, rngFor(uint64(round))); err != nil {
						t.Fatal(err)
					}
					cases++
				}
			}
		}
	}
	if got := p.parses.Load(); got != int64(len(seeds)) {
		t.Errorf("%d parses for %d seeds and %d test cases, want one per seed", got, len(seeds), cases)
	}
}
