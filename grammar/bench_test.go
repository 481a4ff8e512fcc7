package grammar_test

import (
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
)

// BenchmarkGenerate measures derivations of cll.grammar, in programs per
// second (validity is not checked here).
func BenchmarkGenerate(b *testing.B) {
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		b.Fatal(err)
	}
	lines := 0
	b.ResetTimer()
	for i := range b.N {
		src, err := g.Derive(grammar.NewStream(grammar.ProgramSeed(1, i)))
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
	b.ReportMetric(float64(lines)/float64(b.N), "lines/program")
}
