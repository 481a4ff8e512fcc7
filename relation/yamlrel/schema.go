package yamlrel

import (
	"context"
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// fileYAML is one relation file. Definitions (regions, kinds, captures,
// lets, the fresh-name pattern) may live in a file of their own that
// relation files include.
type fileYAML struct {
	Include   []yamlpos.String                       `yaml:"include"`
	Syntax    *yamlpos.String                        `yaml:"syntax"`
	Fresh     *yamlpos.String                        `yaml:"fresh_pattern" was:"fresh"`
	Skip      *yamlpos.String                        `yaml:"skip"`
	Captures  map[string]yamlpos.String              `yaml:"captures"`
	Let       []map[string]yamlpos.String            `yaml:"let"`
	Regions   map[string]regionYAML                  `yaml:"regions"`
	Kinds     map[string]kindYAML                    `yaml:"kinds"`
	Tables    map[string][]map[string]yamlpos.String `yaml:"tables"`
	Relations []relYAML                              `yaml:"relations"`
}

// regionYAML is a region: the lines from a from line to a to line, or, with
// whole, the whole input (its boundaries start at the first line), or, with
// list, the nodes of those kinds in the syntax tree of the input (tree.go).
type regionYAML struct {
	From  yamlpos.String  `yaml:"from"`
	To    yamlpos.String  `yaml:"to"`
	Whole *yamlpos.String `yaml:"whole"` // true

	List        []yamlpos.String `yaml:"list"`
	Header      *yamlpos.String  `yaml:"header"`
	Except      *yamlpos.String  `yaml:"except"`
	Members     []yamlpos.String `yaml:"members"`
	Comments    []yamlpos.String `yaml:"comments"`
	Annotations []yamlpos.String `yaml:"annotations"`
	Sep         *yamlpos.String  `yaml:"sep"`
}

type kindYAML struct {
	Region yamlpos.String  `yaml:"region"`
	Match  yamlpos.String  `yaml:"match"`
	List   *yamlpos.String `yaml:"list"`
	Sep    *yamlpos.String `yaml:"sep"`
	// Node names the member node types the kind takes, in a tree region.
	Node []yamlpos.String `yaml:"node"`
	// Let computes attributes of each declaration (see itemLets).
	Let []map[string]yamlpos.String `yaml:"let"`
}

type relYAML struct {
	Name       yamlpos.String              `yaml:"name"`
	Doc        yamlpos.String              `yaml:"doc"`
	Spots      spotsYAML                   `yaml:"spots"`
	Fresh      []yamlpos.String            `yaml:"fresh"`
	FreshLists []freshListYAML             `yaml:"fresh_lists"`
	Choose     []chooseYAML                `yaml:"choose"`
	Let        []map[string]yamlpos.String `yaml:"let"`
	Insert     yamlpos.String              `yaml:"text" was:"insert"`
	Clone      *cloneYAML                  `yaml:"clone"`
	Declare    *declareYAML                `yaml:"declare"`
	Checks     []checkYAML                 `yaml:"checks"`
}

type spotsYAML struct {
	Boundaries *yamlpos.String  `yaml:"boundaries"`
	Lists      []listSpotYAML   `yaml:"lists"`
	When       *yamlpos.String  `yaml:"only" was:"when"`
	Except     []yamlpos.String `yaml:"except"`
}

type listSpotYAML struct {
	Kind yamlpos.String              `yaml:"kind"`
	Join *yamlpos.String             `yaml:"join"`
	Let  []map[string]yamlpos.String `yaml:"let"`
}

// cloneYAML inserts a copy of the member next to a spot of a tree region
// (the one before it, else the one after) with the name name and, when
// value is given, that value in the member's value field.
type cloneYAML struct {
	Name  yamlpos.String  `yaml:"name"`
	Value *yamlpos.String `yaml:"value"`
}

type freshListYAML struct {
	Name yamlpos.String `yaml:"name"`
	Min  int            `yaml:"min"`
	Max  int            `yaml:"max"`
}

type chooseYAML struct {
	Name    yamlpos.String   `yaml:"name"`
	From    *yamlpos.String  `yaml:"kind" was:"from"`
	Among   *amongYAML       `yaml:"among"`
	Options []yamlpos.String `yaml:"options"`
}

type checkYAML struct {
	// When, when it renders empty (or false, 0), leaves the check out of
	// the test case.
	When        *yamlpos.String `yaml:"if" was:"when"`
	Equivalence *equivYAML      `yaml:"equivalence"`
	Difference  *diffYAML       `yaml:"difference"`
	Created     *createdYAML    `yaml:"created"`
	Locality    *localityYAML   `yaml:"locality"`
	Order       *orderYAML      `yaml:"order"`
	Analogy     *analogyYAML    `yaml:"analogy"`
	Blocks      *blocksYAML     `yaml:"blocks"`
	Go          *goCheckYAML    `yaml:"go"`
}

type equivYAML struct {
	Name   *yamlpos.String  `yaml:"name"`
	Except []yamlpos.String `yaml:"except"`
}

type diffYAML struct {
	Name  *yamlpos.String `yaml:"name"`
	File  yamlpos.String  `yaml:"file"`
	Read  []readYAML      `yaml:"read"`
	Edits []editYAML      `yaml:"edits"`
}

// readYAML reads a value from the base output o: the first group of the
// last matcher of a path, on the line the path finds in file (by default
// the difference check's file).
type readYAML struct {
	Name yamlpos.String  `yaml:"name"`
	File *yamlpos.String `yaml:"file"`
	At   []matcherYAML   `yaml:"at"`
	In   *yamlpos.String `yaml:"in"` // o (the default) or o2, the follow-up's output
}

// forEachYAML repeats an edit once per element of a list binding (a dotted
// path, or a template rendering one), bound to as.
type forEachYAML struct {
	As    yamlpos.String `yaml:"as"`
	Among amongYAML      `yaml:"among"`
}

type editYAML struct {
	Insert      *yamlpos.String `yaml:"insert"`
	Replace     *yamlpos.String `yaml:"replace"`
	Delete      bool            `yaml:"delete"`
	Substitute  *substYAML      `yaml:"substitute"`
	Renumber    *renumberYAML   `yaml:"renumber"`
	When        *yamlpos.String `yaml:"if" was:"when"`
	ForEach     *forEachYAML    `yaml:"for_each"`
	BlankBefore bool            `yaml:"blank_before"`
	Where       []anchorYAML    `yaml:"where"`
	Through     []matcherYAML   `yaml:"through"`
}

type substYAML struct {
	Re   yamlpos.String `yaml:"re"`
	With yamlpos.String `yaml:"with"`
}

type renumberYAML struct {
	Re yamlpos.String `yaml:"re"`
	By yamlpos.String `yaml:"by"`
}

type createdYAML struct {
	Name    *yamlpos.String `yaml:"name"`
	File    yamlpos.String  `yaml:"file"`
	Content yamlpos.String  `yaml:"content"`
}

// anchorYAML is one alternative placement of an edit: the line found by the
// path of matchers given as after, before (inserts) or at (replace, delete),
// tried only when its when-template renders non-empty.
type anchorYAML struct {
	When   *yamlpos.String `yaml:"if" was:"when"`
	End    bool            `yaml:"end"`
	After  []matcherYAML   `yaml:"after"`
	Before []matcherYAML   `yaml:"before"`
	At     []matcherYAML   `yaml:"at"`
}

// matcherYAML is a line matcher: a plain string matches a line exactly
// (white space around it ignored); {re: '…'} matches by regular expression.
type matcherYAML struct {
	Text yamlpos.String
	Re   bool
}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (m *matcherYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if mn, ok := n.(*ast.MappingNode); ok {
		if len(mn.Values) != 1 {
			return errAt(ctx, n, "a matcher is a string or {re: 'regexp'}")
		}
		kv := mn.Values[0]
		if kv.Key.String() != "re" {
			return errAt(ctx, kv.Key, fmt.Sprintf("unknown matcher %q (want re)", kv.Key.String()))
		}
		m.Re = true
		return m.Text.UnmarshalYAML(ctx, kv.Value)
	}
	if mv, ok := n.(*ast.MappingValueNode); ok {
		if mv.Key.String() != "re" {
			return errAt(ctx, mv.Key, fmt.Sprintf("unknown matcher %q (want re)", mv.Key.String()))
		}
		m.Re = true
		return m.Text.UnmarshalYAML(ctx, mv.Value)
	}
	return m.Text.UnmarshalYAML(ctx, n)
}

func errAt(ctx context.Context, n ast.Node, msg string) error {
	return yamlpos.Errorf(yamlpos.PosOf(ctx, n), "%s", msg)
}
