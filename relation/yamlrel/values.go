package yamlrel

import (
	"fmt"
	"strconv"
	"strings"
)

// The values a template sees are of four types: strings (captures, lets,
// names, groups), integers (.line, .count.KIND, .list.index, what add and
// atoi return), lists of strings (.E.names, .region.names.KIND, what pluck,
// split and strings return) and lists of items (.region.items, .decls.KIND,
// tables, what select and sortby return). A function that takes a number
// takes a string holding one; a function that takes a list of strings takes
// any list, an item standing for its name; a function that takes a list of
// items takes a list built by list or concat whose elements are items.
// docs/relations.md tabulates them.

// strs reads a list of strings from any list: numbers are written in
// decimal, an item stands for its name.
func strs(v any) ([]string, error) {
	switch l := v.(type) {
	case []string:
		return l, nil
	case []int:
		out := make([]string, len(l))
		for i, n := range l {
			out[i] = strconv.Itoa(n)
		}
		return out, nil
	case []map[string]any:
		out := make([]string, len(l))
		for i, it := range l {
			s, err := itemName(it)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case []any:
		out := make([]string, len(l))
		for i, x := range l {
			switch y := x.(type) {
			case string:
				out[i] = y
			case int:
				out[i] = strconv.Itoa(y)
			case map[string]any:
				s, err := itemName(y)
				if err != nil {
					return nil, err
				}
				out[i] = s
			default:
				return nil, fmt.Errorf("%v (%T) is not a string", x, x)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%T is not a list", v)
}

func itemName(it map[string]any) (string, error) {
	n, ok := it["name"]
	if !ok {
		return "", fmt.Errorf("an item without a name is not a string")
	}
	return fmt.Sprint(n), nil
}

// names is strs of a list, remembered for a long list of items (their
// names).
func names(v any) ([]string, error) {
	if l, ok := v.([]map[string]any); ok {
		return remembered("names", "", l, func() ([]string, error) { return strs(l) })
	}
	return strs(v)
}

// items reads a list of items: a list of items, or a list (built by list or
// concat) whose elements are all items.
func items(v any) ([]map[string]any, error) {
	switch l := v.(type) {
	case []map[string]any:
		return l, nil
	case []any:
		out := make([]map[string]any, len(l))
		for i, x := range l {
			it, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%v (%T) is not an item", x, x)
			}
			out[i] = it
		}
		return out, nil
	}
	return nil, fmt.Errorf("%T is not a list of items", v)
}

// onStrings lifts a function of a list of strings to any list.
func onStrings[T any](f func([]string) T) func(any) (T, error) {
	return func(v any) (T, error) {
		xs, err := strs(v)
		if err != nil {
			var zero T
			return zero, err
		}
		return f(xs), nil
	}
}

// onItems lifts a function of a list of items (its last argument) to any
// list of items.
func onItems[A, B, T any](f func(A, B, []map[string]any) (T, error)) func(A, B, any) (T, error) {
	return func(a A, b B, v any) (T, error) {
		xs, err := items(v)
		if err != nil {
			var zero T
			return zero, err
		}
		return f(a, b, xs)
	}
}

// truthy reports whether a rendered condition holds: anything but white
// space, false, 0, and the renderings of an empty list or map (what `and`
// and `or` return when they stop at an empty select).
func truthy(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "false", "0", "[]", "map[]":
		return false
	}
	return true
}
