package syntax

import (
	"strings"
	"testing"
)

// namedParser is a parser that only has a name; sliceParser one of a type
// that cannot be compared.
type namedParser struct{ name string }

func (p *namedParser) Lang() string                        { return p.name }
func (p *namedParser) Parse(string, []byte) (*Tree, error) { return nil, nil }

type sliceParser []string

func (p sliceParser) Lang() string                        { return p[0] }
func (p sliceParser) Parse(string, []byte) (*Tree, error) { return nil, nil }

// TestParsers: a set finds its parsers by name; adding the same parser
// again changes nothing, and two parsers of one name, a nil parser or one
// without a name are errors; a nil set holds none.
func TestParsers(t *testing.T) {
	var none *Parsers
	if _, ok := none.Lookup("a"); ok || len(none.Names()) != 0 || len(none.All()) != 0 {
		t.Error("a nil set holds parsers")
	}
	a, b := &namedParser{"a"}, &namedParser{"b"}
	set, err := NewParsers(b, a, a)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := set.Lookup("a"); !ok || p != a {
		t.Errorf("Lookup(a) = %v, %v", p, ok)
	}
	if got := strings.Join(set.Names(), " "); got != "a b" {
		t.Errorf("Names() = %q, want sorted a b", got)
	}
	if all := set.All(); len(all) != 2 || all[0] != a || all[1] != b {
		t.Errorf("All() = %v", all)
	}
	for _, c := range []struct {
		p    Parser
		want string
	}{
		{&namedParser{"a"}, `two parsers named "a"`},
		{nil, "a nil parser"},
		{&namedParser{""}, "without a name"},
	} {
		if err := set.Add(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Add(%v) = %v, want %q", c.p, err, c.want)
		}
	}
	s := sliceParser{"s"}
	if err := set.Add(s); err != nil {
		t.Fatal(err)
	}
	if err := set.Add(s); err == nil || !strings.Contains(err.Error(), `two parsers named "s"`) {
		t.Errorf("a parser that cannot be compared, twice: %v", err)
	}
}
