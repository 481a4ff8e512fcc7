// Package gorel shows the Go API of relations: MR2 of the CLL catalogue
// (add an actuator command) written in Go instead of YAML. A Go relation is
// a relation.Relation value — a name, a doc whose first line is its help
// line, a function listing the spots of an input and a function applying the
// mutation at one spot — whose follow-up carries consistency checkers built
// from the oracle package. An mcpt built with it (mcpt.Main with
// mcpt.Relations(gorel.AddCommand()), as in gorel/mcpt) lets a
// configuration name it under relations.go.
package gorel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

// Name is the name of the relation.
const Name = "add-actuator-command-go"

var (
	logicRE   = regexp.MustCompile(`^\s*logic\s+([A-Za-z][A-Za-z0-9_]*)`)
	declsRE   = regexp.MustCompile(`^\s*declarations\b`)
	initRE    = regexp.MustCompile(`^\s*init\b`)
	commandRE = regexp.MustCompile(`^\s*command\s+([A-Za-z0-9_,\s]*)`)
	declRE    = regexp.MustCompile(`^\s*(states|enumeration|command|configuration|variable|timer|input|attribute)\b`)
	fresh     = mustPattern("Zq[a-z]{6}")
)

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

// boundary is a spot with what the checkers need: where to insert, and the
// command declared last above it.
type boundary struct {
	offset      int
	prevCommand string
}

// boundaries finds the declaration boundaries of the declarations section.
func boundaries(src []byte) (logic string, bs []boundary, desc []string) {
	lines := strings.SplitAfter(string(src), "\n")
	off, in, prev := 0, false, ""
	for _, l := range lines {
		next := off + len(l)
		switch {
		case logic == "" && logicRE.MatchString(l):
			logic = logicRE.FindStringSubmatch(l)[1]
		case !in && declsRE.MatchString(l):
			in = true
			bs = append(bs, boundary{offset: next})
			desc = append(desc, "start of declarations")
		case in && initRE.MatchString(l):
			return logic, bs, desc
		case in && declRE.MatchString(l):
			if m := commandRE.FindStringSubmatch(l); m != nil {
				names := strings.Split(m[1], ",")
				prev = strings.TrimSpace(names[len(names)-1])
			}
			bs = append(bs, boundary{offset: next, prevCommand: prev})
			desc = append(desc, "after "+strings.TrimSpace(l))
		}
		off = next
	}
	return logic, bs, desc
}

func spots(in relation.Input) ([]relation.Spot, error) {
	_, bs, desc := boundaries(in.Src)
	out := make([]relation.Spot, len(bs))
	for i, b := range bs {
		out[i] = relation.Spot{Index: i, Line: 1 + bytes.Count(in.Src[:b.offset], []byte("\n")), Col: 1, Desc: desc[i]}
	}
	return out, nil
}

func mutate(in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	logic, bs, _ := boundaries(in.Src)
	if sp.Index < 0 || sp.Index >= len(bs) || logic == "" {
		return nil, fmt.Errorf("%s: no spot %d", in.Name, sp.Index)
	}
	b := bs[sp.Index]
	n, err := fresh.Fresh(rng, in.Src, map[string]bool{})
	if err != nil {
		return nil, err
	}
	var src bytes.Buffer
	src.Write(in.Src[:b.offset])
	fmt.Fprintf(&src, "  command %s\n", n)
	src.Write(in.Src[b.offset:])

	p, P := relation.Snake(logic), relation.Upper(logic)
	file := p + "_io.h"
	anchors := []oracle.Anchor{{Path: []oracle.Matcher{{Text: "#define " + P + "_IO_H"}, {Text: ""}}}}
	if b.prevCommand != "" {
		prev := oracle.Anchor{Path: []oracle.Matcher{{Text: fmt.Sprintf("void %s_cmd_%s(void);", p, relation.Snake(b.prevCommand))}}}
		anchors = append([]oracle.Anchor{prev}, anchors...)
	}
	return &relation.FollowUp{
		Src:      src.Bytes(),
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
