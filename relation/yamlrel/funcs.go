package yamlrel

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"
	"unicode"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/release"
	"github.com/mcpt-tool/mcpt/tree"
)

// holding is the name of the first file of the output tree out (.out, in
// a check rendered when it checks) that has a line matching re, in name
// order; "" when none has: a relation finds the file a generator wrote a
// declaration to instead of computing its name.
func holding(re string, out tree.Tree) (string, error) {
	rx, err := cachedRE("(?m)" + re)
	if err != nil {
		return "", err
	}
	for _, name := range out.Names() {
		if rx.Match(out[name]) {
			return name, nil
		}
	}
	return "", nil
}

// Func is a template function of relation files: its name, its arguments
// and what it does as docs/relations.md tabulates them (Markdown), and the
// Go function templates call.
type Func struct {
	Name string
	Args string // the arguments, as the documentation names them: "KEY ITEMS"
	Doc  string
	Fn   any
}

// Funcs returns the template functions, in the order docs/relations.md
// lists them (its table is generated from this list: go test
// ./relation/yamlrel -run TestFuncsDoc with UPDATE_GOLDEN=1).
func Funcs() []Func { return slices.Clone(funcList) }

var funcList = []Func{
	// Names.
	{"snake", "S", "snake case: `CameraOn` → `camera_on`, `HTTPServer` → `http_server`", relation.Snake},
	{"upper", "S", "upper case of snake: `CameraOn` → `CAMERA_ON`", relation.Upper},
	{"lower", "S", "lower case", strings.ToLower},
	{"caps", "S", "upper case, letter for letter: `CameraOn` → `CAMERAON`", strings.ToUpper},
	{"kebab", "S", "kebab case: `OrderType` → `order-type`", namecase.Kebab},
	{"camel", "S", "camel case: `max_speed` → `maxSpeed`", namecase.Camel},
	{"pascal", "S", "Pascal case: `max_speed` → `MaxSpeed`", namecase.Pascal},
	{"lowerfirst", "S", "the first letter in lower case", namecase.LowerFirst},
	{"upperfirst", "S", "the first letter in upper case", upperFirst},
	{"likecase", "NAME FRESH", "FRESH written as NAME is: as many words, each in NAME's case, with its separators (`likecase \"display_name\" \"zqabcdef\"` → `zqabcdef_cdef`, `HTTPServer` → `ZQABCDEFCdef`); the first word is FRESH, so every form of it holds one of FRESH", namecase.Like},
	// Numbers: a number in a string is read in the form numbers: names.
	{"atoi", "S", "an integer from a string: one literal of the seed's language as `numbers:` names it (decimal, `0x…`, octal, …), or a number a template wrote", numFunc("atoi")},
	{"numbers", "S [MAX]", "the integer literals of S in order (not digits in names, strings or comments; a minus sign with its literal); `max` ending a range (`to max`, form protobuf) reads as MAX, and is left out without it", numFunc("numbers")},
	{"add", "A B", "A + B (integers, or strings holding one: `{{add .K 1}}` with K a let)", numFunc("add")},
	{"sub", "A B", "A − B", numFunc("sub")},
	{"mul", "A B", "A × B", numFunc("mul")},
	{"div", "A B", "A / B, rounded toward zero; B = 0 is an error", numFunc("div")},
	{"mod", "A B", "the remainder of A / B", numFunc("mod")},
	{"maxint", "LIST [DEFAULT]", "the largest of numbers or numeric strings, empty strings skipped; an empty list is an error without DEFAULT", numFunc("maxint")},
	{"minint", "LIST [DEFAULT]", "the smallest, as `maxint`", numFunc("minint")},
	// Lists.
	{"list", "X…", "a list of the values", func(xs ...any) []any { return xs }},
	{"strings", "S…", "a list of strings", func(xs ...string) []string { return xs }},
	{"dict", "K V…", "a map of keys to values: an item", dict},
	{"concat", "LIST…", "the lists one after the other; of items and `dict`s, a list of items", concat},
	{"split", "S SEP", "the pieces of S between the SEPs", split},
	{"join", "SEP LIST", "the strings of the list with SEP between them", join},
	{"first", "LIST", "the first string of the list, \"\" when empty", onStrings(func(xs []string) string {
		if len(xs) == 0 {
			return ""
		}
		return xs[0]
	})},
	{"last", "LIST", "the last string of the list, \"\" when empty", onStrings(func(xs []string) string {
		if len(xs) == 0 {
			return ""
		}
		return xs[len(xs)-1]
	})},
	{"has", "LIST X", "whether the list holds X (a number, in a list of numbers)", numFunc("has")},
	{"indexof", "LIST X", "the position of X in the list, -1 when absent (`{{indexof .region.names.field .prev.field}}`)", numFunc("indexof")},
	{"sortstrings", "LIST", "a sorted copy", onStrings(func(xs []string) []string {
		ys := slices.Clone(xs)
		slices.Sort(ys)
		return ys
	})},
	{"sortints", "LIST", "a copy sorted as numbers (`{{sortints (pluck \"id\" .region.items)}}`)", numFunc("sortints")},
	// Items.
	{"pluck", "KEY ITEMS", "the KEY of each item, as strings", pluck},
	{"select", "KEY RE ITEMS", "the items whose KEY matches RE", onItems(func(key, re string, xs []map[string]any) ([]map[string]any, error) { return filter(key, re, xs, true) })},
	{"reject", "KEY RE ITEMS", "the items whose KEY does not match RE", onItems(func(key, re string, xs []map[string]any) ([]map[string]any, error) { return filter(key, re, xs, false) })},
	{"until", "KEY RE ITEMS", "the leading items, up to the first whose KEY matches RE", onItems(until)},
	{"find", "KEY VALUE ITEMS", "the first item whose KEY is VALUE (compared as text), an empty item when none: on a seed's long lists a lookup, not a search (`{{with find \"name\" .type .decls.type}}{{.what}}{{end}}`, what the type a field names is)", onItems(find)},
	{"numbering", "KEY START ITEMS", "C-style enumerator values: an item's KEY if set, else the previous value plus one, the first START", numFunc("numbering")},
	{"sortby", "KEY ITEMS", "the items sorted by KEY, as numbers when every value is one, else as strings; ties keep their order (`{{last (pluck \"name\" (sortby \"id\" .region.items))}}`, the field of the largest id)", numFunc("sortby")},
	// Text and patterns.
	{"quote", "S", "S as a Go string literal, in double quotes", func(s string) (string, error) { return checked("quote", fmt.Sprintf("%q", s)) }},
	{"re", "S", "S quoted for a regular expression", regexp.QuoteMeta},
	{"alt", "LIST", "a pattern matching exactly one of the strings (quoted); for an empty list, one that matches nothing", onStrings(alt)},
	{"match", "RE S", "whether RE matches S", func(re, s string) (bool, error) {
		return matchedText("match", re, s, func() (bool, error) { rx, err := cachedRE(re); return err == nil && rx.MatchString(s), err })
	}},
	{"count", "RE S", "how many times RE matches S", func(re, s string) (int, error) {
		return matchedText("count", re, s, func() (int, error) {
			rx, err := cachedRE(re)
			if err != nil {
				return 0, err
			}
			n := len(rx.FindAllStringIndex(s, maxItems+1))
			if n > maxItems {
				return 0, fmt.Errorf("count: over %d matches", maxItems)
			}
			return n, nil
		})
	}},
	{"tally", "RE S", "how many times each text matches RE in S, a string or a list of strings: a map from the first group that took part in a match (the whole match when none did) to its count, computed once for a seed's text or list (`{{index (tally \"\\\\w+\" .input.text) .region.name}}`, the words that are the region's name, for every spot in the time of one)", tally},
	{"resub", "RE REPL S", "S with every match of RE replaced by REPL (`${1}` for a group)", func(re, repl, s string) (string, error) {
		rx, err := cachedRE(re)
		if err != nil {
			return "", err
		}
		return replaceAll(rx, repl, s)
	}},
	{"repeat", "S N", "S repeated N times (alignment)", numFunc("repeat")},
	// Releases.
	{"atleast", "V MIN", "whether the release V (`.release`) is MIN or newer, versions compared as semantic versions are (`{{if atleast .release \"4.4\"}}`); an unknown release (\"\") is an error", atLeast},
	{"inrange", "V RANGE", "whether the release V is in RANGE, comparisons that all hold, alternatives separated by `||` (`{{if inrange .release \">=4.0 <5.0\"}}`); an unknown release is an error", inRange},
	// Files.
	{"holding", "RE .out", "the first file of the base output (in name order) with a line matching RE, \"\" when none (see *Files found in the output*)", holding},
	{"dir", "PATH", "the directory of a path", path.Dir},
	// Go's builtins that make strings, within the limits of a template.
	{"print", "X…", "as Go's `fmt.Sprint`", func(args ...any) (string, error) { return checked("print", fmt.Sprint(args...)) }},
	{"println", "X…", "as Go's `fmt.Sprintln`", func(args ...any) (string, error) { return checked("println", fmt.Sprintln(args...)) }},
	{"printf", "FORMAT X…", "as Go's `fmt.Sprintf`", func(f string, args ...any) (string, error) { return checked("printf", fmt.Sprintf(f, args...)) }},
	{"html", "X…", "as text/template's `html`", func(args ...any) (string, error) { return checked("html", template.HTMLEscaper(args...)) }},
	{"js", "X…", "as text/template's `js`", func(args ...any) (string, error) { return checked("js", template.JSEscaper(args...)) }},
	{"urlquery", "X…", "as text/template's `urlquery`", func(args ...any) (string, error) { return checked("urlquery", template.URLQueryEscaper(args...)) }},
}

// funcs is funcList as text/template takes it.
var funcs = func() template.FuncMap {
	m := template.FuncMap{}
	for _, f := range funcList {
		if _, dup := m[f.Name]; dup {
			panic("yamlrel: template function " + f.Name + " defined twice")
		}
		m[f.Name] = f.Fn
	}
	return m
}()

// funcTable is the Markdown table of the template functions that
// docs/relations.md holds.
func funcTable() string {
	var b strings.Builder
	b.WriteString("| function | value |\n|---|---|\n")
	for _, f := range funcList {
		use := f.Name
		if f.Args != "" {
			use += " " + f.Args
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", use, f.Doc)
	}
	return b.String()
}

// pluck returns the value of key in each item, as strings.
func pluck(key string, v any) ([]string, error) {
	xs, err := items(v)
	if err != nil {
		return nil, err
	}
	if w, off, ok := partOf(xs); ok {
		all, err := remembered("pluck", key, w, func() ([]string, error) { return pluckItems(key, w) })
		if err == nil {
			return all[off : off+len(xs) : off+len(xs)], nil
		}
	}
	return remembered("pluck", key, xs, func() ([]string, error) { return pluckItems(key, xs) })
}

// find is the first item of xs whose key is value, an empty item when
// none. On a long list it looks value up in an index of the list by key,
// made once: every spot of a seed may look a name up in its declarations.
func find(key string, value any, xs []map[string]any) (map[string]any, error) {
	v := text(value)
	if len(xs) >= memoMin {
		idx, err := remembered("find", key, xs, func() (map[string]int, error) {
			idx := map[string]int{}
			for i, it := range xs {
				if x, ok := it[key]; ok {
					if _, seen := idx[text(x)]; !seen {
						idx[text(x)] = i
					}
				}
			}
			return idx, nil
		})
		if err != nil {
			return nil, err
		}
		if i, ok := idx[v]; ok {
			return xs[i], nil
		}
		return map[string]any{}, nil
	}
	for _, it := range xs {
		if x, ok := it[key]; ok && text(x) == v {
			return it, nil
		}
	}
	return map[string]any{}, nil
}

func pluckItems(key string, xs []map[string]any) ([]string, error) {
	out := make([]string, 0, len(xs))
	for _, it := range xs {
		v, ok := it[key]
		if !ok {
			return nil, fmt.Errorf("pluck: an item has no %q", key)
		}
		out = append(out, text(v))
	}
	return out, nil
}

// text is v as a string: itself when it is one (most item values), else
// as fmt.Sprint prints it.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// filter keeps the items whose key matches re (keep) or does not (!keep).
func filter(key, re string, xs []map[string]any, keep bool) ([]map[string]any, error) {
	fn := "select"
	if !keep {
		fn = "reject"
	}
	if w, off, ok := partOf(xs); ok {
		sel, err := remembered(fn+"-rank", key+"\x00"+re, w, func() (selected, error) {
			s := selected{kept: []map[string]any{}, rank: make([]int, len(w)+1)}
			rx, err := cachedRE(re)
			if err != nil {
				return s, err
			}
			for i, it := range w {
				v, ok := it[key]
				if !ok {
					return s, fmt.Errorf("an item has no %q", key)
				}
				if rx.MatchString(text(v)) == keep {
					s.kept = append(s.kept, it)
				}
				s.rank[i+1] = len(s.kept)
			}
			// (a select on what this one kept before or after a spot,
			// select "what" … (select "kind" … .region.before), is then
			// read from ranks too, not searched for every spot)
			wholeList(s.kept)
			return s, nil
		})
		if err == nil {
			i, j := sel.rank[off], sel.rank[off+len(xs)]
			return sel.kept[i:j:j], nil
		}
	}
	return remembered(fn, key+"\x00"+re, xs, func() ([]map[string]any, error) { return filterItems(key, re, xs, keep) })
}

func filterItems(key, re string, xs []map[string]any, keep bool) ([]map[string]any, error) {
	rx, err := cachedRE(re)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, it := range xs {
		v, ok := it[key]
		if !ok {
			return nil, fmt.Errorf("an item has no %q", key)
		}
		if rx.MatchString(text(v)) == keep {
			out = append(out, it)
		}
	}
	return out, nil
}

// until returns the leading items up to (not including) the first whose key
// matches re.
func until(key, re string, xs []map[string]any) ([]map[string]any, error) {
	rx, err := cachedRE(re)
	if err != nil {
		return nil, err
	}
	if len(xs) >= memoMin {
		return untilMemo(key, re, xs, rx)
	}
	for i, it := range xs {
		v, ok := it[key]
		if !ok {
			return nil, fmt.Errorf("until: an item has no %q", key)
		}
		if rx.MatchString(text(v)) {
			return xs[:i], nil
		}
	}
	return xs, nil
}

// concat joins lists: of strings, or of numbers, items and other values
// (a list of items when every element is one).
func concat(lists ...any) (any, error) {
	if len(lists) == 0 {
		return []any{}, nil
	}
	total := 0
	for _, l := range lists {
		if rv := reflect.ValueOf(l); rv.Kind() == reflect.Slice {
			total += rv.Len()
		}
	}
	if total > maxItems {
		return nil, fmt.Errorf("concat: over %d elements", maxItems)
	}
	switch lists[0].(type) {
	case []string:
		var out []string
		for _, l := range lists {
			x, ok := l.([]string)
			if !ok {
				return nil, fmt.Errorf("concat: %T and []string", l)
			}
			out = append(out, x...)
		}
		return out, nil
	}
	var out []any
	for _, l := range lists {
		switch x := l.(type) {
		case []any:
			out = append(out, x...)
		case []int:
			for _, n := range x {
				out = append(out, n)
			}
		case []string:
			for _, n := range x {
				out = append(out, n)
			}
		case []map[string]any:
			for _, it := range x {
				out = append(out, it)
			}
		default:
			return nil, fmt.Errorf("concat: %T is not a list", l)
		}
	}
	// Items and item maps built with dict make a list of items.
	items := make([]map[string]any, 0, len(out))
	for _, v := range out {
		it, ok := v.(map[string]any)
		if !ok {
			return out, nil
		}
		items = append(items, it)
	}
	return items, nil
}

func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, errors.New("dict: odd number of arguments")
	}
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

// alt is a regular expression matching exactly one of the strings; with no
// string, it matches nothing.
func alt(xs []string) string {
	if len(xs) == 0 {
		return `[^\s\S]`
	}
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = regexp.QuoteMeta(x)
	}
	return "(?:" + strings.Join(q, "|") + ")"
}

func upperFirst(s string) string {
	for i, c := range s {
		return string(unicode.ToUpper(c)) + s[i+len(string(c)):]
	}
	return s
}

// replaceAll is rx.ReplaceAllString within maxBytes: the matches are
// counted first (each adds at most the replacement with every group
// expanded to the whole of s), so that the result is never built when it
// could be too large.
func replaceAll(rx *regexp.Regexp, repl, s string) (string, error) {
	if rx == nil {
		return s, nil
	}
	per := len(repl)
	if strings.Contains(repl, "$") {
		per += strings.Count(repl, "$") * len(s)
	}
	if per > 0 {
		limit := maxBytes/per + 1
		if n := len(rx.FindAllStringIndex(s, limit)); n >= limit && len(s)+n*per > maxBytes {
			return "", tooLarge("resub", len(s)+n*per)
		}
	}
	return checked("resub", rx.ReplaceAllString(s, repl))
}

// split is strings.Split within maxItems.
func split(s, sep string) ([]string, error) {
	n := len(s) + 1
	if sep != "" {
		n = strings.Count(s, sep) + 1
	}
	if n > maxItems {
		return nil, fmt.Errorf("split: over %d pieces", maxItems)
	}
	return strings.Split(s, sep), nil
}

// join is strings.Join within maxBytes.
func join(sep string, v any) (string, error) {
	xs, err := strs(v)
	if err != nil {
		return "", err
	}
	n := len(sep) * max(len(xs)-1, 0)
	for _, x := range xs {
		if n += len(x); n > maxBytes {
			return "", tooLarge("join", n)
		}
	}
	return strings.Join(xs, sep), nil
}

// reCache holds the patterns that templates and checkers compile, so that
// each is compiled once and not for every test case. Patterns rendered from
// fresh names differ from case to case, so the cache is bounded, by the
// patterns and by their bytes (a compiled pattern takes up to 50 times
// its text): when it is full it starts afresh.
var reCache struct {
	sync.Mutex
	m     map[string]*regexp.Regexp
	bytes int
}

const (
	reCacheSize  = 4096
	reCacheBytes = 4 << 20
	// maxPattern bounds the text of a pattern a template or a checker
	// compiles: compiling one takes some 240 bytes a byte of its text (a
	// pattern of 5 MB, the text of an input, took 1.5 GB), and matching
	// it, in the worst case, time proportional to its length times the
	// text's. An alternation of 5,000 names takes 50 KB.
	maxPattern = 64 << 10
)

// cachedRE compiles a pattern, or returns it compiled already.
func cachedRE(re string) (*regexp.Regexp, error) {
	reCache.Lock()
	rx, ok := reCache.m[re]
	reCache.Unlock()
	if ok {
		return rx, nil
	}
	if len(re) > maxPattern {
		return nil, fmt.Errorf("a pattern of %d bytes, over the %d KiB a pattern may take", len(re), maxPattern>>10)
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, fmt.Errorf("bad pattern %q: %v", re, err)
	}
	if len(re) > reCacheBytes/16 {
		return rx, nil // (not kept: it would crowd out the others)
	}
	reCache.Lock()
	if reCache.m == nil || len(reCache.m) >= reCacheSize || reCache.bytes+len(re) > reCacheBytes {
		reCache.m, reCache.bytes = make(map[string]*regexp.Regexp), 0
	}
	reCache.m[re] = rx
	reCache.bytes += len(re)
	reCache.Unlock()
	return rx, nil
}

// errNoRelease is the error of a comparison with an unknown release.
var errNoRelease = errors.New("the release of the transpiler is not known: the configuration gives no transpiler.version")

// atLeast tells whether the release v is min or newer.
func atLeast(v, min string) (bool, error) {
	if v == "" {
		return false, errNoRelease
	}
	return release.AtLeast(v, min)
}

// inRange tells whether the release v is in the range rng.
func inRange(v, rng string) (bool, error) {
	if v == "" {
		return false, errNoRelease
	}
	r, err := release.ParseRange(rng)
	if err != nil {
		return false, err
	}
	ver, err := release.Parse(v)
	if err != nil {
		return false, err
	}
	return r.Contains(ver), nil
}
