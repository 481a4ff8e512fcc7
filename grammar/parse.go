package grammar

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/inputfile"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

const maxErrors = 20

// bailout aborts the parse of one top-level item after a syntax error.
type bailout struct{}

type parser struct {
	lex     *lexer
	tok     token
	errs    *ErrorList
	g       *Grammar
	parsing bool // inside a top-level item, where a bailout is recovered
	nesting int  // groups open around the current item
}

// maxNesting bounds the groups, "(…)" and "@indent(…)", open at once: far
// deeper than any grammar needs, and shallow enough that the parser's and
// the deriver's recursion stay small.
const maxNesting = 200

// open enters a group at pos; the caller calls close when it ends.
func (p *parser) open(pos Pos) {
	p.nesting++
	if p.nesting > maxNesting {
		p.errorf(pos, "groups nested deeper than %d levels", maxNesting)
		panic(bailout{})
	}
}

func (p *parser) close() { p.nesting-- }

// ParseFile reads and parses the grammar file at path.
func ParseFile(path string) (*Grammar, error) {
	src, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses and checks a grammar. The error, if any, is an ErrorList
// whose entries print as file:line:col: message.
func Parse(filename string, src []byte) (*Grammar, error) {
	var errs ErrorList
	g := &Grammar{
		file:     filename,
		rules:    map[string]*rule{},
		kinds:    map[string]*kind{},
		reserved: map[string]bool{},
		depth:    defaultDepth,
		indent:   "  ",
	}
	p := &parser{lex: &lexer{file: filename, src: src, line: 1, col: 1, errs: &errs}, errs: &errs, g: g}
	p.next()
	for p.tok.kind != tEOF && len(errs) < maxErrors {
		p.topLevel()
	}
	if len(errs) == 0 {
		g.compile(&errs)
	}
	errs.Sort()
	if len(errs) > maxErrors {
		errs = errs[:maxErrors]
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return g, nil
}

func (p *parser) next() {
	for {
		p.tok = p.lex.next()
		if p.tok.kind != tBad {
			return
		}
		// A lexical error was reported; abandon the item it stands in.
		if p.parsing {
			panic(bailout{})
		}
	}
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs.Add(yamlpos.Errorf(pos, format, args...))
}

// fail reports "expected X, found Y" and abandons the current item.
func (p *parser) fail(what string) {
	p.errorf(p.tok.pos, "expected %s, found %s", what, p.tok)
	panic(bailout{})
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }

func (p *parser) expectPunct(s string) Pos {
	if !p.isPunct(s) {
		p.fail(strconv.Quote(s))
	}
	pos := p.tok.pos
	p.next()
	return pos
}

func (p *parser) expectIdent(what string) token {
	if p.tok.kind != tIdent {
		p.fail(what)
	}
	t := p.tok
	p.next()
	return t
}

// topLevel parses one directive or rule, recovering from a syntax error by
// skipping to the next ";".
func (p *parser) topLevel() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.parsing = false
			if p.tok.kind == tPunct && p.tok.text == ";" {
				p.next()
			} else {
				p.skipPastSemicolon()
			}
		}
	}()
	p.parsing = true
	p.nesting = 0
	if p.tok.kind == tDirective {
		p.directive()
	} else {
		p.ruleDef()
	}
	p.parsing = false
}

func (p *parser) skipPastSemicolon() {
	for {
		t := p.lex.next()
		if t.kind == tEOF {
			p.tok = t
			return
		}
		if t.kind == tPunct && t.text == ";" {
			break
		}
	}
	for {
		p.tok = p.lex.next()
		if p.tok.kind != tBad {
			return
		}
	}
}

// directive parses
//
//	directive = "%start" IDENT ";" | "%depth" INT ";" | "%indent" STRING ";"
//	          | "%kind" IDENT IDENT ";" | "%reserve" { IDENT | STRING } ";"
//	          | "%comment" STRING STRING ";" | "%name" IDENT ";"
//	          | "%bounds" ( "exact" | "relaxed" ) ";"
//	          | "%repetitions" ( "fewest" | "most" ) ";" .
func (p *parser) directive() {
	d := p.tok
	p.next()
	g := p.g
	switch d.text {
	case "start":
		t := p.expectIdent("a rule name")
		g.startName, g.startPos = t.text, t.pos
	case "depth":
		if p.tok.kind != tInt {
			p.fail("a depth limit")
		}
		n, err := strconv.Atoi(p.tok.text)
		if err != nil || n < 1 || n > 1000 {
			p.errorf(p.tok.pos, "bad depth limit %s: must be 1..1000", p.tok.text)
		} else {
			g.depth = n
		}
		p.next()
	case "indent":
		if p.tok.kind != tString {
			p.fail("an indentation literal")
		}
		g.indent = p.tok.text
		p.next()
	case "kind":
		t := p.expectIdent("a kind name")
		r := p.expectIdent("the name rule of kind " + t.text)
		if k, dup := g.kinds[t.text]; dup {
			p.errorf(t.pos, "duplicate kind %s (first declared at %s)", t.text, k.p)
		} else {
			k := &kind{name: t.text, p: t.pos, ruleName: r.text, rulePos: r.pos}
			g.kinds[t.text] = k
			g.kindOrder = append(g.kindOrder, k)
		}
	case "reserve":
		for p.tok.kind == tIdent || p.tok.kind == tString {
			g.reserved[fold(p.tok.text)] = true
			p.next()
		}
	case "comment":
		p.commentDirective(d.pos)
	case "name":
		t := p.expectIdent("the rule that matches a name when parsing")
		g.nameRule, g.namePos = t.text, t.pos
	case "repetitions":
		g.mostItems = p.mode("repetitions", "fewest", "most") == "most"
	case "bounds":
		g.exactBounds = p.mode("bounds", "exact", "relaxed") == "exact"
	default:
		p.errorf(d.pos, "unknown directive %%%s", d.text)
		panic(bailout{})
	}
	p.expectPunct(";")
}

// mode reads the mode word of a directive, one of modes, and returns it.
func (p *parser) mode(directive string, modes ...string) string {
	want := strings.Join(modes, " or ")
	t := p.expectIdent(want)
	if !slices.Contains(modes, t.text) {
		p.errorf(t.pos, "unknown %s mode %s (want %s)", directive, t.text, want)
	}
	return t.text
}

// ruleDef parses
//
//	rule = IDENT [ "<" value { "," value } ">" ] "=" choice ";" .
func (p *parser) ruleDef() {
	name := p.expectIdent("a rule name or a directive")
	v := &variant{p: name.pos}
	if p.isPunct("<") {
		p.next()
		for {
			v.params = append(v.params, p.value())
			if !p.isPunct(",") {
				break
			}
			p.next()
		}
		p.expectPunct(">")
	}
	p.expectPunct("=")
	v.body = p.choice(name.pos)
	p.expectPunct(";")
	g := p.g
	r := g.rules[name.text]
	if r == nil {
		r = &rule{name: name.text, p: name.pos, arity: len(v.params)}
		g.rules[name.text] = r
		g.order = append(g.order, r)
	} else if r.arity != len(v.params) {
		p.errorf(name.pos, "rule %s has %d parameters here but %d at %s", name.text, len(v.params), r.arity, r.p)
		return
	}
	v.rule = r
	for _, w := range r.variants {
		if samePatterns(w.params, v.params) {
			if len(v.params) == 0 {
				p.errorf(name.pos, "duplicate rule %s (first defined at %s)", name.text, w.p)
			} else {
				p.errorf(name.pos, "duplicate rule %s with the same parameters (first defined at %s)", name.text, w.p)
			}
			return
		}
	}
	r.variants = append(r.variants, v)
}

// samePatterns reports whether two parameter lists match the same
// arguments: equal constants, and variables in the same places.
func samePatterns(a, b []*valueNode) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].isVar != b[i].isVar || !a[i].isVar && a[i].konst != b[i].konst {
			return false
		}
	}
	return true
}

// choice parses
//
//	choice = alt { "|" alt } .
func (p *parser) choice(pos Pos) *choiceNode {
	c := &choiceNode{p: pos}
	for {
		a := p.alt()
		if a.weight == 0 {
			c.parseOnly = append(c.parseOnly, a)
		} else {
			c.alts = append(c.alts, a)
		}
		if !p.isPunct("|") {
			break
		}
		p.next()
	}
	if len(c.alts) == 0 {
		p.errorf(pos, "a choice needs an alternative of weight above 0 (weight 0 is only read when parsing)")
	}
	return c
}

// alt parses
//
//	alt = [ INT ":" ] item { item } .
func (p *parser) alt() *altNode {
	a := &altNode{p: p.tok.pos, weight: 1}
	if p.tok.kind == tInt {
		w, err := strconv.Atoi(p.tok.text)
		if err != nil || w < 0 || w > maxWeight {
			p.errorf(p.tok.pos, "bad weight %s: must be 0..%d", p.tok.text, maxWeight)
		} else {
			a.weight = w
		}
		p.next()
		p.expectPunct(":")
		a.p = p.tok.pos
	}
	for p.startsItem() {
		a.items = append(a.items, p.item())
	}
	if len(a.items) == 0 {
		p.fail(`an item (write "" for an empty alternative)`)
	}
	return a
}

const maxWeight = 1000000

func (p *parser) startsItem() bool {
	switch p.tok.kind {
	case tString, tClass, tIdent, tVar, tAction:
		return true
	case tPunct:
		return p.tok.text == "("
	}
	return false
}

// item parses
//
//	item = [ VAR "=" ] primary [ "?" | "{" INT [ "," INT ] "}" ] .
func (p *parser) item() node {
	if p.tok.kind == tVar {
		v := p.tok
		p.next()
		if p.isPunct("=") {
			p.next()
			if !p.startsItem() {
				p.fail("an item to bind to $" + v.text)
			}
			return &bindNode{p: v.pos, name: v.text, item: p.postfix(p.primary())}
		}
		return p.postfix(&emitNode{p: v.pos, v: p.varRest(v)})
	}
	return p.postfix(p.primary())
}

func (p *parser) postfix(n node) node {
	switch {
	case p.isPunct("?"):
		pos := p.tok.pos
		p.next()
		return &repNode{p: pos, item: n, min: 0, max: 1}
	case p.isPunct("{"):
		pos := p.tok.pos
		p.next()
		lo := p.bound()
		hi := lo
		if p.isPunct(",") {
			p.next()
			hi = p.bound()
		}
		p.expectPunct("}")
		if lo > hi {
			p.errorf(pos, "bad bounds {%d,%d}: minimum above maximum", lo, hi)
		}
		return &repNode{p: pos, item: n, min: lo, max: hi}
	}
	return n
}

const maxRepeat = 10000

func (p *parser) bound() int {
	if p.tok.kind != tInt {
		p.fail("a repetition bound")
	}
	n, err := strconv.Atoi(p.tok.text)
	if err != nil || n > maxRepeat {
		p.errorf(p.tok.pos, "bad bounds: %s is above %d", p.tok.text, maxRepeat)
		n = 0
	}
	p.next()
	return n
}

// primary parses
//
//	primary = STRING | CLASS | IDENT [ "<" value { "," value } ">" ]
//	        | "(" choice ")" | ("@new" | "@ref" | "@take") "(" IDENT [ "," value ] ")"
//	        | "@indent" "(" choice ")" .
func (p *parser) primary() node {
	t := p.tok
	switch t.kind {
	case tString:
		p.next()
		return &litNode{p: t.pos, text: t.text}
	case tClass:
		p.next()
		return &classNode{p: t.pos, set: t.set, negated: t.negated}
	case tIdent:
		p.next()
		c := &callNode{p: t.pos, name: t.text}
		if p.isPunct("<") {
			p.next()
			for {
				c.args = append(c.args, p.value())
				if !p.isPunct(",") {
					break
				}
				p.next()
			}
			p.expectPunct(">")
		}
		return c
	case tPunct:
		if t.text == "(" {
			p.open(t.pos)
			p.next()
			c := p.choice(t.pos)
			p.expectPunct(")")
			p.close()
			return c
		}
	case tAction:
		p.next()
		switch t.text {
		case "new", "ref", "take":
			op := map[string]symOp{"new": opNew, "ref": opRef, "take": opTake}[t.text]
			p.expectPunct("(")
			k := p.expectIdent("a kind name")
			s := &symNode{p: t.pos, op: op, kindName: k.text}
			if p.isPunct(",") {
				p.next()
				s.tag = p.value()
			}
			p.expectPunct(")")
			return s
		case "indent":
			p.open(t.pos)
			p.expectPunct("(")
			c := p.choice(p.tok.pos)
			p.expectPunct(")")
			p.close()
			return &indentNode{p: t.pos, body: c}
		}
		p.errorf(t.pos, "unknown action @%s (want @new, @ref, @take or @indent)", t.text)
		panic(bailout{})
	}
	p.fail("an item")
	return nil
}

// value parses
//
//	value = IDENT | STRING | VAR [ "." "tag" ] .
func (p *parser) value() *valueNode {
	t := p.tok
	switch t.kind {
	case tIdent, tString:
		p.next()
		return &valueNode{p: t.pos, konst: t.text}
	case tVar:
		p.next()
		return p.varRest(t)
	}
	p.fail("a value (a name, a literal or a variable)")
	return nil
}

func (p *parser) varRest(v token) *valueNode {
	n := &valueNode{p: v.pos, isVar: true, name: v.text}
	if p.isPunct(".") {
		p.next()
		a := p.expectIdent("an attribute")
		if a.text != "tag" {
			p.errorf(a.pos, "unknown attribute %s (only .tag)", a.text)
		}
		n.tag = true
	}
	return n
}

// commentDirective parses the two literals of %comment: the text that opens
// a comment and the text that closes it ("\n" for a comment that runs to the
// end of the line).
func (p *parser) commentDirective(pos Pos) {
	var delim [2]string
	for i, what := range []string{"the text that opens a comment", "the text that closes a comment"} {
		if p.tok.kind != tString {
			p.fail(what)
		}
		delim[i] = p.tok.text
		p.next()
	}
	if delim[0] == "" || delim[1] == "" {
		p.errorf(pos, "a comment's opening and closing texts cannot be empty")
		return
	}
	p.g.comments = append(p.g.comments, delim)
}
