// Package gorel shows the Go API of relations: MR2 of the CLL catalogue
// (add an actuator command) written in Go instead of YAML. A Go relation is
// a relation.Relation value — a name, a doc whose first line is its help
// line, a function listing the spots of an input and a function applying the
// mutation at one spot — whose follow-up carries consistency checkers built
// from the oracle package. It finds its spots in the syntax tree that the
// CLL seed grammar reads (packages grammar and syntax): the gaps of the
// declarations list, whatever the program's layout, and the new command
// takes the indentation of its neighbours. An mcpt built with it (mcpt.Main with
// mcpt.Relations(gorel.AddCommand()), as in gorel/mcpt) lets a
// configuration name it under relations.go.
package gorel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/mcpt-tool/mcpt/examples/cll"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
)

// Name is the name of the relation.
const Name = "add-actuator-command-go"

var fresh = mustPattern("Zq[a-z]{6}")

// parser reads CLL programs with the CLL example's seed grammar.
var parser = sync.OnceValues(func() (syntax.Parser, error) {
	g, err := grammar.Parse("cll.grammar", cll.Grammar)
	if err != nil {
		return nil, err
	}
	return grammar.NewParser(g), nil
})

func mustPattern(p string) *relation.FreshPattern {
	fp, err := relation.ParseFreshPattern(p)
	if err != nil {
		panic(err)
	}
	return fp
}

// AddCommand returns the relation.
func AddCommand() *relation.Relation {
	return &relation.Relation{
		Name: Name,
		Doc: `MR2 in Go: an actuator command inserted at a declaration boundary adds one prototype, in order, to p_io.h only.
The same relation as the YAML add-actuator-command, written with the Go API.`,
		Spots:  spots,
		Mutate: mutate,
		Source: "github.com/mcpt-tool/mcpt/examples/cll/gorel",
	}
}

// boundary is a spot with what the checkers need: the spot in the list of
// declarations, and the command declared last above it.
type boundary struct {
	spot        syntax.Spot
	prevCommand string
}

// boundaries finds the spots of the declarations list in the syntax tree of
// the program (package syntax): before its first declaration, between two,
// after the last, whatever the layout of the program.
func boundaries(in relation.Input) (logic string, bs []boundary, err error) {
	p, err := parser()
	if err != nil {
		return "", nil, err
	}
	tr, err := p.Parse(in.Name, in.Src)
	if err != nil {
		return "", nil, err
	}
	for _, c := range tr.Root.Children[0].Children {
		if c.Kind == "logic" && c.Named {
			logic = c.Text(tr.Src)
		}
	}
	// the declarations section: the body of the program, whose members are
	// the declarations (a variable before its enumeration among them)
	lists := syntax.Lists(tr, syntax.ListSpec{Lists: []string{"body"}, Members: []string{"forward", "states", "decl"}})
	if len(lists) != 1 {
		return "", nil, fmt.Errorf("%s: %d declarations sections", in.Name, len(lists))
	}
	prev := ""
	for _, sp := range lists[0].Spots() {
		if d := sp.Before; d != nil {
			syntax.Walk(d.Node, func(n *syntax.Node) bool {
				if n.Kind == "command" && n.Named {
					prev = n.Text(tr.Src)
				}
				return true
			})
		}
		bs = append(bs, boundary{spot: sp, prevCommand: prev})
	}
	return logic, bs, nil
}

func spots(_ context.Context, in relation.Input) ([]relation.Spot, error) {
	_, bs, err := boundaries(in)
	if err != nil {
		return nil, err
	}
	out := make([]relation.Spot, len(bs))
	for i, b := range bs {
		off := b.spot.Insert("").Start
		line, col := syntax.Position(in.Src, off)
		out[i] = relation.Spot{Index: i, Line: line, Col: col, Desc: b.spot.Desc}
	}
	return out, nil
}

func mutate(_ context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	logic, bs, err := boundaries(in)
	if err != nil {
		return nil, err
	}
	if sp.Index < 0 || sp.Index >= len(bs) || logic == "" {
		return nil, fmt.Errorf("%s: no spot %d", in.Name, sp.Index)
	}
	b := bs[sp.Index]
	n, err := fresh.Fresh(rng, in.Src, map[string]bool{})
	if err != nil {
		return nil, err
	}
	// the new declaration laid out as its neighbours are
	followUp := b.spot.Insert("command " + n).Apply(in.Src)

	p, P := relation.Snake(logic), relation.Upper(logic)
	file := p + "_io.h"
	anchors := []oracle.Anchor{{Path: []oracle.Matcher{{Text: "#define " + P + "_IO_H"}, {Text: ""}}}}
	if b.prevCommand != "" {
		prev := oracle.Anchor{Path: []oracle.Matcher{{Text: fmt.Sprintf("void %s_cmd_%s(void);", p, relation.Snake(b.prevCommand))}}}
		anchors = append([]oracle.Anchor{prev}, anchors...)
	}
	return &relation.FollowUp{
		Src:      followUp,
		Bindings: map[string]string{"N": n, "prev.command": b.prevCommand, "p": p},
		Fresh:    []string{"N"},
		Checks: []relation.Checker{
			&oracle.Equivalence{Except: []string{file}},
			&oracle.Difference{Name: "io-header", File: file, Edits: []oracle.Edit{{
				Op:      oracle.Insert,
				Lines:   []string{fmt.Sprintf("void %s_cmd_%s(void);", p, relation.Snake(n))},
				Anchors: anchors,
			}}},
		},
	}, nil
}
