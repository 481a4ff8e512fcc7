package yamlrel

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// longItems is a list of n items named n0, n1, …, every third of kind
// "const", every fifth without key "id".
func longItems(n int) []map[string]any {
	xs := make([]map[string]any, n)
	for i := range xs {
		it := map[string]any{"name": fmt.Sprintf("n%d", i), "kind": "field"}
		if i%3 == 0 {
			it["kind"] = "const"
		}
		if i%5 != 0 {
			it["id"] = fmt.Sprint(i)
		}
		xs[i] = it
	}
	return xs
}

// TestRememberedParts: pluck, select, reject and until on the parts of a
// region's items (before and after each spot) give what they give on a
// copy of the part, which nothing remembers, errors included.
func TestRememberedParts(t *testing.T) {
	whole := longItems(3 * memoMin)
	wholeList(whole)
	check := func(name string, part []map[string]any) {
		t.Helper()
		copied := append([]map[string]any{}, part...)
		for _, f := range []struct {
			fn   string
			call func([]map[string]any) (any, error)
		}{
			{"pluck name", func(xs []map[string]any) (any, error) { return pluck("name", xs) }},
			{"pluck id", func(xs []map[string]any) (any, error) { return pluck("id", xs) }},
			{"select", func(xs []map[string]any) (any, error) { return filter("kind", "^const$", xs, true) }},
			{"reject", func(xs []map[string]any) (any, error) { return filter("kind", "^const$", xs, false) }},
			{"select id", func(xs []map[string]any) (any, error) { return filter("id", "7", xs, true) }},
			{"until", func(xs []map[string]any) (any, error) { return until("kind", "^field$", xs) }},
			{"until id", func(xs []map[string]any) (any, error) { return until("id", "9$", xs) }},
			{"select of a select", func(xs []map[string]any) (any, error) {
				fields, err := filter("kind", "^field$", xs, true)
				if err != nil {
					return nil, err
				}
				return filter("name", "[02468]$", fields, true)
			}},
		} {
			got, gerr := f.call(part)
			want, werr := f.call(copied)
			if (gerr == nil) != (werr == nil) || gerr == nil && fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s of %s: %v, %v; want %v, %v", f.fn, name, got, gerr, want, werr)
			}
		}
	}
	for b := 0; b <= len(whole); b++ {
		check(fmt.Sprintf("before %d", b), whole[:b:b])
		check(fmt.Sprintf("after %d", b), whole[b:])
	}
	// what a select kept of a part is a part of what it kept of the whole,
	// read from ranks in turn
	for _, part := range [][]map[string]any{whole[:2*memoMin], whole[memoMin:]} {
		fields, err := filter("kind", "^field$", part, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := partOf(fields); !ok {
			t.Errorf("the fields of a part of %d items are no part of a whole", len(part))
		}
	}
	for b := len(whole); b >= 0; b-- { // (until remembers the longest suffix seen)
		check(fmt.Sprintf("after %d again", b), whole[b:])
	}
}

// TestRememberedStale: a result remembered on a list is not used once the
// lets of a round changed its items.
func TestRememberedStale(t *testing.T) {
	xs := longItems(2 * memoMin)
	first, err := filter("kind", "^const$", xs, true)
	if err != nil {
		t.Fatal(err)
	}
	xs[1]["kind"] = "const"
	memoGen.Add(1)
	again, err := filter("kind", "^const$", xs, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(first)+1 {
		t.Errorf("select after a change: %d items, before it %d", len(again), len(first))
	}
}

func TestHasIndexLong(t *testing.T) {
	xs := make([]string, 4*memoMin)
	for i := range xs {
		xs[i] = fmt.Sprintf("s%d", i%50)
	}
	r := reader{}
	for _, x := range []string{"s0", "s7", "s49", "s50", ""} {
		i, _ := r.indexOf(xs, x)
		h, _ := r.has(xs, x)
		if x == "s50" || x == "" {
			if i != -1 || h {
				t.Errorf("%q: index %d, has %v in a list without it", x, i, h)
			}
			continue
		}
		var first int
		fmt.Sscanf(x, "s%d", &first)
		if i != first || !h {
			t.Errorf("%q: index %d, has %v; want %d, true", x, i, h, first)
		}
	}
}

func TestTally(t *testing.T) {
	text := strings.Repeat("struct A {} (final)\nstruct B {}\nimport 'x.proto';\n", 200)
	for _, c := range []struct {
		re   string
		v    any
		want map[string]int
	}{
		{`\bstruct\s+(\w+)\s*\{[^}]*\}\s*\([^)]*\bfinal\b`, text, map[string]int{"A": 200}},
		{`import\s+["']([^"']*)["']|struct (B)`, text, map[string]int{"x.proto": 200, "B": 200}},
		{`\w+`, []string{"a b a", "b_c"}, map[string]int{"a": 2, "b": 1, "b_c": 1}},
		{`x`, "", map[string]int{}},
	} {
		for range 2 { // (the second time, remembered)
			got, err := tally(c.re, c.v)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("tally %q: %v, %v; want %v", c.re, got, err, c.want)
			}
		}
	}
	if _, err := tally(`\w+`, 3); err == nil {
		t.Error("tally of a number: no error")
	}
}
