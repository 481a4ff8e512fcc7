package yamlrel

import (
	"context"
	"fmt"
)

// forEach repeats an edit once per element of a list binding: a field
// that a new declaration shifts, every member of a kind.
type forEach struct {
	as    string
	among listRef
}

// forEachYAML repeats an edit once per element of a list binding (a dotted
// path, or a template rendering one), bound to as.
type forEachYAML struct {
	As    String    `yaml:"as"`
	Among amongYAML `yaml:"among"`
}

func compileForEach(u *unit, fy *forEachYAML) (*forEach, error) {
	if fy == nil {
		return nil, nil
	}
	if !identRE.MatchString(fy.As.Value) {
		return nil, fy.As.At("for_each: as %q is not an identifier", fy.As.Value)
	}
	if fy.Among.Value == "" {
		return nil, fy.As.At("for_each: among names the list to repeat the edit over")
	}
	among, err := compileAmong(u, fy.Among.String)
	if err != nil {
		return nil, err
	}
	f := &forEach{as: fy.As.Value, among: among}
	u.each = append(u.each, f)
	return f, nil
}

// elements resolves the list: of strings, numbers or items.
func (f *forEach) elements(ctx context.Context, data map[string]any) ([]any, error) {
	v, path, err := f.among.resolve(ctx, data)
	if err != nil {
		if ctx.Err() != nil || f.among.pathT != nil && path == "" {
			return nil, err
		}
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
