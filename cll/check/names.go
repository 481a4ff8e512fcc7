package check

import (
	"strings"

	"github.com/mcpt-tool/mcpt/cll/ast"
)

// reservedCForms are the C forms no name may have (docs/cll.md, Names
// and their C forms): the members
// of the context and configuration structs that every program has, the
// macros of <stdbool.h>, and the C99 keywords. A C form is lower case, so
// _Bool, _Complex and _Imaginary cannot occur.
var reservedCForms = map[string]string{
	"state":              "reserved",
	"next_state":         "reserved",
	"transition_pending": "reserved",
	"cycle_time_ms":      "reserved",
	"bool":               "reserved",
	"true":               "reserved",
	"false":              "reserved",
}

var c99Keywords = []string{
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while",
}

func init() {
	for _, k := range c99Keywords {
		reservedCForms[k] = "a C keyword"
	}
}

// The C identifiers generated for a program live in three scopes, and only
// a clash within one scope breaks the C output:
//
//   - file scope: typedefs, enumerators, functions, objects and macros of
//     all eight files. The files are one scope for us although C has one
//     per translation unit: p.c sees every header, external functions
//     clash at link time anyway, and docs/cll.md forbids any coincidence.
//     Macros are upper case and everything else is lower case, so a macro
//     can only clash with another macro or an enumerator, both in this
//     scope. The names <stdbool.h> and <stdint.h> define are here too:
//     logic Int with enumeration Least8 would otherwise redefine
//     int_least8_t.
//   - the members of p_ctx_t: state, next_state, transition_pending and
//     v_x, t_x, e_x.
//   - the members of p_config_t: cycle_time_ms and one per parameter.
//
// The members of p_timer_t are fixed, and members never clash with file
// scope names, which C keeps in another name space.
type scope int

const (
	fileScope scope = iota
	ctxScope
	configScope
	numScopes
)

// stdNames are the identifiers <stdbool.h> and <stdint.h> define in C99.
var stdNames = func() []string {
	names := []string{"bool", "true", "false", "__bool_true_false_are_defined",
		"intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
		"INTPTR_MIN", "INTPTR_MAX", "UINTPTR_MAX", "INTMAX_MIN", "INTMAX_MAX", "UINTMAX_MAX",
		"PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX", "SIZE_MAX",
		"WCHAR_MIN", "WCHAR_MAX", "WINT_MIN", "WINT_MAX", "INTMAX_C", "UINTMAX_C"}
	for _, n := range []string{"8", "16", "32", "64"} {
		for _, v := range []string{"", "_least", "_fast"} {
			V := strings.ToUpper(v)
			names = append(names,
				"int"+v+n+"_t", "uint"+v+n+"_t",
				"INT"+V+n+"_MIN", "INT"+V+n+"_MAX", "UINT"+V+n+"_MAX")
		}
		names = append(names, "INT"+n+"_C", "UINT"+n+"_C")
	}
	return names
}()

// fixedIdentifiers returns, per scope, the identifiers every output holds
// for a logic whose C form is p (P in upper case). The helpers are those
// the C generator writes into p.c.
func fixedIdentifiers(p string) [numScopes]map[string]bool {
	P := strings.ToUpper(p)
	var fixed [numScopes]map[string]bool
	for i := range fixed {
		fixed[i] = map[string]bool{}
	}
	for _, s := range []string{
		p + "_state_t", p + "_state_name", p + "_state_names", P + "_STATE_COUNT",
		p + "_timer_t", p + "_ctx_t", p + "_config_t", p + "_config",
		p + "_config_cycle_time_ms", P + "_CYCLE_TIME_MS", p + "_init", p + "_cycle",
		p + "_div", p + "_mod", p + "_rdiv", p + "_end_cycle",
		P + "_TYPES_H", P + "_CONFIG_H", P + "_IO_H", P + "_ATTRS_H", P + "_H",
	} {
		fixed[fileScope][s] = true
	}
	for _, s := range stdNames {
		fixed[fileScope][s] = true
	}
	// The <stdbool.h> macros reach members too.
	for _, s := range []string{"state", "next_state", "transition_pending", "bool", "true", "false"} {
		fixed[ctxScope][s] = true
	}
	for _, s := range []string{"cycle_time_ms", "bool", "true", "false"} {
		fixed[configScope][s] = true
	}
	return fixed
}

// generated is one C identifier generated for a declared name.
type generated struct {
	scope scope
	id    string
}

// generatedIdentifiers returns the C identifiers of docs/cll.md generated for
// entity e, whose C form is x, in a logic whose C form is p.
func (c *checker) generatedIdentifiers(e *Entity, p string) []generated {
	P := strings.ToUpper(p)
	x := CForm(e.Name)
	X := strings.ToUpper(x)
	switch e.Kind {
	case State:
		return []generated{{fileScope, P + "_STATE_" + X}}
	case Enum:
		return []generated{
			{fileScope, p + "_" + x + "_t"},
			{fileScope, P + "_" + X + "_COUNT"},
			{fileScope, p + "_" + x + "_name"},
			{fileScope, p + "_" + x + "_names"},
		}
	case EnumValue:
		E := UpperCForm(e.Decl.(*ast.EnumDecl).Name.Name)
		return []generated{{fileScope, P + "_" + E + "_" + X}}
	case Command:
		return []generated{{fileScope, p + "_cmd_" + x}}
	case Param:
		return []generated{{fileScope, p + "_config_" + x}, {configScope, x}}
	case Var:
		return []generated{{ctxScope, "v_" + x}}
	case Timer:
		return []generated{{ctxScope, "t_" + x}}
	case Event:
		return []generated{{ctxScope, "e_" + x}, {fileScope, p + "_raise_" + x}}
	case Attr:
		return []generated{{fileScope, P + "_ATTR_" + X}}
	}
	return nil
}

// checkNames applies the naming rules of docs/cll.md to the declared names, in
// source order, reporting each at the later name involved: a reserved C
// form, two names with one C form, and a generated C identifier that
// coincides with a fixed one or with one generated for an earlier name. A
// name that breaks a rule generates nothing, so that one mistake gives one
// error.
func (c *checker) checkNames() {
	p := CForm(c.prog.Logic.Name)
	good := make(map[*Entity]bool, len(c.order))
	byCForm := make(map[string]*Entity, len(c.order))
	for _, e := range c.order {
		x := CForm(e.Name)
		pos := c.declPos[e]
		if why, ok := reservedCForms[x]; ok {
			c.errorf(pos, "C form %q of %q is %s", x, e.Name, why)
			continue
		}
		if prev := byCForm[x]; prev != nil {
			c.errorf(pos, "%q and %q (at %s) have the same C form %q", e.Name, prev.Name, c.declPos[prev], x)
			continue
		}
		byCForm[x] = e
		good[e] = true
	}

	fixed := fixedIdentifiers(p)
	// Gather the generated identifiers first, so that each scope's map is
	// made at its size once rather than grown (a large program spent a
	// tenth of its time rehashing) or made too large (most programs put
	// few names in some scopes).
	type named struct {
		e   *Entity
		ids []generated
	}
	all := make([]named, 0, len(c.order))
	var n [numScopes]int
	for _, e := range c.order {
		if !good[e] {
			continue
		}
		if e.Kind == EnumValue {
			d := e.Decl.(*ast.EnumDecl)
			if enum := c.info.Entities[d.Name.Name]; enum == nil || enum.Decl != d || !good[enum] {
				continue
			}
		}
		ids := c.generatedIdentifiers(e, p)
		for _, g := range ids {
			n[g.scope]++
		}
		all = append(all, named{e, ids})
	}
	var seen [numScopes]map[string]*Entity
	for i := range seen {
		seen[i] = make(map[string]*Entity, n[i])
	}
	for _, x := range all {
		e := x.e
		for _, g := range x.ids {
			pos := c.declPos[e]
			if fixed[g.scope][g.id] {
				c.errorf(pos, "C identifier %q of %q collides with a fixed one", g.id, e.Name)
				break
			}
			if prev := seen[g.scope][g.id]; prev != nil {
				c.errorf(pos, "C identifier %q of %q collides with that of %q (at %s)", g.id, e.Name, prev.Name, c.declPos[prev])
				break
			}
			seen[g.scope][g.id] = e
		}
	}
}
