package yamlpos

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
)

// lateT keeps its value to decode later, as a checker's spec is.
type lateT struct{ d Deferred }

func (l *lateT) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	l.d = Defer(ctx, n)
	return nil
}

type manyT struct {
	Anchors map[string]itemT `yaml:"anchors"`
	Checks  []lateT          `yaml:"checks"`
}

// TestDeferredReadsFileOnce: the values a file defers are decoded with
// the decoder that read the file, not each with a decoder that reads the
// file again (a file of 2,000 checks was read 2,000 times: quadratic in
// the file), and an alias in a deferred value still finds its anchor; the
// positions of their values and errors are those of the file.
func TestDeferredReadsFileOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("anchors:\n  base: &base {name: shared, n: 7}\nchecks:\n")
	const n = 2000
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "  - {name: c%d, n: %d}\n", i, i)
		} else {
			b.WriteString("  - *base\n")
		}
	}
	b.WriteString("  - {name: bad, n: many}\n")
	var v manyT
	before := decodersMade.Load()
	if errs, ok := DecodeAll("many.yaml", []byte(b.String()), &v); !ok || len(errs) > 0 {
		t.Fatalf("decoding: %v", errs)
	}
	if len(v.Checks) != n+1 {
		t.Fatalf("%d checks, want %d", len(v.Checks), n+1)
	}
	var errs ErrorList
	for i, c := range v.Checks[:n] {
		var it itemT
		if e, ok := c.d.Decode(&it); !ok || len(e) > 0 {
			t.Fatalf("check %d: %v", i, e)
		}
		want := fmt.Sprintf("c%d", i)
		if i%2 == 1 {
			want = "shared"
		}
		if it.Name.Value != want {
			t.Fatalf("check %d: name %q, want %q", i, it.Name.Value, want)
		}
		if i == 2 && it.Name.Pos.String() != "many.yaml:6:12" {
			t.Errorf("check 2: name at %s, want many.yaml:6:12", it.Name.Pos)
		}
	}
	var it itemT
	e, _ := v.Checks[n].d.Decode(&it)
	errs = append(errs, e...)
	if got := errs.Err(); got == nil || got.Error() != fmt.Sprintf("many.yaml:%d:20: want an integer, found \"many\"", n+4) {
		t.Errorf("the error of the last check: %v", got)
	}
	if made := decodersMade.Load() - before; made != 1 {
		t.Errorf("%d decoders made for one file, want 1: the file is read again per deferred value", made)
	}
}
