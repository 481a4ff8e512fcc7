package infer

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
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
	// Variants are patterns of lines that name nothing of the input and
	// that the outputs of two seeds at least write with another word at
	// one place (Java's `private byte __isset_bitfield` and `private
	// short …`): lines the generator writes for a whole list, which a
	// declaration more may change.
	Variants []string
	// Boilerplate are patterns of lines that name nothing of the input and
	// that the outputs of the seeds write a different number of times
	// (none in some): lines the generator writes for a feature of the
	// input (a separator between two messages, a helper a second required
	// field brings), which a declaration more may add or take away.
	Boilerplate []string
	// Counters are the prefixes of the identifiers the generator numbers
	// by a counter of its own (_size12, tmp627): a declaration added
	// before them renumbers them.
	Counters []string
	// Columns are the file patterns (`*.go`) of the outputs in which the
	// generator aligns the lines of a block in columns (gofmt's struct
	// fields and constants): a longer new name moves the column of its
	// neighbours, and pads its sibling's line otherwise than its own.
	Columns []string
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
	h.Tables = tables(samples, declared)
	h.Counters = counters(samples, declared)
	h.Columns = columns(samples)
	h.Variants = variants(samples, declared)
	h.Boilerplate = boilerplate(samples, declared)
	learnLists(samples, lists, h.Forms, form)
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
		for j := i + 1; j <= len(us); j++ {
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

// blobLen is the length from which a string literal is a serialized blob.
const blobLen = 200

// blobShape is a line that holds a string literal of blobLen bytes or
// more (a serialized descriptor: Python's AddSerializedFile(b'…')), with
// the content of its string literals and its numbers masked, white space
// collapsed: a line the generator writes for the whole input, which every
// declaration more changes. ok is false for any other line.
func blobShape(line string) (shape string, ok bool) {
	t := strings.TrimSpace(line)
	long := false
	t = strLitRE.ReplaceAllStringFunc(t, func(s string) string {
		long = long || len(s) >= blobLen
		return s[:1] + "…" + s[:1]
	})
	if !long {
		return "", false
	}
	return wsRE.ReplaceAllString(numRE.ReplaceAllString(t, "#"), " "), true
}

// tables finds the shapes of table lines (and of lines that hold a
// serialized blob, see blobShape): a shape that four lines in a
// row have in an output file, in the outputs of two seeds at least (or of
// the one seed there is).
func tables(samples []Sample, declared [][]string) []string {
	seeds := map[string]int{}
	for i, s := range samples {
		found := map[string]bool{}
		for _, f := range s.Output.Names() {
			prev, run := "", 0
			for _, line := range strings.Split(string(s.Output[f]), "\n") {
				if sh, ok := blobShape(line); ok {
					found[shapePattern(sh)] = true
					prev, run = "", 0
					continue
				}
				sh, ok := tableShape(line)
				if ok && namesInString(line, declared[i]) {
					// a row of one declaration: its name as a string
					// (protoc-c's enum values by name), whose rows a
					// declaration more changes only by its own
					ok = false
				}
				if !ok {
					sh, ok = rowShape(line, declared[i])
				}
				// (the last row of a table often lacks the + or , that
				// joins the others: `"…" +` then `"…"`)
				sh = strings.TrimRight(sh, " +,")
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
					found[strings.TrimSuffix(shapePattern(sh), `\s*$`)+`\s*[+,]?\s*$`] = true
				}
			}
		}
		for sh := range found {
			seeds[sh]++
		}
	}
	need := min(2, len(samples))
	var out []string
	for p, n := range seeds {
		if n >= need {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// namesInString reports whether a string literal of the line is a
// declared name, in any form, and nothing else ("FICTION" of an enum
// value FICTION, "library.Book"'s last part aside).
func namesInString(line string, declared []string) bool {
	for _, lit := range strLitRE.FindAllString(line, -1) {
		c := lit[1 : len(lit)-1]
		if c != "" && identRE.FindString(c) == c && named(c, declared) {
			return true
		}
	}
	return false
}

// rowShape is a line that names nothing of the input, with its numbers
// masked as in a table shape: a row of a table of numbers (`case 3:`),
// whose rows a declaration more adds to; ok is false for a line without
// numbers or that names a declaration.
func rowShape(line string, declared []string) (string, bool) {
	t := strings.TrimSpace(line)
	if !numRE.MatchString(t) {
		return "", false
	}
	// (an identifier that names a declaration is the same in every row
	// of a run, the owner of the table: the pattern takes any)
	var b strings.Builder
	for _, tok := range shapeTokens(numRE.ReplaceAllString(t, "#")) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if isIdent(tok) && holdsDeclared(tok, declared) {
			b.WriteString("\x01" + tok)
		} else {
			b.WriteString(tok)
		}
	}
	return b.String(), true
}

// shapePattern is the pattern of the lines of a table shape: its string
// literals any string, its numbers any number, its white space any, an
// identifier marked \x01 (a declaration's) any identifier.
func shapePattern(sh string) string {
	var b strings.Builder
	b.WriteString(`^\s*`)
	for i := 0; i < len(sh); {
		switch {
		case sh[i] == 1:
			j := i + 1
			for j < len(sh) && sh[j] != ' ' {
				j++
			}
			b.WriteString(`\w+`)
			i = j
		case strings.HasPrefix(sh[i:], `"…"`):
			b.WriteString(`"(\\.|[^"\\])*"`)
			i += len(`"…"`)
		case strings.HasPrefix(sh[i:], `'…'`):
			b.WriteString(`'(\\.|[^'\\])*'`)
			i += len(`'…'`)
		case sh[i] == '#':
			b.WriteString(`-?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*`)
			i++
		case sh[i] >= '0' && sh[i] <= '9':
			// (digits of an identifier: the locality check masks them)
			for i < len(sh) && sh[i] >= '0' && sh[i] <= '9' {
				i++
			}
			b.WriteString(`\d+`)
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

// columns finds the extensions of the output files whose lines the
// generator aligns in columns: two lines in a row with the same
// indentation, where the first pads a word with two spaces or more to
// the column at which the second has a word after one space or more, and
// the words before that column end at different places (a padding that
// depends on the neighbours). Three such pairs in the files of an
// extension, in the outputs of two seeds at least (or of the one seed
// there is), make it the generator's habit.
func columns(samples []Sample) []string {
	seeds := map[string]int{}
	for _, s := range samples {
		pairs := map[string]int{}
		for _, f := range s.Output.Names() {
			ext := path.Ext(f)
			if ext == "" {
				continue
			}
			lines := strings.Split(string(s.Output[f]), "\n")
			for i := 0; i+1 < len(lines); i++ {
				if alignedPair(lines[i], lines[i+1]) || alignedPair(lines[i+1], lines[i]) {
					pairs[ext]++
				}
			}
		}
		for ext, n := range pairs {
			if n >= 3 {
				seeds[ext]++
			}
		}
	}
	var out []string
	for ext, n := range seeds {
		if n >= min(2, len(samples)) {
			out = append(out, "*"+ext)
		}
	}
	slices.Sort(out)
	return out
}

// alignedPair reports whether line a pads a word to a column (a run of
// two spaces or more after its indentation) at which line b, of the same
// indentation, has a word after a space, the words before it ending at
// different places: `Kind_A    Kind = 1` above `Kind_LONGER Kind = 2`.
func alignedPair(a, b string) bool {
	ta, tb := strings.TrimLeft(a, " \t"), strings.TrimLeft(b, " \t")
	ind := len(a) - len(ta)
	if ta == "" || tb == "" || a[:ind] != b[:len(b)-len(tb)] {
		return false
	}
	for i := ind + 1; i < len(a); i++ {
		if a[i] != ' ' || a[i-1] == ' ' {
			continue
		}
		j := i
		for j < len(a) && a[j] == ' ' {
			j++
		}
		if j-i < 2 || j == len(a) {
			continue
		}
		// b: a word at column j after a space, its words before ending
		// elsewhere than a's
		if j < len(b) && b[j] != ' ' && b[j-1] == ' ' && b[j-2] != ' ' {
			return true
		}
	}
	return false
}

var counterRE = regexp.MustCompile(`\b([A-Za-z_]*[A-Za-z_])([0-9]+)\b`)

// counters finds the prefixes of numbered temporaries: identifiers PREFIX
// + digits of which an output file has five numbers or more, none of them
// a declared name of its seed (field1, field2, … are the input's).
func counters(samples []Sample, declared [][]string) []string {
	found := map[string]bool{}
	for i, s := range samples {
		folded := map[string]bool{}
		for _, d := range declared[i] {
			folded[fold(d)] = true
		}
		for _, f := range s.Output.Names() {
			nums := map[string]map[string]bool{}
			for _, m := range counterRE.FindAllStringSubmatch(string(s.Output[f]), -1) {
				if endsDeclared(m[0], folded) {
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
// name in any case (declared: the names folded, see fold), after an
// underscore or a change of case: __set_def1 is a setter of the field
// def1, DEF78 Java's constant of def78, no counter.
func endsDeclared(id string, declared map[string]bool) bool {
	for k := 0; k < len(id); k++ {
		if k > 0 && !(id[k-1] == '_' || id[k] >= 'A' && id[k] <= 'Z' && id[k-1] >= 'a' && id[k-1] <= 'z') {
			continue
		}
		if declared[fold(id[k:])] {
			return true
		}
	}
	return false
}

// fold is a name in lower case without underscores: the forms of a name
// fold alike (field_Int32, FIELD__INT32).
func fold(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

// placeStats is what the seeds show of one place of a list type: in how
// many lists its order was evidence of the input's order, of another, of
// the numbers' order; and the shapes of its lines by the position of the
// declaration they name (0 first, 1 middle, 2 last).
type placeStats struct {
	declOrder, otherOrder, byNumber int
	// shapes by the position of the declaration named (first, between,
	// last, alone among those of its kind in its list): in how many
	// lists a declaration at the position had a line of the shape
	shapes [4]map[string]int
	// written: the declarations' shapes (declShape) of that evidence, by
	// position and shape of line; at: the declarations' shapes that had
	// a line at the place, by position
	written [4]map[string]map[string]bool
	at      [4]map[string]bool
	// evidence: the same, of declarations the input uses nowhere else
	// (a line of one it uses may be the line of its use: a timer started
	// in one state)
	evidence [4]map[string]int
	// seen: in how many lists a declaration at the position had a line
	// at the place
	seen [4]int
	// per shape: in how many lists of three declarations or more it
	// names some, how many declarations it names there, and how many
	// those lists have
	lists, named, of map[string]int
}

// learnLists learns, for each list type, at which places the outputs list
// its declarations in the input's order and at which by their numbers,
// and which lines its first and last declarations have as such: for each
// list of two declarations or more, each output file, each place at
// which a line names one declaration alone, the order in which the place
// names them and the shapes of their lines. An order the input's differs
// from by name (or by number) is evidence; one that coincides with it is
// none.
func learnLists(samples []Sample, lists []*List, forms []string, form numlit.Form) {
	types := map[string]*List{}
	var spec syntax.ListSpec
	for _, l := range lists {
		types[l.Type] = l
		spec.Lists = append(spec.Lists, l.Type)
	}
	stats := map[string]map[string]*placeStats{} // list type → place → stats
	owners := map[string]*ownerStats{}           // list type → its owners' lines
	fns := make([]func(string) string, 0, len(forms))
	for _, f := range forms {
		if fn, ok := namecase.Form(f); ok {
			fns = append(fns, fn)
		}
	}
	for _, s := range samples {
		src := s.Tree.Src
		var all []string
		decls := map[string]int{} // how many declarations have a name, case aside
		syntax.Walk(s.Tree.Root, func(n *syntax.Node) bool {
			if isName(n) {
				all = append(all, n.Text(src))
				decls[strings.ToLower(strings.TrimSpace(n.Text(src)))]++
			}
			return true
		})
		slices.Sort(all)
		all = slices.Compact(all)
		// (a comment that says a declared name is no use of it: "Type of
		// the key (signing or encryption)" of an enum's two values)
		code := textWithoutComments(src, s.Tree.Root)
		others := make([]oracle.Name, len(all))
		for i, a := range all {
			others[i] = formName(a, fns)
		}
		for _, l := range syntax.Lists(s.Tree, spec) {
			learnOwnerLines(s, l.Node, decls, fns, others, all, owners)
			lt := types[l.Node.Kind]
			var names, kinds, dshapes []string
			var used []bool
			var nums []int64
			numbered, unnumbered := 0, 0
			for _, m := range l.Members {
				d, nm := declNode(m.Node)
				if d == nil || nm == nil || m.Node == directName(l.Node) {
					continue
				}
				names = append(names, nameText(src, nm))
				kinds = append(kinds, d.Kind)
				dshapes = append(dshapes, declShape(textWithoutComments(src, d), nameText(src, nm)))
				used = append(used, usedElsewhere(code, nameText(src, nm), decls))
				v, ok := memberNumber(src, d, lt, form)
				if ok {
					numbered++
				} else {
					unnumbered++
				}
				nums = append(nums, v)
			}
			if len(names) < 1 || len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
				continue
			}
			if numbered > 0 && unnumbered > 0 || numbered == 0 && numberedType(lt) {
				// some numbered, some not (or none, of a type whose
				// declarations have numbers): their order says nothing of
				// the order of those that have
				continue
			}
			if numbered == 0 {
				nums = nil
			}
			if stats[l.Node.Kind] == nil {
				stats[l.Node.Kind] = map[string]*placeStats{}
			}
			learnList(s, listDecls{names, kinds, dshapes, used}, nums, fns, others, all, stats[l.Node.Kind])
		}
	}
	for _, l := range lists {
		if st := stats[l.Type][""]; st != nil {
			// the lines that name the first and the last declaration
			var ranges []string
			for sh, n := range st.evidence[0] {
				if n >= 2 {
					ranges = append(ranges, sh)
				}
			}
			if len(ranges) > 0 {
				l.Positional = append(l.Positional, shapesPattern(ranges))
			}
			delete(stats[l.Type], "")
		}
		list := stats[l.Type][listKey]
		delete(stats[l.Type], listKey)
		if list == nil {
			list = &placeStats{}
		}
		for p, st := range stats[l.Type] {
			switch {
			case st.declOrder > 0 && st.otherOrder == 0:
				l.Places = append(l.Places, p)
			case st.byNumber > 0 && st.declOrder == 0:
				l.NumberPlaces = append(l.NumberPlaces, p)
			}
			first, last, alone := onlyAt(st, list, 0), onlyAt(st, list, 2), onlyAt(st, list, 3)
			if len(last) > 0 {
				l.Last = true
			}
			var alts []string
			// (the lines of the first and the last that those between
			// never have: an enum's MIN and MAX, which a copy that takes
			// the largest number takes over wherever it stands)
			alts = append(alts, atEnds(st, list)...)
			for k, only := range [][]string{first, nil, last, alone} {
				for _, sh := range only {
					alts = append(alts, sh)
					// the line the declaration has where it is no
					// longer first or last: nearly the same (if, then
					// elif)
					for j := range st.shapes {
						if j == k {
							continue
						}
						for o := range st.shapes[j] {
							if near(sh, o) {
								alts = append(alts, o)
							}
						}
					}
				}
			}
			// A shape that few declarations of a list have, in the lists
			// of three or more that have it at all (a fifth of their
			// declarations, seen in five lists): the line of one the list
			// chooses (the end of a range of fields in memory), which a
			// declaration more may move to another.
			for fsh, n := range st.lists {
				if n >= 5 && st.named[fsh]*5 <= st.of[fsh] {
					_, sh, _ := strings.Cut(fsh, "\x03")
					alts = append(alts, sh)
				}
			}
			if len(alts) > 0 {
				l.Positional = append(l.Positional, shapesPattern(alts))
			}
		}
		if os := owners[l.Type]; os != nil {
			// (a line some owners have and others lack, two of each at
			// least: flatc's TypeScript `static createTable(` of the
			// tables whose struct fields come first, which a field
			// copied before them takes away)
			var opt []string
			for sh, n := range os.lists {
				if n >= 2 && os.total-n >= 2 {
					opt = append(opt, sh)
				}
			}
			if len(opt) > 0 {
				var res []string
				for _, sh := range opt {
					res = append(res, shapeRegex(sh))
				}
				slices.Sort(res)
				l.Positional = append(l.Positional, `^\s*(?:`+strings.Join(res, "|")+`).*$`)
			}
		}
		slices.Sort(l.Places)
		slices.Sort(l.NumberPlaces)
		slices.Sort(l.Positional)
		l.Positional = slices.Compact(l.Positional)
	}
}

// numberedType reports whether a kind of the list type has numbers.
func numberedType(l *List) bool {
	if l == nil {
		return false
	}
	for _, k := range l.Kinds {
		if len(k.Numbers) > 0 {
			return true
		}
	}
	return false
}

// onlyAt are the shapes a place shows for declarations at position k
// (first, last or alone) and never for the others: shown so in two lists
// at least, where declarations at other positions were seen at the place
// in two lists at least (a shape of the one list a kind has is no
// evidence of a habit), and by a declaration written alike (declShape) as
// one that stood at another position (else what the declaration says may
// decide the line: an Integer attribute, last of every program).
func onlyAt(st, list *placeStats, k int) []string {
	var out []string
	others := 0
	for j := range 3 {
		if j != k {
			others += st.seen[j]
		}
	}
	// (declarations at other positions with lines at the place, else
	// with lines anywhere: a place of its own, an enum's MIN line)
	at := st
	if others < 1 {
		at = list
		for j := range 3 {
			if j != k {
				others += list.seen[j]
			}
		}
	}
	if others < 1 {
		return nil
	}
	for sh, n := range st.evidence[k] {
		only := n >= 1
		for j := range 3 {
			only = only && (j == k || st.shapes[j][sh] == 0)
		}
		// (a declaration written alike stood elsewhere and had no such
		// line: the position decides, not what the declaration says)
		alike := false
		for d := range st.written[k][sh] {
			for j := range 3 {
				alike = alike || j != k && at.at[j][d]
			}
		}
		only = only && alike
		if only {
			out = append(out, sh)
		}
	}
	slices.Sort(out)
	return out
}

// atEnds are the shapes a place shows for the first and the last
// declarations of lists and never for those between: a line of the ends
// of a list (`constexpr Kind Kind_MIN = KIND_A;` and `… Kind_MAX =
// KIND_B;`, alike once the names are masked), which names whichever
// declaration is first or last (or has the least or the largest number).
// As with onlyAt, the evidence is of declarations the input uses nowhere
// else, and a declaration written alike stood between them (with lines at
// the place, else anywhere): the position decides, not what the
// declaration says.
func atEnds(st, list *placeStats) []string {
	at := st
	if at.seen[1] < 1 {
		at = list
	}
	if at.seen[1] < 1 {
		return nil
	}
	var out []string
	for sh := range st.shapes[0] {
		if st.shapes[2][sh] == 0 || st.shapes[1][sh] != 0 || st.evidence[0][sh]+st.evidence[2][sh] < 1 {
			continue
		}
		alike := false
		for _, k := range []int{0, 2} {
			for d := range st.written[k][sh] {
				alike = alike || at.at[1][d]
			}
		}
		if alike {
			out = append(out, sh)
		}
	}
	slices.Sort(out)
	return out
}

// near reports whether two shapes differ in one or two tokens at most,
// in a run: `if cmd == @:` and `elif cmd == @:`.
func near(a, b string) bool {
	ta, tb := shapeTokens(a), shapeTokens(b)
	i := 0
	for i < len(ta) && i < len(tb) && ta[i] == tb[i] {
		i++
	}
	j := 0
	for j < len(ta)-i && j < len(tb)-i && ta[len(ta)-1-j] == tb[len(tb)-1-j] {
		j++
	}
	return len(ta)-i-j <= 2 && len(tb)-i-j <= 2 && i+j > 0
}

func shapeTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
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
// declarations are names (in the input's order), of the kinds kinds (their
// node types), numbered nums (nil when they are not). A declaration's
// position (first, last, between, alone) is among those of its kind in
// the list: a root list holds declarations of many kinds, each of which
// the generator writes at places of its own, and the last of the list is
// no last there.
func learnList(s Sample, ds listDecls, nums []int64, fns []func(string) string, others []oracle.Name, all []string, stats map[string]*placeStats) {
	names, kinds := ds.names, ds.kinds
	// pos is each declaration's position among those of its kind, ofKind
	// how many of its kind the list has.
	pos, ofKind := make([]int, len(names)), make([]int, len(names))
	{
		byKind := map[string][]int{}
		for i, k := range kinds {
			byKind[k] = append(byKind[k], i)
		}
		for _, idx := range byKind {
			for j, i := range idx {
				pos[i], ofKind[i] = position(j, len(idx)), len(idx)
			}
		}
	}
	ns := make([]oracle.Name, len(names))
	for i, n := range names {
		ns[i] = oracle.WithShadows(formName(n, fns), others)
	}
	byName := orderOf(len(names), func(i, j int) bool { return names[i] < names[j] })
	var byNum []int
	if nums != nil {
		byNum = orderOf(len(names), func(i, j int) bool { return nums[i] < nums[j] })
	}
	stat := func(key string) *placeStats {
		st := stats[key]
		if st == nil {
			st = &placeStats{lists: map[string]int{}, named: map[string]int{}, of: map[string]int{}}
			for k := range st.shapes {
				st.shapes[k] = map[string]int{}
				st.evidence[k] = map[string]int{}
				st.written[k] = map[string]map[string]bool{}
				st.at[k] = map[string]bool{}
			}
			stats[key] = st
		}
		return st
	}
	// (a shape counts once per list, and so does a position at a place)
	saw := map[shapeAt]bool{}            // true: of a declaration the input uses nowhere else
	sawWho := map[shapeAt]map[int]bool{} // the declarations with a line of the shape
	atPlace := map[string]map[int]bool{} // the places, and the declarations with a line there
	note := func(k shapeAt, who int) {
		saw[k] = saw[k] || !ds.used[who]
		if sawWho[k] == nil {
			sawWho[k] = map[int]bool{}
		}
		sawWho[k][who] = true
		if atPlace[k.place] == nil {
			atPlace[k.place] = map[int]bool{}
		}
		atPlace[k.place][who] = true
	}
	// place and shape → the declarations with such a line, per kind of
	// output file (the shape behind the file's extension and "\x03": a
	// line of a header and one of a source file, alike at one place, are
	// no line of one place: protoc's `_impl_.value_ = 0;` of a field's
	// clear_value() in the header, of the one number field's in Clear())
	byShape := map[[2]string]map[int]bool{}
	for _, f := range s.Output.Names() {
		seq := map[string]map[int][]int{} // place → declaration → its lines there
		prevWho, prevKey := -1, ""        // the line before named one declaration
		for ln, line := range strings.Split(string(s.Output[f]), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			who, place := -1, ""
			var named []int
			for i, n := range ns {
				if p, ok := oracle.PlaceOf(line, n); ok {
					named = append(named, i)
					if who == -1 {
						who, place = i, p
					} else {
						who = -2 // two of them: no place of one
					}
				}
			}
			if len(named) == 2 && ofKind[named[0]] >= 3 && kinds[named[0]] == kinds[named[1]] && pos[named[0]] == 0 && pos[named[1]] == 2 {
				// a line of the first and the last alone: a range
				masked := oracle.MaskName(oracle.MaskName(line, ns[named[0]], "\x00"), ns[named[1]], "\x00")
				k := shapeAt{"", 0, lineShape(masked, all)}
				saw[k] = saw[k] || !ds.used[named[0]] && !ds.used[named[1]]
			}
			if who == -1 && prevWho >= 0 {
				// the line after one that names a declaration, naming
				// none: its body (a getter's return)
				note(shapeAt{prevKey + "\x00next", pos[prevWho], lineShape(line, all)}, prevWho)
			}
			if who < 0 {
				prevWho = -1
				continue
			}
			key := generalPlace(place, all)
			prevWho, prevKey = who, key
			if seq[key] == nil {
				seq[key] = map[int][]int{}
			}
			seq[key][who] = append(seq[key][who], ln)
			sh := lineShape(oracle.MaskName(line, ns[who], "\x00"), all)
			note(shapeAt{key, pos[who], sh}, who)
			bk := [2]string{key, path.Ext(f) + "\x03" + sh}
			if byShape[bk] == nil {
				byShape[bk] = map[int]bool{}
			}
			byShape[bk][who] = true
		}
		for key, lines := range seq {
			if len(lines) < 2 {
				continue
			}
			st := stat(key)
			// As the order check pairs them: the k-th lines of each
			// declaration at the place, when they have as many.
			count := -1
			for _, ls := range lines {
				if count >= 0 && len(ls) != count {
					count = -2
					break
				}
				count = len(ls)
			}
			if count < 0 {
				st.otherOrder++ // no pairs: the check would order by blocks
				continue
			}
			for k := range count {
				order := slices.Sorted(func(yield func(int) bool) {
					for who := range lines {
						if !yield(who) {
							return
						}
					}
				})
				slices.SortFunc(order, func(a, b int) int { return lines[a][k] - lines[b][k] })
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
	posSeen := map[[2]any]bool{}
	for k, unused := range saw {
		stat(k.place).shapes[k.pos][k.shape]++
		if unused {
			stat(k.place).evidence[k.pos][k.shape]++
			st := stat(k.place)
			if st.written[k.pos][k.shape] == nil {
				st.written[k.pos][k.shape] = map[string]bool{}
			}
			for w := range sawWho[k] {
				if !ds.used[w] {
					st.written[k.pos][k.shape][ds.shapes[w]] = true
				}
			}
		}
	}
	// The declarations seen are all those with a line in the output, at
	// any place: one at another position that has no line at a place
	// lacks it (an enum's MIN line names its first value, at a place of
	// its own; a message's one field has a line its fields have none of
	// when it has several).
	present := map[int]bool{}
	for _, who := range atPlace {
		for w := range who {
			present[w] = true
		}
	}
	for w := range present {
		stat(listKey).at[pos[w]][ds.shapes[w]] = true
		if pk := [2]any{listKey, pos[w]}; !posSeen[pk] {
			posSeen[pk] = true
			stat(listKey).seen[pos[w]]++
		}
	}
	for place, who := range atPlace {
		for w := range who {
			stat(place).at[pos[w]][ds.shapes[w]] = true
			if pk := [2]any{place, pos[w]}; !posSeen[pk] {
				posSeen[pk] = true
				stat(place).seen[pos[w]]++
			}
		}
	}
	// (of the declarations of the kinds the shape names, in a list that
	// has three of them or more: a line the fields of a struct have is no
	// rare line of a file's definitions for being the fields')
	//
	// Only declarations the input mentions nowhere else count (a line of
	// one that the input uses may be the line of its use: a timer started
	// in a state), and a shape that every declaration written alike has
	// (the line of each Boolean variable) is the declarations' own, not
	// one the list chooses.
	for ks, who := range byShape {
		of := 0
		ofKinds := map[string]bool{}
		for w := range who {
			ofKinds[kinds[w]] = true
		}
		for i, k := range kinds {
			if !ds.used[i] && ofKinds[k] {
				of++
			}
		}
		named, own := 0, true
		for w := range who {
			if !ds.used[w] {
				named++
			}
			for i := range names {
				if !who[i] && !ds.used[i] && ds.shapes[i] == ds.shapes[w] {
					own = false // a declaration written alike lacks it
				}
			}
		}
		if of < 3 || named == 0 || own {
			continue
		}
		st := stat(ks[0])
		st.lists[ks[1]]++
		st.named[ks[1]] += named
		st.of[ks[1]] += of
	}
}

// ownerStats are the lines that name the owners of the lists of a type
// (the table whose fields they are), by their head (ownerHead): in how
// many lists an owner had a line of each head, of total that had any.
type ownerStats struct {
	lists map[string]int
	total int
}

// learnOwnerLines adds to owners what the output of s writes of the
// owner of list node n (the declaration whose name it or its parent
// holds), when the input declares that name once: the heads of the
// lines that name it.
func learnOwnerLines(s Sample, n *syntax.Node, decls map[string]int, fns []func(string) string, others []oracle.Name, all []string, owners map[string]*ownerStats) {
	nm := directName(n)
	if nm == nil && n.Parent != nil {
		nm = directName(n.Parent)
	}
	if nm == nil {
		return
	}
	name := nameText(s.Tree.Src, nm)
	if len(name) < 3 || decls[strings.ToLower(name)] != 1 {
		return
	}
	on := oracle.WithShadows(formName(name, fns), others)
	heads := map[string]bool{}
	for _, f := range s.Output.Names() {
		for _, line := range strings.Split(string(s.Output[f]), "\n") {
			if _, ok := oracle.PlaceOf(line, on); ok {
				if h, ok := ownerHead(lineShape(oracle.MaskName(line, on, "\x00"), all)); ok {
					heads[h] = true
				}
			}
		}
	}
	if len(heads) == 0 {
		return
	}
	os := owners[n.Kind]
	if os == nil {
		os = &ownerStats{lists: map[string]int{}}
		owners[n.Kind] = os
	}
	os.total++
	for h := range heads {
		os.lists[h]++
	}
}

// ownerHead is a line's shape up to its first parenthesis: the name of a
// function the generator names after the owner (`static create\x00(`,
// the owner masked), without its parameters, which name the list's
// members. ok is false for a line that calls no such function: its head
// names another declaration, or the owner stands alone (a statement
// about it, `ctx->\x00 = (`, which says nothing of a habit).
func ownerHead(sh string) (string, bool) {
	k := strings.IndexByte(sh, '(')
	if k < 0 || strings.IndexByte(sh[:k], 1) >= 0 {
		return "", false
	}
	h := sh[:k+1]
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i < k; i++ {
		if h[i] == 0 && (i > 0 && letter(h[i-1]) || letter(h[i+1])) {
			return h, true
		}
	}
	return "", false
}

// listKey is the key of the stats of a list type as a whole (the
// declarations seen, by position) among those of its places.
const listKey = "\x00list"

// shapeAt is a shape of lines at a place, of declarations at a position.
type shapeAt struct {
	place string
	pos   int
	shape string
}

// listDecls are the declarations of a list, in the input's order: their
// names, kinds (node types), shapes (declShape) and whether the input
// mentions them elsewhere than in their declaration.
type listDecls struct {
	names, kinds, shapes []string
	used                 []bool
}

// declShape is a declaration's text with its string literals written
// "…", its numbers #, its other words but the name ? (the name @), its
// white space collapsed: two declarations written alike, but for the
// names and values they hold, have one shape (a function of two
// parameters and one of two others; not an attribute with a number and
// one with a string).
func declShape(text, name string) string {
	t := strLitRE.ReplaceAllString(text, `"…"`)
	t = numRE.ReplaceAllString(t, "#")
	t = identRE.ReplaceAllStringFunc(t, func(w string) string {
		if w == name {
			return "@"
		}
		return "?"
	})
	return strings.TrimSpace(wsRE.ReplaceAllString(t, " "))
}

// textWithoutComments is the text of node n without the comments in it
// (a declaration's doc comment is no part of how it is written).
func textWithoutComments(src []byte, n *syntax.Node) string {
	var b strings.Builder
	at := n.Start
	syntax.Walk(n, func(c *syntax.Node) bool {
		if c.Kind != "comment" {
			return true
		}
		if c.Start >= at {
			b.Write(src[at:c.Start])
			at = c.End
		}
		return false
	})
	if at < n.End {
		b.Write(src[at:n.End])
	}
	return b.String()
}

// usedElsewhere reports whether src holds name as a word, whatever its
// case, more often than declarations declare it (decls: by name in lower
// case): a use of it (a field x of two structs is declared twice and
// used nowhere).
func usedElsewhere(src, name string, decls map[string]int) bool {
	rx, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(name) + `\b`)
	if err != nil {
		return true
	}
	n := decls[strings.ToLower(name)]
	return len(rx.FindAllStringIndex(src, n+1)) > n
}

// position is where the i-th of n declarations stands: 0 first, 2 last,
// 1 between.
func position(i, n int) int {
	switch {
	case n == 1:
		return 3
	case i == 0:
		return 0
	case i == n-1:
		return 2
	}
	return 1
}

// lineShape is a line as a shape of lines: the name it was learned for
// (masked as \x00) and each identifier that holds a name the input
// declares written \x01, numbers \x02, each run of white space one
// space (see shapeRegex).
func lineShape(line string, declared []string) string {
	t := strings.TrimSpace(line)
	var b strings.Builder
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == 0:
			b.WriteByte(0)
			i++
		case c == ' ' || c == '\t':
			for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
				i++
			}
			b.WriteByte(' ')
		case c >= '0' && c <= '9':
			j := i
			for j < len(t) && (t[j] >= '0' && t[j] <= '9' || t[j] == 'x' || t[j] >= 'a' && t[j] <= 'f' || t[j] >= 'A' && t[j] <= 'F') {
				j++
			}
			b.WriteByte(2)
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(t) && (t[j] == '_' || t[j] >= 'a' && t[j] <= 'z' || t[j] >= 'A' && t[j] <= 'Z' || t[j] >= '0' && t[j] <= '9') {
				j++
			}
			if holdsDeclared(t[i:j], declared) {
				b.WriteByte(1)
			} else {
				b.WriteString(t[i:j])
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// shapeRegex is the pattern of the lines of a shape: a name or declared
// identifier any identifier, a number any number or constant of a type
// (`uint64_t{0u}`), a space any white space.
func shapeRegex(sh string) string {
	var b strings.Builder
	for i := 0; i < len(sh); i++ {
		switch c := sh[i]; c {
		case 0, 1:
			b.WriteString(`\w+`)
		case 2:
			// (a number, or a constant a type writes as its zero: the
			// `uint64_t{0u}` of protoc's C++ that another field's `0` is)
			b.WriteString(`(?:[\w:]+[{(]-?\w+[})]|-?\w+)`)
		case ' ':
			b.WriteString(`\s+`)
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			// (digits of an identifier: the locality check masks them)
			for i+1 < len(sh) && sh[i+1] >= '0' && sh[i+1] <= '9' {
				i++
			}
			b.WriteString(`\d+`)
		default:
			b.WriteString(regexp.QuoteMeta(sh[i : i+1]))
		}
	}
	return b.String()
}

// shapesPattern is the pattern of a line of one of the shapes.
func shapesPattern(shapes []string) string {
	var res []string
	for _, sh := range shapes {
		res = append(res, shapeRegex(sh))
	}
	slices.Sort(res)
	res = slices.Compact(res)
	return `^\s*(?:` + strings.Join(res, "|") + `)\s*$`
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

// generalPlace is a place as a pattern of places: each identifier in it
// that holds a name the input declares any identifier (Book::@ is a place
// of every struct's fields).
func generalPlace(place string, declared []string) string {
	rest := strings.TrimLeft(place, " \t")
	var b strings.Builder
	// (the indentation as it is: the order check's places are told
	// apart by it, the lines of a writer from those of a constructor)
	b.WriteString(regexp.QuoteMeta(place[:len(place)-len(rest)]))
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
// and underscores aside) as whole words: Book in Book or _Book__isset, not elf in self.
func holdsDeclared(w string, declared []string) bool {
	words := splitWords(w)
	for _, d := range declared {
		if len(d) < 2 {
			// a name of one letter: only a whole segment (a_ of a)
			if d != "" && slices.Contains(strings.Split(w, "_"), d) {
				return true
			}
			continue
		}
		// (in any of its forms: BarrierFaults is barrier_faults in
		// v_barrier_faults)
		fd := fold(d)
		for _, x := range words {
			if fold(x) == fd {
				return true
			}
		}
		if fold(w) == fd {
			return true
		}
	}
	return false
}

var _ = fmt.Sprint

// variants finds the lines of the outputs that differ from seed to seed in
// one word only and name nothing of their input (see Habits.Variants):
// lines of ten tokens at most, the word in the same place, two seeds at
// least, eight words at most.
func variants(samples []Sample, declared [][]string) []string {
	type vstat struct {
		words map[string]bool
		seeds map[int]bool
		pre   []string
		post  []string
	}
	stats := map[string]*vstat{}
	for i, s := range samples {
		stem := fold(path.Base(s.Tree.Name))
		if k := strings.IndexByte(stem, '.'); k > 0 {
			stem = stem[:k]
		}
		stem = strings.NewReplacer("-", "", ".", "").Replace(stem)
		seen := map[string]bool{}
		for _, f := range s.Output.Names() {
			for _, line := range strings.Split(string(s.Output[f]), "\n") {
				t := strings.TrimSpace(line)
				if t == "" || seen[t] || strings.ContainsAny(t, "\"'") {
					continue
				}
				seen[t] = true
				toks := shapeTokens(t)
				if len(toks) > 10 || len(toks) < 2 {
					continue
				}
				named := false
				for _, tok := range toks {
					if isIdent(tok) && holdsDeclared(tok, declared[i]) {
						named = true
						break
					}
				}
				if named {
					continue
				}
				for k, tok := range toks {
					if !isIdent(tok) || stem != "" && strings.Contains(fold(tok), stem) {
						continue // (a word of the input's file name: Foo_types)
					}
					key := strings.Join(toks[:k], "\x00") + "\x01" + strings.Join(toks[k+1:], "\x00")
					st := stats[key]
					if st == nil {
						st = &vstat{words: map[string]bool{}, seeds: map[int]bool{}, pre: toks[:k], post: toks[k+1:]}
						stats[key] = st
					}
					st.words[tok] = true
					st.seeds[i] = true
				}
			}
		}
	}
	var out []string
	for _, st := range stats {
		if len(st.words) < 2 || len(st.words) > 8 || len(st.seeds) < 2 {
			continue
		}
		var alts []string
		for w := range st.words {
			alts = append(alts, digitsAny(w))
		}
		slices.Sort(alts)
		var b strings.Builder
		b.WriteString(`^\s*`)
		for _, t := range st.pre {
			b.WriteString(digitsAny(t) + `\s*`)
		}
		b.WriteString(`(?:` + strings.Join(alts, "|") + `)`)
		for _, t := range st.post {
			b.WriteString(`\s*` + digitsAny(t))
		}
		b.WriteString(`\s*$`)
		out = append(out, b.String())
	}
	slices.Sort(out)
	if len(out) > 200 {
		out = out[:200]
	}
	return out
}

func isIdent(tok string) bool {
	return tok != "" && (tok[0] == '_' || tok[0] >= 'a' && tok[0] <= 'z' || tok[0] >= 'A' && tok[0] <= 'Z')
}

// digitsAny quotes a token for a pattern, each run of digits any digits
// (the locality check masks the numbers of lines, in identifiers too).
func digitsAny(t string) string {
	return digitRunRE.ReplaceAllLiteralString(regexp.QuoteMeta(t), `\d+`)
}

var digitRunRE = regexp.MustCompile(`[0-9]+`)

// boilerplate finds the lines of the outputs that name nothing of their
// input and that the outputs of the seeds hold a different number of
// times (see Habits.Boilerplate), the 400 seen in most outputs.
func boilerplate(samples []Sample, declared [][]string) []string {
	if len(samples) < 2 {
		return nil
	}
	counts := map[string]map[int]int{} // line → sample → count
	for i, s := range samples {
		for _, f := range s.Output.Names() {
			for _, line := range strings.Split(string(s.Output[f]), "\n") {
				t := strings.TrimSpace(line)
				// (a line of letters, or a separator: // ---------)
				if t == "" || !letterRE.MatchString(t) && len(t) < 8 {
					continue
				}
				c := counts[t]
				if c == nil {
					if named(t, declared[i]) {
						continue
					}
					c = map[int]int{}
					counts[t] = c
				}
				c[i]++
			}
		}
	}
	type cand struct {
		line  string
		seeds int
	}
	var out []cand
	for t, c := range counts {
		lo, hi := len(c) < len(samples), false
		first := -1
		for _, n := range c {
			if first < 0 {
				first = n
			} else if n != first {
				hi = true
			}
		}
		if (lo || hi) && len(c) >= 2 {
			// (a line that one sample names by chance is no boilerplate)
			ok := true
			for i := range samples {
				if c[i] == 0 && named(t, declared[i]) {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, cand{t, len(c)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].seeds != out[j].seeds {
			return out[i].seeds > out[j].seeds
		}
		return out[i].line < out[j].line
	})
	if len(out) > 400 {
		out = out[:400]
	}
	var res []string
	for _, c := range out {
		res = append(res, `^\s*`+digitsAny(c.line)+`\s*$`)
	}
	slices.Sort(res)
	return slices.Compact(res)
}

// named reports whether a line holds an identifier that is a declared
// name, in any case, with or without underscores around it (name_ of
// name).
func named(line string, declared []string) bool {
	for _, tok := range shapeTokens(line) {
		if !isIdent(tok) {
			continue
		}
		f := fold(tok)
		for _, d := range declared {
			if fold(d) == f {
				return true
			}
		}
	}
	return false
}

// numberSteps compares the output of a follow-up with its base's: for
// each line of the base that the follow-up's file has no more and that a
// new line of the file matches but for its numbers (a count, an index),
// by how much each number changed (those unchanged left out), counted.
func numberSteps(base, followUp map[string][]byte) map[int64]int {
	out := map[int64]int{}
	for f, b := range base {
		a, ok := followUp[f]
		if !ok {
			continue
		}
		count := map[string]int{}
		for _, l := range strings.Split(string(b), "\n") {
			count[l]++
		}
		var added []string
		for _, l := range strings.Split(string(a), "\n") {
			if count[l] > 0 {
				count[l]--
			} else {
				added = append(added, l)
			}
		}
		byShape := map[string][]string{}
		for _, l := range added {
			if numRE.MatchString(l) {
				k := numRE.ReplaceAllString(l, "#")
				byShape[k] = append(byShape[k], l)
			}
		}
		for _, l := range strings.Split(string(b), "\n") {
			if count[l] <= 0 || !numRE.MatchString(l) {
				continue
			}
			count[l]--
			k := numRE.ReplaceAllString(l, "#")
			if len(byShape[k]) == 0 {
				continue
			}
			n := byShape[k][0]
			byShape[k] = byShape[k][1:]
			x, y := numRE.FindAllString(l, -1), numRE.FindAllString(n, -1)
			for i := range min(len(x), len(y)) {
				vx, okx := intValue(x[i])
				vy, oky := intValue(y[i])
				if okx && oky && vx != vy {
					out[vy-vx]++
				}
			}
		}
	}
	return out
}

// intValue reads a number numRE matched (a sign, decimal or hex digits,
// a suffix).
func intValue(s string) (int64, bool) {
	s = strings.TrimRight(s, "uUlL")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		// (a decimal with leading zeros, which base 0 reads as octal)
		v, err = strconv.ParseInt(strings.TrimLeft(s, "0"), 10, 64)
	}
	return v, err == nil
}
