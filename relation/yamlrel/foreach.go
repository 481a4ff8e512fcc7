package yamlrel

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// forEach repeats an edit once per element of a list binding: a field
// that a new declaration shifts, every member of a kind.
type forEach struct {
	as       string
	among    string         // dotted path to a list binding
	amongStr yamlpos.String // as written
	amongT   *tmpl          // the path, when it is a template
}

// forEachYAML repeats an edit once per element of a list binding (a dotted
// path, or a template rendering one), bound to as.
type forEachYAML struct {
	As    String `yaml:"as"`
	Among String `yaml:"among"`
}

func compileForEach(fy *forEachYAML) (*forEach, error) {
	if fy == nil {
		return nil, nil
	}
	if !identRE.MatchString(fy.As.Value) {
		return nil, fy.As.At("for_each: as %q is not an identifier", fy.As.Value)
	}
	if fy.Among.Value == "" {
		return nil, fy.As.At("for_each: among names the list to repeat the edit over")
	}
	f := &forEach{as: fy.As.Value, among: fy.Among.Value, amongStr: fy.Among}
	if strings.Contains(f.among, "{{") {
		t, err := mkTmpl(fy.Among)
		if err != nil {
			return nil, err
		}
		f.amongT = t
	}
	return f, nil
}

// elements resolves the list: of strings, numbers or items.
func (f *forEach) elements(ctx context.Context, data map[string]any) ([]any, error) {
	path := f.among
	if f.amongT != nil {
		var err error
		if path, err = f.amongT.render(ctx, data); err != nil {
			return nil, err
		}
	}
	v, err := lookup(data, path)
	if err != nil {
		return nil, fmt.Errorf("for_each: %v", err)
	}
	switch xs := v.(type) {
	case []any:
		return xs, nil
	case []string:
		return anys(xs), nil
	case []int:
		return anys(xs), nil
	case []map[string]any:
		return anys(xs), nil
	}
	return nil, fmt.Errorf("for_each: %s is not a list", path)
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
