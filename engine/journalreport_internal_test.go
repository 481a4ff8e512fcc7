package engine

import (
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/matrix"
)

// TestCombinationsOf: the combinations named from a matrix's fingerprint,
// as a journal's header holds it, are the matrix's, in its order, with
// arguments that hold the separators of the fingerprint.
func TestCombinationsOf(t *testing.T) {
	m := matrix.Matrix{
		{Name: "target", Values: []matrix.Value{{Name: "es2017", Args: []string{"--target", "es2017"}}, {Name: "es2022", Args: []string{"--x=a; b, [c]", `"q\"`}}}},
		{Name: "module", Values: []matrix.Value{{Name: "commonjs", Args: []string{"--module", "commonjs"}}, {Name: "esnext"}, {Name: "node16", Args: []string{"]"}}}},
	}
	var want []string
	for _, c := range m.Combinations() {
		want = append(want, c.String())
	}
	if got := combinationsOf(m.Fingerprint()); !slices.Equal(got, want) {
		t.Errorf("combinationsOf(%q) = %q, want %q", m.Fingerprint(), got, want)
	}
}
