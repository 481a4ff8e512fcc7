package yamlrel

import (
	"text/template/parse"
)

// splitLets separates the relation's lets that use no choice, directly or
// through another let, from the others: the first are computed before the
// choices, so that a choice can use them (among: '{{index .tables .w}}' with w a
// let), the others after. Each keeps its order.
func splitLets(lets []let, choices []choice) (early, late []let) {
	needs := map[string]bool{}
	for _, c := range choices {
		needs[c.name] = true
	}
	for _, l := range lets {
		if usesAny(l.tmpl.tree.Root, needs) {
			needs[l.name] = true
			late = append(late, l)
		} else {
			early = append(early, l)
		}
	}
	return early, late
}

// usesAny reports whether a template names one of the bindings: a field
// .X… or $.X… whose first name is one. Inside range and with, where dot
// is something else, a field still counts: a let that might use a choice is
// computed after the choices, as every let was.
func usesAny(n parse.Node, names map[string]bool) bool {
	found := false
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if n == nil || found {
			return
		}
		switch x := n.(type) {
		case *parse.ListNode:
			if x == nil {
				return
			}
			for _, c := range x.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(x.Pipe)
		case *parse.PipeNode:
			if x == nil {
				return
			}
			for _, c := range x.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range x.Args {
				walk(a)
			}
		case *parse.FieldNode:
			found = names[x.Ident[0]]
		case *parse.VariableNode:
			found = len(x.Ident) > 1 && x.Ident[0] == "$" && names[x.Ident[1]]
		case *parse.ChainNode:
			walk(x.Node)
		case *parse.IfNode:
			walkBranch(&x.BranchNode, walk)
		case *parse.RangeNode:
			walkBranch(&x.BranchNode, walk)
		case *parse.WithNode:
			walkBranch(&x.BranchNode, walk)
		case *parse.TemplateNode:
			walk(x.Pipe)
		}
	}
	walk(n)
	return found
}

func walkBranch(b *parse.BranchNode, walk func(parse.Node)) {
	walk(b.Pipe)
	walk(b.List)
	walk(b.ElseList)
}
