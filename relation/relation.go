// Package relation defines MCP metamorphic relations: a mutation operator
// that finds the spots of an input and applies one mutation at a spot, plus
// the consistency checkers that the pair of outputs must satisfy. Relations
// are plain values; a Registry holds a validated set of them, whether written
// in Go or compiled from YAML.
package relation

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// Input is a program given to a mutation operator, with what the
// transpiler runs it under: its release and the test case's flags, which
// a relation may predict by (tsc writes class fields otherwise before
// 4.0, or under useDefineForClassFields=false).
type Input struct {
	Name string // file name, such as "traffic.cll"
	Src  []byte
	// Release is the transpiler's release as its version command prints
	// it (5.9.3, v1.36.12); "" when the campaign does not know it.
	Release string
	// Flags is the test case's combination of flags: dimension → value
	// name (target → es2022); nil when the campaign has no flags.
	Flags map[string]string
}

// Spot is a place in an input where the mutation operator can be applied.
type Spot struct {
	Index int    // position in the list of spots of the input
	Line  int    // 1-based line of the spot in the input
	Col   int    // 1-based column
	Desc  string // for people: "after timer Delay", "between Red and Green"
	// Kind names the kind of place the spot is in (the kind of list, the
	// region), "" when the relation does not tell its spots apart; a
	// campaign weighs its picks by seed, relation and spot kind.
	Kind string
}

// FollowUp is the result of a mutation: the follow-up input and the bindings
// the checkers are instantiated with (the fresh names, the neighbours, the
// captured context).
type FollowUp struct {
	Src      []byte
	Bindings map[string]string
	// Fresh names the bindings that hold fresh names (ones the seed does
	// not have), one name or a list joined with ", ": the output lines that
	// carry them belong to the inserted declaration, which groups findings
	// by what happened to it.
	Fresh []string
	// Checks are the consistency checkers instantiated for this follow-up.
	Checks []Checker
}

// Checker is a consistency checker instantiated for one test case.
type Checker interface {
	Check(o, o2 tree.Tree) []oracle.Failure
}

// Relation is an MCP metamorphic relation.
type Relation struct {
	// Name identifies the relation, in kebab case.
	Name string
	// Doc describes the relation; its first line is its help line.
	Doc string
	// Spots lists every spot of the input where Mutate can be applied.
	// It stops with ctx's error when ctx is done.
	Spots func(ctx context.Context, in Input) ([]Spot, error)
	// Mutate applies the mutation at spot, drawing every random choice (fresh
	// names, picks among captured names) from rng, and returns the follow-up
	// with its instantiated checkers. The same input, spot and rng state give
	// the same follow-up. It stops with ctx's error when ctx is done (the
	// campaign stopped by a signal or out of time): a relation that runs
	// user code, such as templates, checks ctx as it goes.
	Mutate func(ctx context.Context, in Input, spot Spot, rng *rand.Rand) (*FollowUp, error)
	// Source says where the relation was defined ("file.yaml:3:5" or a Go package).
	Source string
	// Holds, when set, returns the first kind of syntax node that the
	// relation's spots are made of and that the input has ("" when it has
	// none), so that a seed with no spot though it has such nodes can be
	// told from one without: nil for a relation that cannot tell (one on
	// line regexps).
	Holds func(ctx context.Context, in Input) (string, error)
	// Supports, when set, is what the relation's pack says it holds for:
	// the releases of the transpiler and the values of its flags. A
	// campaign outside them stops before any test case.
	Supports *Supports
}

// Summary is the first line of Doc.
func (r *Relation) Summary() string {
	line, _, _ := strings.Cut(strings.TrimSpace(r.Doc), "\n")
	return line
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Validate checks that the relation is complete.
func (r *Relation) Validate() error {
	var errs []error
	if !nameRE.MatchString(r.Name) {
		errs = append(errs, fmt.Errorf("relation name %q is not kebab case", r.Name))
	}
	if strings.TrimSpace(r.Doc) == "" {
		errs = append(errs, fmt.Errorf("relation %s: no doc", r.Name))
	}
	if r.Spots == nil || r.Mutate == nil {
		errs = append(errs, fmt.Errorf("relation %s: needs both Spots and Mutate", r.Name))
	}
	return errors.Join(errs...)
}

// Registry is a validated set of relations with unique names.
type Registry struct {
	rels []*Relation
}

// Add validates r and adds it.
func (g *Registry) Add(r *Relation) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if old := g.Lookup(r.Name); old != nil {
		where := ""
		if old.Source != "" {
			where = " (first defined at " + old.Source + ")"
		}
		return fmt.Errorf("relation %s defined twice%s", r.Name, where)
	}
	g.rels = append(g.rels, r)
	return nil
}

// Lookup returns the relation named name, or nil.
func (g *Registry) Lookup(name string) *Relation {
	for _, r := range g.rels {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Names returns the names of the relations, sorted.
func (g *Registry) Names() []string {
	names := make([]string, len(g.rels))
	for i, r := range g.rels {
		names[i] = r.Name
	}
	slices.Sort(names)
	return names
}

// All returns the relations sorted by name.
func (g *Registry) All() []*Relation {
	out := slices.Clone(g.rels)
	slices.SortFunc(out, func(a, b *Relation) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Select returns the named relations, in the order given; an empty list
// selects all.
func (g *Registry) Select(names []string) ([]*Relation, error) {
	if len(names) == 0 {
		return g.All(), nil
	}
	var out []*Relation
	for _, n := range names {
		r := g.Lookup(n)
		if r == nil {
			return nil, fmt.Errorf("no relation named %q%s", n, suggest.DidYouMean(n, g.Names()))
		}
		out = append(out, r)
	}
	return out, nil
}

// Check runs every checker of the follow-up on the pair of outputs.
func (f *FollowUp) Check(o, o2 tree.Tree) []oracle.Failure {
	var fails []oracle.Failure
	for _, c := range f.Checks {
		fails = append(fails, c.Check(o, o2)...)
	}
	return fails
}
