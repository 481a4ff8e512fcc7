package grammar

import (
	"path/filepath"
	"strings"

	"github.com/mcpt-tool/mcpt/syntax"
)

// Parser reads programs with the grammar that generates them: it
// implements syntax.Parser. The grammar is compiled once into a graph of
// parsing expressions (pnode); every Parse runs a memoising recogniser over
// that graph and then builds one tree. See docs/grammar.md, "The grammar
// as a parser", for what each construct matches.
type Parser struct {
	lang     string
	g        *Grammar
	start    *pinst
	insts    []*pinst
	comments [][2]string
}

// NewParser compiles g for parsing. Lang is the name the parser gives its
// trees (syntax.Tree.Lang), e.g. "cll.grammar".
func NewParser(g *Grammar) *Parser {
	c := &pcompiler{g: g, insts: map[string]*pinst{}}
	p := &Parser{lang: filepath.Base(g.file), g: g, comments: g.comments}
	if g.nameRule != "" {
		c.name = c.instance(g.rules[g.nameRule], nil)
	}
	p.start = c.instance(g.start, nil)
	p.insts = c.order
	analyse(p.insts)
	return p
}

// Lang names the grammar: its file's base name.
func (p *Parser) Lang() string { return p.lang }

// pkind is the kind of a parsing expression.
type pkind uint8

const (
	pEmpty pkind = iota
	pText        // the exact text
	pClass       // one byte of a set
	pSkip        // white space and comments between tokens, see skip
	pWS          // white space inside a token rule: on one line unless text has a newline
	pName        // a name: an identifier, or the %name rule
	pSeq
	pAlt
	pRep
	pCall // a rule instance: a tree node
)

// pnode is a parsing expression.
type pnode struct {
	kind     pkind
	text     string     // pText
	set      *[256]bool // pClass
	items    []*pnode   // pSeq, pAlt
	item     *pnode     // pRep
	min, max int        // pRep; max < 0 is unbounded
	most     bool       // pRep: read as the most items (%repetitions most)
	inst     *pinst     // pCall; pName with a %name rule
	nodeKind string     // pName: the kind of names
	field    string     // pName: "new", "ref" or "take"; "" for a value
	what     string     // what a failure expected, for pText and pClass
	id       int        // pRep: its key in the memo, after the rule instances'
}

// pinst is a rule instantiated for parsing with abstract arguments: each
// argument is a known constant or unknown (a name's tag, a bound text).
type pinst struct {
	id    int
	name  string
	token bool // a token rule: no white space is skipped inside it, and its node is a leaf
	body  *pnode
	// What analyse found, for the recogniser to leave out a call that
	// cannot match (matcher.pruned): every alternative starts with a skip
	// (lead); past that skip, read where no further white space is, a
	// match may be empty (nullable), starts with a byte of first, and a
	// failure expects whats.
	lead     bool
	nullable bool
	first    byteSet
	whats    []string
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) addAll(o byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3]
}

// absVal is an abstract value: a constant of the grammar, or unknown.
type absVal struct {
	known bool
	val   string
}

// pbinding is what a variable stands for while compiling: a parameter's
// abstract value, or the item a variable is bound to (compiled again where
// the variable is emitted).
type pbinding struct {
	val  absVal
	tag  absVal
	item node
	env  map[string]pbinding
}

type pcompiler struct {
	g     *Grammar
	insts map[string]*pinst
	order []*pinst
	name  *pinst
	token map[*rule]bool
}

// tokenRules returns the token rules of the grammar: the rules that build
// a word from characters. A token rule holds only literals, classes and
// calls of token rules, contains a class (its own or a called token's),
// has no parameters and does not call itself; a rule without a class of
// its own must also have no white space in its literals (white space
// between items written as literals marks a phrase: `" = "`, `", "`).
func (c *pcompiler) tokenRules() map[*rule]bool {
	tok := map[*rule]bool{}
	calls := map[*rule][]*rule{}
	ownClass := map[*rule]bool{}
	spaced := map[*rule]bool{}
	for _, r := range c.g.order {
		tok[r] = true
		for _, v := range r.variants {
			lex := lexical(v.body, func(n node) {
				switch n := n.(type) {
				case *callNode:
					calls[r] = append(calls[r], n.rule)
				case *classNode:
					ownClass[r] = true
				case *litNode:
					if strings.ContainsAny(n.text, " \t\n\r") {
						spaced[r] = true
					}
				}
			})
			if len(v.params) > 0 || !lex {
				tok[r] = false
			}
		}
	}
	for _, r := range c.g.order {
		if reaches(r, r, calls, map[*rule]bool{}) || spaced[r] && !ownClass[r] {
			tok[r] = false
		}
	}
	// A class through a called token counts; calling a rule that is not a
	// token makes a rule no token.
	hasClass := map[*rule]bool{}
	for r := range ownClass {
		hasClass[r] = true
	}
	for changed := true; changed; {
		changed = false
		for _, r := range c.g.order {
			for _, d := range calls[r] {
				if tok[r] && !tok[d] {
					tok[r], changed = false, true
				}
				if hasClass[d] && !hasClass[r] {
					hasClass[r], changed = true, true
				}
			}
		}
	}
	for r := range tok {
		tok[r] = tok[r] && hasClass[r]
	}
	return tok
}

// lexical reports whether n holds only literals, classes, calls without
// arguments, and repetitions and groups of them; it shows each literal,
// class and call to see.
func lexical(n node, see func(node)) bool {
	switch n := n.(type) {
	case *litNode, *classNode:
		see(n)
		return true
	case *callNode:
		see(n)
		return len(n.args) == 0
	case *repNode:
		return lexical(n.item, see)
	case *indentNode:
		return lexical(n.body, see)
	case *choiceNode:
		ok := true
		for _, a := range append(n.alts[:len(n.alts):len(n.alts)], n.parseOnly...) {
			for _, it := range a.items {
				ok = lexical(it, see) && ok
			}
		}
		return ok
	}
	return false
}

// reaches reports whether rule to is reachable from rule from through calls.
func reaches(from, to *rule, calls map[*rule][]*rule, seen map[*rule]bool) bool {
	for _, d := range calls[from] {
		if d == to {
			return true
		}
		if !seen[d] {
			seen[d] = true
			if reaches(d, to, calls, seen) {
				return true
			}
		}
	}
	return false
}

// instance returns the parsing instance of r for abstract arguments args,
// compiling it on first use.
func (c *pcompiler) instance(r *rule, args []absVal) *pinst {
	if c.token == nil {
		c.token = c.tokenRules()
	}
	var key strings.Builder
	key.WriteString(r.name)
	for _, a := range args {
		if a.known {
			key.WriteString("\x00=" + a.val)
		} else {
			key.WriteString("\x00?")
		}
	}
	if in := c.insts[key.String()]; in != nil {
		return in
	}
	in := &pinst{id: len(c.order), name: r.name, token: c.token[r]}
	c.insts[key.String()] = in
	c.order = append(c.order, in)
	var alts []*pnode
	for _, v := range selectVariants(r, args) {
		env := map[string]pbinding{}
		for i, p := range v.params {
			if p.isVar {
				env[p.name] = pbinding{val: args[i]}
			}
		}
		alts = append(alts, c.choice(v.body, env, in.token))
	}
	in.body = alt(alts)
	return in
}

// selectVariants returns the variants of r that arguments args may select:
// the first matching one when all are known, otherwise every variant that
// may match, up to the first that surely does.
func selectVariants(r *rule, args []absVal) []*variant {
	var out []*variant
	for _, v := range r.variants {
		may, sure := true, true
		for i, p := range v.params {
			switch {
			case p.isVar:
			case !args[i].known:
				sure = false
			case args[i].val != p.konst:
				may = false
			}
		}
		if may {
			out = append(out, v)
		}
		if may && sure {
			break
		}
	}
	return out
}

func alt(alts []*pnode) *pnode {
	if len(alts) == 1 {
		return alts[0]
	}
	return &pnode{kind: pAlt, items: alts}
}

func seq(items []*pnode) *pnode {
	var flat []*pnode
	for _, it := range items {
		switch {
		case it.kind == pEmpty:
		case it.kind == pSeq:
			flat = append(flat, it.items...)
		default:
			flat = append(flat, it)
		}
	}
	// Two skips in a row are one.
	out := flat[:0]
	for _, it := range flat {
		if it.kind == pSkip && len(out) > 0 && out[len(out)-1].kind == pSkip {
			continue
		}
		out = append(out, it)
	}
	switch len(out) {
	case 0:
		return &pnode{kind: pEmpty}
	case 1:
		return out[0]
	}
	return &pnode{kind: pSeq, items: out}
}

var skipNode = &pnode{kind: pSkip}

func (c *pcompiler) choice(ch *choiceNode, env map[string]pbinding, token bool) *pnode {
	var alts []*pnode
	for _, a := range append(ch.alts[:len(ch.alts):len(ch.alts)], ch.parseOnly...) {
		inner := env
		var items []*pnode
		for _, it := range a.items {
			if b, ok := it.(*bindNode); ok {
				// A bound item emits nothing here; it is read where the
				// variable is emitted.
				prev := inner
				inner = copyPEnv(prev)
				inner[b.name] = pbinding{item: b.item, env: prev, tag: bindTag(b.item)}
				continue
			}
			items = append(items, c.node(it, inner, token))
		}
		alts = append(alts, seq(items))
	}
	return alt(alts)
}

func copyPEnv(env map[string]pbinding) map[string]pbinding {
	c := make(map[string]pbinding, len(env)+1)
	for k, v := range env {
		c[k] = v
	}
	return c
}

// bindTag is the abstract tag of a bound item: known when it is @new, @ref
// or @take with a constant tag.
func bindTag(n node) absVal {
	if s, ok := n.(*symNode); ok && s.tag != nil && !s.tag.isVar {
		return absVal{true, s.tag.konst}
	}
	return absVal{}
}

func (c *pcompiler) node(n node, env map[string]pbinding, token bool) *pnode {
	switch n := n.(type) {
	case *litNode:
		return literal(n.text, token)
	case *classNode:
		set := new([256]bool)
		for _, b := range n.set {
			set[b] = true
		}
		if n.negated {
			set['\t'] = true
			for b := 0x80; b < 0x100; b++ {
				set[b] = true
			}
		}
		cl := &pnode{kind: pClass, set: set, what: classWhat(n.set)}
		if token {
			return cl
		}
		return seq([]*pnode{skipNode, cl})
	case *choiceNode:
		return c.choice(n, env, token)
	case *indentNode:
		return c.node(n.body, env, token)
	case *repNode:
		max := n.max
		if !c.g.exactBounds && max > n.min && max > 1 {
			max = -1
		}
		return &pnode{kind: pRep, item: c.node(n.item, env, token), min: n.min, max: max, most: c.g.mostItems && max < 0}
	case *callNode:
		args := make([]absVal, len(n.args))
		for i, a := range n.args {
			args[i] = abstract(a, env)
		}
		in := c.instance(n.rule, args)
		call := &pnode{kind: pCall, inst: in}
		if in.token && !token {
			return seq([]*pnode{skipNode, call})
		}
		return call
	case *symNode:
		field := [...]string{"new", "ref", "take"}[n.op]
		return seq([]*pnode{skipNode, {kind: pName, inst: c.name, nodeKind: n.kindName, field: field}})
	case *emitNode:
		return c.emit(n.v, env, token)
	}
	return &pnode{kind: pEmpty}
}

// emit compiles the emission of a value: a constant is a literal, a bound
// variable reads its item again, an unknown value is a name.
func (c *pcompiler) emit(v *valueNode, env map[string]pbinding, token bool) *pnode {
	if !v.isVar {
		return literal(v.konst, token)
	}
	b := env[v.name]
	a := b.val
	if v.tag {
		a = b.tag
	} else if b.item != nil {
		return c.node(b.item, b.env, token)
	}
	if a.known {
		return literal(a.val, token)
	}
	return seq([]*pnode{skipNode, {kind: pName, inst: c.name, nodeKind: "name"}})
}

func abstract(v *valueNode, env map[string]pbinding) absVal {
	switch {
	case !v.isVar:
		return absVal{true, v.konst}
	case v.tag:
		return env[v.name].tag
	}
	b := env[v.name]
	if b.item != nil {
		return absVal{}
	}
	return b.val
}

// literal compiles a literal: each run of white space in it is a skip (in
// a token rule, a run of white space only), each run of other text is a
// token preceded by a skip.
func literal(text string, token bool) *pnode {
	var items []*pnode
	for i := 0; i < len(text); {
		j := i
		if isSpace(text[i]) {
			for j < len(text) && isSpace(text[j]) {
				j++
			}
			if token {
				items = append(items, &pnode{kind: pWS, text: text[i:j]})
			} else {
				items = append(items, skipNode)
			}
		} else {
			for j < len(text) && !isSpace(text[j]) {
				j++
			}
			if !token {
				items = append(items, skipNode)
			}
			items = append(items, &pnode{kind: pText, text: text[i:j], what: quote(text[i:j])})
		}
		i = j
	}
	return seq(items)
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

func isWord(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// classWhat describes a character class in an error message: its first
// few characters.
func classWhat(set []byte) string {
	var b strings.Builder
	b.WriteString("one of ")
	for i, c := range set {
		if i == 8 {
			b.WriteString("…")
			break
		}
		if c >= ' ' && c < 0x7f {
			b.WriteByte(c)
		} else {
			b.WriteString(strings.Trim(quoteByte(c), `"`))
		}
	}
	return b.String()
}

func quoteByte(c byte) string {
	switch c {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	}
	return string(rune(c))
}

var (
	_ syntax.ContextParser  = (*Parser)(nil)
	_ syntax.FragmentParser = (*Parser)(nil)
)
