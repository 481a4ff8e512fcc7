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

// spotKeys are the keys of a boundary spot's data that differ from spot to
// spot of one region instance; the others (the instance's .region but
// index, before and after, the input's declarations, captures and tables)
// are the same for all of them.
var spotKeys = map[string]bool{"prev": true, "next": true, "list": true}

// regionSpotKeys are the keys of .region that differ from spot to spot.
var regionSpotKeys = map[string]bool{"index": true, "before": true, "after": true}

// readsSpot reports whether template t may read what differs between the
// boundary spots of one region instance: a spot key, .region's index,
// before or after, .region or the data as a whole, or one of the lets
// (names) that do. It errs on the side of yes: a template that passes dot
// on, or calls a template, may read anything.
func readsSpot(t *tmpl, names map[string]bool) bool {
	reads := func(path []string) bool {
		switch {
		case len(path) == 0:
			return true // the whole data
		case spotKeys[path[0]] || names[path[0]]:
			return true
		case path[0] == "region":
			return len(path) == 1 || regionSpotKeys[path[1]]
		}
		return false
	}
	found := false
	var walk func(n parse.Node, root bool)
	walk = func(n parse.Node, root bool) {
		if n == nil || found {
			return
		}
		switch x := n.(type) {
		case *parse.ListNode:
			if x == nil {
				return
			}
			for _, c := range x.Nodes {
				walk(c, root)
			}
		case *parse.ActionNode:
			walk(x.Pipe, root)
		case *parse.PipeNode:
			if x == nil {
				return
			}
			for _, c := range x.Cmds {
				walk(c, root)
			}
		case *parse.CommandNode:
			for _, a := range x.Args {
				walk(a, root)
			}
		case *parse.FieldNode:
			found = root && reads(x.Ident)
		case *parse.DotNode:
			found = root
		case *parse.VariableNode:
			found = x.Ident[0] == "$" && reads(x.Ident[1:])
		case *parse.ChainNode:
			walk(x.Node, root)
		case *parse.IfNode:
			walk(x.Pipe, root)
			walk(x.List, root)
			walk(x.ElseList, root)
		case *parse.RangeNode:
			// (dot is an element in the body, the data again in else)
			walk(x.Pipe, root)
			walk(x.List, false)
			walk(x.ElseList, root)
		case *parse.WithNode:
			walk(x.Pipe, root)
			walk(x.List, false)
			walk(x.ElseList, root)
		case *parse.TemplateNode:
			found = true
		}
	}
	for _, tr := range t.trees {
		walk(tr.Root, tr == t.tree)
	}
	return found
}
