package yamlrel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/mcpt-tool/mcpt/relation/numlit"
)

// The template functions that read numbers read them in the form of the
// seed's language that the relation files name (numbers:, numlit.C when
// none does): every number a relation takes from a seed goes through
// numlit, the numbers the templates write (decimal) read back in any form.

// reader reads the numbers of templates in one form.
type reader struct{ form numlit.Form }

var (
	formFuncsMu sync.Mutex
	formFuncsOf = map[numlit.Form]template.FuncMap{}
)

// formFuncs are the template functions that read numbers, in form f.
func formFuncs(f numlit.Form) template.FuncMap {
	formFuncsMu.Lock()
	defer formFuncsMu.Unlock()
	if m, ok := formFuncsOf[f]; ok {
		return m
	}
	r := reader{f}
	m := template.FuncMap{
		"atoi":      r.atoi,
		"numbers":   r.numbers,
		"add":       r.arith(func(a, b int) (int, error) { return a + b, nil }),
		"sub":       r.arith(func(a, b int) (int, error) { return a - b, nil }),
		"mul":       r.arith(func(a, b int) (int, error) { return a * b, nil }),
		"div":       r.arith(func(a, b int) (int, error) { return divmod(a, b, false) }),
		"mod":       r.arith(func(a, b int) (int, error) { return divmod(a, b, true) }),
		"maxint":    func(xs any, def ...int) (int, error) { return r.extreme(xs, def, func(a, b int) bool { return a > b }) },
		"minint":    func(xs any, def ...int) (int, error) { return r.extreme(xs, def, func(a, b int) bool { return a < b }) },
		"has":       r.has,
		"indexof":   r.indexOf,
		"sortints":  r.sortInts,
		"numbering": onItems(r.numbering),
		"sortby":    r.sortBy,
		"repeat":    r.repeat,
	}
	formFuncsOf[f] = m
	return m
}

// numFunc is the function name of the default form, for the list of
// functions; an evaluation takes the one of its relations' form.
func numFunc(name string) any {
	fn, ok := formFuncs(numlit.C)[name]
	if !ok {
		panic("yamlrel: no number function " + name)
	}
	return fn
}

// atoi reads an integer from an int or a string holding one literal.
func (r reader) atoi(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case string:
		n, err := r.form.Parse(x)
		if err != nil {
			return 0, fmt.Errorf("atoi: %v", err)
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("atoi: %v (%T) is not an integer", v, v)
}

// numbers reads the literals of s; the word max that ends a range reads
// as max[0], and is left out without it.
func (r reader) numbers(s string, max ...int) ([]int, error) {
	if len(max) > 1 {
		return nil, errors.New("numbers: one MAX at most")
	}
	lits := r.form.All(s)
	if len(lits) > maxItems {
		return nil, fmt.Errorf("numbers: over %d numbers", maxItems)
	}
	out := make([]int, 0, len(lits))
	for _, l := range lits {
		switch {
		case !l.Max:
			out = append(out, int(l.Value))
		case len(max) == 1:
			out = append(out, max[0])
		}
	}
	return out, nil
}

// arith lifts an integer operation to numbers given as ints or strings.
func (r reader) arith(op func(a, b int) (int, error)) func(a, b any) (int, error) {
	return func(a, b any) (int, error) {
		x, err := r.atoi(a)
		if err != nil {
			return 0, err
		}
		y, err := r.atoi(b)
		if err != nil {
			return 0, err
		}
		return op(x, y)
	}
}

func divmod(a, b int, mod bool) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	if b == -1 && a == math.MinInt {
		return 0, errors.New("division overflows")
	}
	if mod {
		return a % b, nil
	}
	return a / b, nil
}

// ints reads a list of integers; empty strings are skipped.
func (r reader) ints(xs any) ([]int, error) {
	var out []int
	add := func(v any) error {
		if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
			return nil
		}
		n, err := r.atoi(v)
		if err != nil {
			return err
		}
		out = append(out, n)
		return nil
	}
	switch l := xs.(type) {
	case []int:
		return l, nil
	case []string:
		for _, s := range l {
			if err := add(s); err != nil {
				return nil, err
			}
		}
	case []any:
		for _, v := range l {
			if err := add(v); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("%T is not a list of numbers", xs)
	}
	return out, nil
}

func (r reader) extreme(xs any, def []int, better func(a, b int) bool) (int, error) {
	ns, err := r.ints(xs)
	if err != nil {
		return 0, err
	}
	if len(ns) == 0 {
		if len(def) == 1 {
			return def[0], nil
		}
		return 0, errors.New("empty list and no default")
	}
	best := ns[0]
	for _, n := range ns[1:] {
		if better(n, best) {
			best = n
		}
	}
	return best, nil
}

func (r reader) sortInts(xs any) ([]int, error) {
	ns, err := r.ints(xs)
	ns = slices.Clone(ns)
	slices.Sort(ns)
	return ns, err
}

// numbering numbers items the way C-like enumerations do: an item with a
// value under key has that value, any other item the value of the one
// before it plus one, the first such item start.
func (r reader) numbering(key string, start int, xs []map[string]any) ([]int, error) {
	out := make([]int, len(xs))
	next := start
	for i, it := range xs {
		v, ok := it[key]
		if !ok {
			return nil, fmt.Errorf("numbering: an item has no %q", key)
		}
		if s := strings.TrimSpace(fmt.Sprint(v)); s != "" {
			n, err := r.atoi(s)
			if err != nil {
				return nil, err
			}
			next = n
		}
		out[i] = next
		next++
	}
	return out, nil
}

// sortBy returns the items sorted by the value of key: numerically when
// every value is an integer (field ids), else as strings; equal values keep
// their order.
func (r reader) sortBy(key string, v any) ([]map[string]any, error) {
	xs, err := items(v)
	if err != nil {
		return nil, err
	}
	vals, err := pluck(key, xs)
	if err != nil {
		return nil, err
	}
	nums, numErr := r.ints(vals)
	numeric := numErr == nil && len(nums) == len(vals)
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if numeric {
			return nums[a] - nums[b]
		}
		return strings.Compare(vals[a], vals[b])
	})
	out := make([]map[string]any, len(xs))
	for i, k := range idx {
		out[i] = xs[k]
	}
	return out, nil
}

// indexOf returns the position of x in a list (of strings or numbers), or
// -1.
func (r reader) indexOf(xs any, x any) (int, error) {
	switch l := xs.(type) {
	case []string:
		return indexIn(l, fmt.Sprint(x)), nil
	case []int:
		n, err := r.atoi(x)
		if err != nil {
			return -1, nil
		}
		return slices.Index(l, n), nil
	case []any:
		for i, v := range l {
			if fmt.Sprint(v) == fmt.Sprint(x) {
				return i, nil
			}
		}
		return -1, nil
	}
	if ss, err := names(xs); err == nil {
		return indexIn(ss, fmt.Sprint(x)), nil
	}
	return -1, fmt.Errorf("indexof: %T is not a list", xs)
}

// has tells whether a list holds x; in a list of numbers, x is read as a
// number.
func (r reader) has(xs any, x any) (bool, error) {
	switch l := xs.(type) {
	case []string:
		s, ok := x.(string)
		return ok && indexIn(l, s) >= 0, nil
	case []int:
		n, err := r.atoi(x)
		return err == nil && slices.Contains(l, n), nil
	case []any:
		for _, v := range l {
			if fmt.Sprint(v) == fmt.Sprint(x) {
				return true, nil
			}
		}
		return false, nil
	}
	if ss, err := names(xs); err == nil {
		return indexIn(ss, fmt.Sprint(x)) >= 0, nil
	}
	return false, fmt.Errorf("has: %T is not a list", xs)
}

// repeat is strings.Repeat within maxBytes.
func (r reader) repeat(s string, n any) (string, error) {
	k, err := r.atoi(n)
	if err != nil {
		return "", err
	}
	k = max(k, 0)
	if len(s) > 0 && k > maxBytes/len(s) {
		return "", fmt.Errorf("repeat: %d times %d bytes is over the %d MiB a template value may take", k, len(s), maxBytes>>20)
	}
	return strings.Repeat(s, k), nil
}
