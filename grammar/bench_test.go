package grammar_test

import (
	"strings"
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

// BenchmarkParse measures the grammar read as a parser on a CLL program
// of about 2,000 lines: the largest of 100 generated programs, its cycle
// section repeated.
func BenchmarkParse(b *testing.B) {
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		b.Fatal(err)
	}
	batch, err := grammar.Generate(g, grammar.Options{N: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var src []byte
	for _, p := range batch.Programs {
		if len(p.Source) > len(src) {
			src = p.Source
		}
	}
	s := string(src)
	i, j := strings.Index(s, "\ncycle\n"), strings.Index(s, "\nconfiguration\n")
	body := s[i+len("\ncycle\n") : j]
	var big strings.Builder
	big.WriteString(s[:i+len("\ncycle\n")])
	for strings.Count(big.String(), "\n") < 1950 {
		big.WriteString(body)
	}
	big.WriteString(s[j:])
	src = []byte(big.String())
	p := grammar.NewParser(g)
	if _, err := p.Parse("big.cll", src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for range b.N {
		if _, err := p.Parse("big.cll", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(strings.Count(string(src), "\n")), "lines")
}
