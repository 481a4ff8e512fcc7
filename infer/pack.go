package infer

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/syntax"
)

// Pack is an inferred relation pack: definitions that read the seeds'
// lists, a relation per kind of declaration of each list, and the
// generator's habits the checks are configured with.
type Pack struct {
	// Syntax names the parser as a relation file's syntax: does (a
	// linked parser's name, or a grammar file relative to the relation
	// files).
	Syntax string
	// parser read the seeds; a load of the pack's files offers it.
	parser syntax.Parser
	// Numbers is how the seeds write integers.
	Numbers string
	Lists   []*List
	Habits  Habits
	// Seeds is how many seeds the lists were read from.
	Seeds int
	// Left are the relations left out, each with why (the transpiler
	// rejected their follow-ups), by name.
	Left map[string]string
	// Restricted are the kinds whose first spot or middle spots are left
	// out, with why.
	notes map[string][]string
}

// FreshPattern is the pattern of the fresh names of inferred relations:
// no keyword of the languages mcpt knows, and no identifier a generator
// makes, starts with zq.
const FreshPattern = "zq[a-z]{6}"

// DefsFile is the name of the definitions file of an inferred pack.
const DefsFile = "defs.yaml"

// Relation is an inferred relation: a copy of a declaration of a kind in
// the lists of a type.
type Relation struct {
	Name string
	List *List
	Kind *Kind
}

// Relations are the pack's relations, in the order of its lists, those
// left out included.
func (p *Pack) Relations() []Relation {
	var out []Relation
	taken := map[string]bool{}
	for _, l := range p.Lists {
		for _, k := range l.Kinds {
			name := "copy-" + kebab(k.Node) + "-in-" + kebab(l.Type)
			for i := 2; taken[name]; i++ {
				name = fmt.Sprintf("copy-%s-in-%s-%d", kebab(k.Node), kebab(l.Type), i)
			}
			taken[name] = true
			out = append(out, Relation{Name: name, List: l, Kind: k})
		}
	}
	return out
}

// kebab writes a node type in kebab case, as relation names are.
func kebab(s string) string {
	var b strings.Builder
	prevLower := false
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			if prevLower {
				b.WriteByte('-')
			}
			b.WriteRune(c - 'A' + 'a')
			prevLower = false
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
			prevLower = false
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "n" + out
	}
	return out
}

// Files renders the pack as relation files: the definitions, and a file of
// relations per list type (by file name, in order).
func (p *Pack) Files() (names []string, files map[string][]byte) {
	files = map[string][]byte{}
	names = append(names, DefsFile)
	files[DefsFile] = p.defs()
	byList := map[*List][]Relation{}
	for _, r := range p.Relations() {
		byList[r.List] = append(byList[r.List], r)
	}
	for _, l := range p.Lists {
		var b strings.Builder
		fmt.Fprintf(&b, "# The lists of type %s: %d in %d seeds, holding %s.\n", l.Type, l.Instances, l.Seeds, kindsText(l))
		fmt.Fprintf(&b, "include: [%s]\nrelations:\n", DefsFile)
		kept := 0
		for _, r := range byList[l] {
			if why, ok := p.Left[r.Name]; ok {
				fmt.Fprintf(&b, "  # %s is left out: %s\n", r.Name, why)
				continue
			}
			p.relation(&b, r)
			kept++
		}
		if kept == 0 {
			b.WriteString("  []\n")
		}
		name := "list-" + kebab(l.Type) + ".yaml"
		names = append(names, name)
		files[name] = []byte(b.String())
	}
	return names, files
}

func kindsText(l *List) string {
	var parts []string
	for _, k := range l.Kinds {
		parts = append(parts, fmt.Sprintf("%d %s", k.Count, k.Node))
	}
	return strings.Join(parts, ", ")
}

// defs renders the definitions: the parser, the numbers, the fresh names,
// a region per list type and a kind per kind of declaration.
func (p *Pack) defs() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Definitions inferred by mcpt from %d seeds: the lists of declarations\n", p.Seeds)
	b.WriteString("# their syntax trees hold (regions) and the kinds of declarations in them\n")
	b.WriteString("# (kinds), by node type. docs/zeroconfig.md says how they are found.\n")
	fmt.Fprintf(&b, "syntax: %s\n", quote(p.Syntax))
	if p.Numbers != "" {
		fmt.Fprintf(&b, "numbers: %s\n", p.Numbers)
	}
	fmt.Fprintf(&b, "fresh_pattern: %s\n", quote(FreshPattern))
	b.WriteString("regions:\n")
	for _, l := range p.Lists {
		sep := ""
		if l.Sep != "" {
			sep = ", sep: " + quote(l.Sep)
		}
		fmt.Fprintf(&b, "  %s: {node: [%s], members: [%s]%s}\n", ident(l.Type), quote(l.Type), quoteAll(l.Members), sep)
	}
	b.WriteString("kinds:\n")
	for _, l := range p.Lists {
		for _, k := range l.Kinds {
			fmt.Fprintf(&b, "  %s: {region: %s, node: [%s], fields: {name: [%s]}}\n", k.Name, ident(l.Type), quote(k.Node), quoteAll(k.NameTypes))
		}
	}
	return []byte(b.String())
}

// relation renders one relation.
func (p *Pack) relation(b *strings.Builder, r Relation) {
	l, k := r.List, r.Kind
	fmt.Fprintf(b, "  - name: %s\n", r.Name)
	what := "a " + k.Node
	if strings.ContainsRune("aeiou", rune(k.Node[0])) {
		what = "an " + k.Node // (an attribute, an enum_value)
	}
	inOrder := " among its neighbours' lines in order,"
	if k.Unordered {
		inOrder = ""
	}
	fmt.Fprintf(b, "    doc: |\n      A copy of %s of the list, with fresh names%s, changes only lines that mention it,%s like the %s copied.\n",
		what, map[bool]string{true: " and numbers"}[len(k.Numbers) > 0], inOrder, k.Node)
	near := "nearest the spot"
	if l.Root {
		near = "nearest before the spot"
	}
	fmt.Fprintf(b, "      Mutation: the %s %s copied, at any gap of a %s list", k.Node, near, l.Type)
	if k.Inner {
		b.WriteString(", every name declared inside it fresh too")
	}
	b.WriteString(".\n")
	for _, n := range p.notes[r.Name] {
		fmt.Fprintf(b, "      %s\n", n)
	}
	if len(k.Singular) > 0 {
		fmt.Fprintf(b, "      Left out: copies of a %s that has %s, which no list has twice.\n", k.Node, strings.Join(k.Singular, ", "))
	}
	if len(k.RejectedOn) > 0 {
		fmt.Fprintf(b, "      Not tested on %s: the transpiler rejected a copy there (%s).\n", strings.Join(k.RejectedOn, ", "), k.RejectedBy)
	}
	var except []string
	if k.KeepFirst {
		except = append(except, "'{{if not .region.index}}the first keeps its number{{end}}'")
	}
	if k.Ascending {
		except = append(except, fmt.Sprintf("'{{if select \"kind\" \"^%s$\" .region.after}}numbers ascend: only after the last{{end}}'", k.Name))
	}
	if len(k.RejectedOn) > 0 {
		var conds []string
		for _, n := range k.RejectedOn {
			conds = append(conds, fmt.Sprintf("(eq .input.name %s)", strconv.Quote(n)))
		}
		cond := conds[0]
		if len(conds) > 1 {
			cond = "or " + strings.Join(conds, " ")
		}
		except = append(except, quote(fmt.Sprintf("{{if %s}}the transpiler rejects copies on this seed{{end}}", cond)))
	}
	if len(except) > 0 {
		fmt.Fprintf(b, "    spots: {boundaries: %s, except: [%s]}\n", ident(l.Type), strings.Join(except, ", "))
	} else {
		fmt.Fprintf(b, "    spots: {boundaries: %s}\n", ident(l.Type))
	}
	b.WriteString("    fresh: [n]\n")
	fmt.Fprintf(b, "    clone: {kind: %s, name: '{{likecase .clone.of .n}}'", k.Name)
	if l.Root {
		// (a top-level declaration may use those before it: a copy
		// goes after the one it copies)
		b.WriteString(", from: before")
	}
	if len(k.Singular) > 0 {
		var alts []string
		for _, w := range k.Singular {
			alts = append(alts, regexp.QuoteMeta(w))
		}
		fmt.Fprintf(b, ", except: %s", quote(`\b(?:`+strings.Join(alts, "|")+`)\b`))
	}
	if k.Inner {
		b.WriteString(", inner: fresh")
	}
	if nums := p.numbersOf(k); len(nums) > 0 {
		b.WriteString(", numbers: [")
		for i, n := range nums {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "{node: %s, in: %s", quote(n.Node), quote(n.In))
			if n.KeepFirst {
				b.WriteString(", keep_first: true")
			}
			if n.Ascending {
				b.WriteString(", ascending: true")
			}
			b.WriteString("}")
		}
		b.WriteString("]")
	}
	b.WriteString("}\n")
	b.WriteString("    checks:\n")
	h := p.Habits
	forms := ""
	if len(h.Forms) > 0 {
		forms = "forms: [" + strings.Join(h.Forms, ", ") + "]"
	}
	loc := []string{"numbers: any", "renumbered: true", "punctuation: any", "hunks: true", "repeats: true", "clone: true"}
	if k.Step != 0 {
		loc = append(loc[:1], append([]string{fmt.Sprintf("by: %d", k.Step)}, loc[1:]...)...)
	}
	if also := append(append(append(slices.Clone(h.Tables), h.Variants...), h.Boilerplate...), l.Positional...); len(also) > 0 {
		loc = append(loc, "also: ["+quoteAll(also)+"]")
	}
	fmt.Fprintf(b, "      - locality: {%s}\n", strings.Join(loc, ", "))
	if len(l.Places) > 0 && !k.Unordered {
		ord := []string{}
		if forms != "" {
			ord = append(ord, forms)
		}
		ord = append(ord, "places: "+quote("^(?:"+strings.Join(l.Places, "|")+")$"))
		fmt.Fprintf(b, "      - order: {%s}\n", strings.Join(ord, ", "))
	}
	ana := []string{}
	if forms != "" {
		ana = append(ana, forms)
	}
	ana = append(ana, "common: true")
	if l.Last {
		ana = append(ana, "last: true")
	}
	// (a line the sibling has for its place in its list, not for what
	// it is: the first field of a range protoc's C++ copies with memcpy)
	if ignore := append(slices.Clone(h.Tables), l.Positional...); len(ignore) > 0 {
		ana = append(ana, "ignore: "+quote(strings.Join(ignore, "|")))
	}
	fmt.Fprintf(b, "      - analogy: {%s}\n", strings.Join(ana, ", "))
}

// numbersOf are the numbers a copy of a declaration of kind k takes
// fresh: its own and, when its inner names are fresh, those of every
// kind of declaration (by node type) that may be inside it.
func (p *Pack) numbersOf(k *Kind) []Number {
	out := slices.Clone(k.Numbers)
	if !k.Inner {
		return out
	}
	byNode := map[string]Number{}
	var order []string
	for _, l := range p.Lists {
		for _, kk := range l.Kinds {
			for _, n := range kk.Numbers {
				if n.Node == k.Node {
					continue
				}
				old, ok := byNode[n.Node]
				if !ok {
					order = append(order, n.Node)
					byNode[n.Node] = n
					continue
				}
				// a node type numbered in several lists: its first keeps
				// its number only where every list says so
				old.KeepFirst = old.KeepFirst && n.KeepFirst
				old.Ascending = old.Ascending || n.Ascending
				byNode[n.Node] = old
			}
		}
	}
	for _, node := range order {
		out = append(out, byNode[node])
	}
	return out
}

// quote writes s as a YAML scalar in single quotes when it needs them.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' || r == '/')
	}) < 0 && !isYAMLWord(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// isYAMLWord reports whether s would not read as a string: true, null, a
// number.
func isYAMLWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func quoteAll(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = quote(x)
	}
	return strings.Join(out, ", ")
}

// CounterRule is the normalisation rule that writes the generator's
// counters (Habits.Counters) without their numbers, _size12 as _sizeN:
// a declaration added before them renumbers them, and they name nothing
// of the input. ok is false when the outputs have none.
func (p *Pack) CounterRule() (rule oracle.Rule, ok bool) {
	if len(p.Habits.Counters) == 0 {
		return oracle.Rule{}, false
	}
	var alts []string
	for _, c := range p.Habits.Counters {
		alts = append(alts, regexp.QuoteMeta(c))
	}
	repl := "${1}N"
	return oracle.Rule{Match: regexp.MustCompile(`\b(` + strings.Join(alts, "|") + `)[0-9]+\b`), Replace: &repl}, true
}

// ColumnsRule is the normalisation rule that writes each run of spaces
// after a word as one space in the files whose lines the generator aligns
// in columns (Habits.Columns): a longer new name pads its neighbours
// anew, and its sibling's line otherwise than its own. ok is false when
// the outputs align none.
func (p *Pack) ColumnsRule() (rule oracle.Rule, ok bool) {
	if len(p.Habits.Columns) == 0 {
		return oracle.Rule{}, false
	}
	repl := "${1} "
	return oracle.Rule{Files: slices.Clone(p.Habits.Columns), Match: regexp.MustCompile(`(\S)  +`), Replace: &repl}, true
}
