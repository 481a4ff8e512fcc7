package infer

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/tree"
)

// Sample is a seed with its syntax tree and the transpiler's output of
// it: what infer learns the generator's habits from.
type Sample struct {
	Tree   *syntax.Tree
	Output tree.Tree
}

// Habits are what the outputs of the seeds say of the generator.
type Habits struct {
	// Forms are the name forms in which the outputs write the seeds'
	// declared names (snake, camel, upperfirst: setDisplay_name, …),
	// written first.
	Forms []string
	// Generic are the declared names that the generator writes of its
	// own: a word of the output of a seed that declares it in no form and
	// mentions it nowhere (a field called name, and Python's __name__).
	Generic []string
	// Tables are the shapes of the lines the generator writes for the
	// whole input rather than for one declaration: runs of lines that
	// differ only in numbers and the content of string literals (tables of
	// numbers, serialized descriptors), as patterns that match such a
	// line.
	Tables []string
	// Places are the places (oracle.PlaceOf) at which the outputs list
	// the declarations of a list in the order of the input, as patterns:
	// where the seeds show it (a list whose order by name or by number
	// differs from the input's is listed in the input's order there) and
	// never show otherwise. NumberPlaces are those at which they list
	// them by their numbers (thrift's writers, by field id).
	Places, NumberPlaces []string
	// Counters are the prefixes of the identifiers the generator numbers
	// by a counter of its own (_size12, tmp627): a declaration added
	// before them renumbers them.
	Counters []string
	// Samples and Names are how many seeds and declared names the habits
	// were learned from.
	Samples, Names int
}

// formCandidates are the forms looked for in the outputs, in the order of
// namecase.Forms and then those of mixed case.
var formCandidates = namecase.Names()

// Learn reads the habits of the generator in the outputs of the samples,
// whose trees hold the lists; form reads their numbers.
func Learn(samples []Sample, lists []*List, form numlit.Form) Habits {
	h := Habits{Samples: len(samples)}
	words := make([]map[string]bool, len(samples))  // the identifier words of each output
	inputs := make([]map[string]bool, len(samples)) // the words of each input, lower-cased
	declared := make([][]string, len(samples))
	seen := map[string]bool{}
	formCount := map[string]int{}
	considered := 0
	for i, s := range samples {
		words[i] = outputWords(s.Output)
		inputs[i] = map[string]bool{}
		for _, w := range identRE.FindAllString(string(s.Tree.Src), -1) {
			inputs[i][strings.ToLower(w)] = true
		}
		syntax.Walk(s.Tree.Root, func(n *syntax.Node) bool {
			if isName(n) {
				declared[i] = append(declared[i], n.Text(s.Tree.Src))
			}
			return true
		})
		slices.Sort(declared[i])
		declared[i] = slices.Compact(declared[i])
		for _, name := range declared[i] {
			if !seen[name] {
				seen[name] = true
				h.Names++
			}
			if len(name) < 3 {
				continue
			}
			considered++
			for _, f := range formCandidates {
				fn, _ := namecase.Form(f)
				v := fn(name)
				if f != "written" && v == name {
					continue // no evidence: the form is the name as written
				}
				if words[i][v] {
					formCount[f]++
				}
			}
		}
	}
	for _, f := range formCandidates {
		// A form is the generator's when it writes a name so for one
		// declared name in twenty, or for three names at least.
		if f == "written" || formCount[f] >= 3 && formCount[f]*20 >= considered {
			h.Forms = append(h.Forms, f)
		}
	}
	// A declared name is a word of the generator when the output of
	// another seed, which mentions it nowhere, has it as a word.
	generic := map[string]bool{}
	for i := range samples {
		for _, name := range declared[i] {
			if generic[name] {
				continue
			}
			for j := range samples {
				if j == i || inputs[j][strings.ToLower(name)] || inputMentions(inputs[j], name) {
					continue
				}
				if wordIn(words[j], name) {
					generic[name] = true
					break
				}
			}
		}
	}
	h.Generic = slices.Sorted(mapKeys(generic))
	h.Tables = tables(samples)
	h.Counters = counters(samples, declared)
	h.Places, h.NumberPlaces = places(samples, lists, h.Forms, form)
	return h
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// outputWords are the identifiers of an output tree and their words (split
// at underscores and changes of case), in every form they stand.
func outputWords(out tree.Tree) map[string]bool {
	ws := map[string]bool{}
	for _, f := range out.Names() {
		for _, id := range identRE.FindAllString(string(out[f]), -1) {
			ws[id] = true
			for _, w := range splitWords(id) {
				ws[w] = true
			}
		}
	}
	return ws
}

// splitWords splits an identifier at underscores and changes of case, and
// also yields each run of words joined as written (get_display_name: get,
// display, name, display_name, get_display).
func splitWords(id string) []string {
	var parts []string
	for _, p := range strings.Split(id, "_") {
		if p == "" {
			continue
		}
		start := 0
		r := []rune(p)
		for i := 1; i < len(r); i++ {
			if wordStart(r, i) {
				parts = append(parts, string(r[start:i]))
				start = i
			}
		}
		parts = append(parts, string(r[start:]))
	}
	out := slices.Clone(parts)
	// runs joined by underscores, as the generator would write a
	// multi-word name inside a longer one
	us := strings.Split(strings.Trim(id, "_"), "_")
	for i := range us {
		for j := i + 2; j <= len(us) && j-i <= 4; j++ {
			out = append(out, strings.Join(us[i:j], "_"))
		}
	}
	return out
}

func wordStart(r []rune, j int) bool {
	up := func(c rune) bool { return c >= 'A' && c <= 'Z' }
	low := func(c rune) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	if !up(r[j]) {
		return false
	}
	return low(r[j-1]) || up(r[j-1]) && j+1 < len(r) && low(r[j+1])
}

// inputMentions reports whether an input's words (lower case) hold any
// word of name: a seed that mentions part of a name may have it in its
// output by its own right.
func inputMentions(in map[string]bool, name string) bool {
	for _, w := range splitWords(name) {
		if in[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// wordIn reports whether a form of name is a word of an output.
func wordIn(ws map[string]bool, name string) bool {
	for _, f := range namecase.Forms {
		fn, _ := namecase.Form(f)
		if ws[fn(name)] {
			return true
		}
	}
	return false
}

var (
	strLitRE = regexp.MustCompile(`"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'`)
	numRE    = regexp.MustCompile(`-?\b(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b`)
	wsRE     = regexp.MustCompile(`\s+`)
	letterRE = regexp.MustCompile(`[A-Za-z_]`)
)

// tableShape is a line with the content of its string literals and its
// numbers masked, white space collapsed; ok is false for a line that has
// neither (or a word outside its strings): no line of a table.
func tableShape(line string) (shape string, ok bool) {
	t := strings.TrimSpace(line)
	if t == "" {
		return "", false
	}
	hadStr := strLitRE.MatchString(t)
	t = strLitRE.ReplaceAllStringFunc(t, func(s string) string { return s[:1] + "…" + s[:1] })
	hadNum := numRE.MatchString(t)
	t = numRE.ReplaceAllString(t, "#")
	if !hadStr && !hadNum || letterRE.MatchString(t) {
		return "", false
	}
	// a table's row, not a line of punctuation: it holds a value
	if strings.Trim(t, "#…\"' ") == t && !strings.ContainsAny(t, "#…") {
		return "", false
	}
	return wsRE.ReplaceAllString(t, " "), true
}

// tables finds the shapes of table lines: a shape that four lines in a
// row have in an output file, in the outputs of two seeds at least (or of
// the one seed there is).
func tables(samples []Sample) []string {
	seeds := map[string]int{}
	for _, s := range samples {
		found := map[string]bool{}
		for _, f := range s.Output.Names() {
			prev, run := "", 0
			for _, line := range strings.Split(string(s.Output[f]), "\n") {
				sh, ok := tableShape(line)
				switch {
				case !ok:
					prev, run = "", 0
					continue
				case sh == prev:
					run++
				default:
					prev, run = sh, 1
				}
				if run == 4 {
					found[sh] = true
				}
			}
		}
		for sh := range found {
			seeds[sh]++
		}
	}
	need := min(2, len(samples))
	var out []string
	for sh, n := range seeds {
		if n >= need {
			out = append(out, shapePattern(sh))
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// shapePattern is the pattern of the lines of a table shape: its string
// literals any string, its numbers any number, its white space any.
func shapePattern(sh string) string {
	var b strings.Builder
	b.WriteString(`^\s*`)
	for i := 0; i < len(sh); {
		switch {
		case strings.HasPrefix(sh[i:], `"…"`):
			b.WriteString(`"(\\.|[^"\\])*"`)
			i += len(`"…"`)
		case strings.HasPrefix(sh[i:], `'…'`):
			b.WriteString(`'(\\.|[^'\\])*'`)
			i += len(`'…'`)
		case sh[i] == '#':
			b.WriteString(`-?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*`)
			i++
		case sh[i] == ' ':
			b.WriteString(`\s*`)
			i++
		default:
			b.WriteString(regexp.QuoteMeta(sh[i : i+1]))
			i++
		}
	}
	b.WriteString(`\s*$`)
	return b.String()
}

var counterRE = regexp.MustCompile(`\b([A-Za-z_]*[A-Za-z_])([0-9]+)\b`)

// counters finds the prefixes of numbered temporaries: identifiers PREFIX
// + digits of which an output file has five numbers or more, none of them
// a declared name of its seed (field1, field2, … are the input's).
func counters(samples []Sample, declared [][]string) []string {
	found := map[string]bool{}
	for i, s := range samples {
		for _, f := range s.Output.Names() {
			nums := map[string]map[string]bool{}
			for _, m := range counterRE.FindAllStringSubmatch(string(s.Output[f]), -1) {
				if endsDeclared(m[0], declared[i]) {
					nums[m[1]] = nil // a declared name: the prefix is none
					continue
				}
				if set, ok := nums[m[1]]; ok && set == nil {
					continue
				}
				if nums[m[1]] == nil {
					nums[m[1]] = map[string]bool{}
				}
				nums[m[1]][m[2]] = true
			}
			for p, set := range nums {
				if len(set) >= 5 && len(p) >= 2 {
					found[p] = true
				}
			}
		}
	}
	return slices.Sorted(mapKeys(found))
}

// endsDeclared reports whether identifier id is, or ends with, a declared
// name (sorted), after an underscore or a change of case: __set_def1 is a
// setter of the field def1, no counter.
func endsDeclared(id string, declared []string) bool {
	for k := 0; k < len(id); k++ {
		if k > 0 && !(id[k-1] == '_' || id[k] >= 'A' && id[k] <= 'Z' && id[k-1] >= 'a' && id[k-1] <= 'z') {
			continue
		}
		if _, ok := slices.BinarySearch(declared, id[k:]); ok {
			return true
		}
		if _, ok := slices.BinarySearch(declared, strings.ToLower(id[k:k+1])+id[k+1:]); ok {
			return true
		}
	}
	return false
}

// placeStats is what the seeds show of one place.
type placeStats struct {
	declOrder, otherOrder, byNumber int
}

// places learns at which places the outputs list a list's declarations
// in the input's order, and at which by their numbers: for each list of
// two declarations or more, each output file, each place at which a line
// names one declaration alone, the order in which the place names them.
// An order the input's differs from by name (or by number) is evidence;
// one that coincides with it is none.
func places(samples []Sample, lists []*List, forms []string, form numlit.Form) (decl, byNumber []string) {
	types := map[string]*List{}
	var spec syntax.ListSpec
	for _, l := range lists {
		types[l.Type] = l
		spec.Lists = append(spec.Lists, l.Type)
	}
	stats := map[string]*placeStats{}
	fns := make([]func(string) string, 0, len(forms))
	for _, f := range forms {
		if fn, ok := namecase.Form(f); ok {
			fns = append(fns, fn)
		}
	}
	for _, s := range samples {
		src := s.Tree.Src
		var all []string
		syntax.Walk(s.Tree.Root, func(n *syntax.Node) bool {
			if isName(n) {
				all = append(all, n.Text(src))
			}
			return true
		})
		slices.Sort(all)
		all = slices.Compact(all)
		others := make([]oracle.Name, len(all))
		for i, a := range all {
			others[i] = formName(a, fns)
		}
		for _, l := range syntax.Lists(s.Tree, syntax.ListSpec{Lists: spec.Lists}) {
			lt := types[l.Node.Kind]
			var names []string
			var nums []int64
			numbered := true
			for _, m := range l.Members {
				d, nm := declNode(m.Node)
				if d == nil || nm == nil {
					continue
				}
				names = append(names, nameText(src, nm))
				v, ok := memberNumber(src, d, lt, form)
				numbered = numbered && ok
				nums = append(nums, v)
			}
			if len(names) < 2 || len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
				continue
			}
			if !numbered {
				nums = nil
			}
			learnList(s, names, nums, fns, others, all, stats)
		}
	}
	for p, st := range stats {
		switch {
		case st.declOrder > 0 && st.otherOrder == 0:
			decl = append(decl, p)
		case st.byNumber > 0 && st.declOrder == 0:
			byNumber = append(byNumber, p)
		}
	}
	slices.Sort(decl)
	slices.Sort(byNumber)
	return decl, byNumber
}

// nameText is the text of a declaration's name node (a leaf, or a node
// holding one).
func nameText(src []byte, nm *syntax.Node) string {
	return strings.TrimSpace(nm.Text(src))
}

// memberNumber is the number a declaration of list type l writes of its
// own, when its kind has one.
func memberNumber(src []byte, d *syntax.Node, l *List, form numlit.Form) (int64, bool) {
	if l == nil {
		return 0, false
	}
	for _, k := range l.Kinds {
		if k.Node != d.Kind || len(k.Numbers) == 0 {
			continue
		}
		for _, c := range d.Children {
			if c.Kind == k.Numbers[0].In {
				lits := form.All(c.Text(src))
				if len(lits) > 0 && !lits[0].Max {
					return lits[0].Value, true
				}
			}
		}
	}
	return 0, false
}

// formName is a name in the forms fns.
func formName(s string, fns []func(string) string) oracle.Name {
	forms := make([]string, len(fns))
	for i, f := range fns {
		forms[i] = f(s)
	}
	return oracle.NewName(forms)
}

// learnList adds what the output of sample s shows of a list whose
// declarations are names (in the input's order), numbered nums (nil when
// not all are numbered).
func learnList(s Sample, names []string, nums []int64, fns []func(string) string, others []oracle.Name, all []string, stats map[string]*placeStats) {
	ns := make([]oracle.Name, len(names))
	for i, n := range names {
		ns[i] = oracle.WithShadows(formName(n, fns), others)
	}
	byName := orderOf(len(names), func(i, j int) bool { return names[i] < names[j] })
	var byNum []int
	if nums != nil {
		byNum = orderOf(len(names), func(i, j int) bool { return nums[i] < nums[j] })
	}
	for _, f := range s.Output.Names() {
		seq := map[string][]int{} // place → the declarations, in line order
		for _, line := range strings.Split(string(s.Output[f]), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			who, place := -1, ""
			for i, n := range ns {
				if p, ok := oracle.PlaceOf(line, n); ok {
					if who >= 0 {
						who = -2 // two of them: no place of one
						break
					}
					who, place = i, p
				}
			}
			if who < 0 {
				continue
			}
			key := generalPlace(place, all)
			if !slices.Contains(seq[key], who) {
				seq[key] = append(seq[key], who)
			}
		}
		for key, order := range seq {
			if len(order) < 2 {
				continue
			}
			st := stats[key]
			if st == nil {
				st = &placeStats{}
				stats[key] = st
			}
			inDecl := slices.IsSorted(order)
			nameDiffers := !slices.Equal(restrict(byName, order), sortedCopy(order))
			numDiffers := byNum != nil && !slices.Equal(restrict(byNum, order), sortedCopy(order))
			switch {
			case inDecl && nameDiffers && (byNum == nil || numDiffers):
				st.declOrder++
			case !inDecl:
				st.otherOrder++
				if byNum != nil && slices.Equal(order, restrict(byNum, order)) {
					st.byNumber++
				}
			}
		}
	}
}

// orderOf is the indices 0…n-1 sorted by less.
func orderOf(n int, less func(i, j int) bool) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	sort.SliceStable(out, func(a, b int) bool { return less(out[a], out[b]) })
	return out
}

// restrict is the elements of order that are among some, in order's order.
func restrict(order, some []int) []int {
	var out []int
	for _, x := range order {
		if slices.Contains(some, x) {
			out = append(out, x)
		}
	}
	return out
}

func sortedCopy(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// generalPlace is a place as a pattern of places: its indentation any,
// and each identifier in it that holds a name the input declares any
// identifier (Book::@ is a place of every struct's fields).
func generalPlace(place string, declared []string) string {
	rest := strings.TrimLeft(place, " \t")
	var b strings.Builder
	b.WriteString(`\s*`)
	for i := 0; i < len(rest); {
		c := rest[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i
			for j < len(rest) && (rest[j] == '_' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z' || rest[j] >= '0' && rest[j] <= '9') {
				j++
			}
			w := rest[i:j]
			if holdsDeclared(w, declared) {
				b.WriteString(`\w+`)
			} else {
				b.WriteString(regexp.QuoteMeta(w))
			}
			i = j
			continue
		}
		b.WriteString(regexp.QuoteMeta(rest[i : i+1]))
		i++
	}
	return b.String()
}

// holdsDeclared reports whether identifier w holds a declared name (case
// aside), as a word or a run of them.
func holdsDeclared(w string, declared []string) bool {
	lw := strings.ToLower(w)
	for _, d := range declared {
		if len(d) >= 2 && strings.Contains(lw, strings.ToLower(d)) {
			return true
		}
	}
	return false
}

var _ = fmt.Sprint
