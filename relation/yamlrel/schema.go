package yamlrel

import (
	"context"
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/config"
)

// fileYAML is one relation file. Definitions (regions, kinds, captures,
// lets, the fresh-name pattern) may live in a file of their own that
// relation files include.
type fileYAML struct {
	Include   []config.String                       `yaml:"include"`
	Syntax    *config.String                        `yaml:"syntax"`
	Fresh     *config.String                        `yaml:"fresh"`
	Skip      *config.String                        `yaml:"skip"`
	Captures  map[string]config.String              `yaml:"captures"`
	Let       []map[string]config.String            `yaml:"let"`
	Regions   map[string]regionYAML                 `yaml:"regions"`
	Kinds     map[string]kindYAML                   `yaml:"kinds"`
	Tables    map[string][]map[string]config.String `yaml:"tables"`
	Relations []relYAML                             `yaml:"relations"`
}

// regionYAML is a region: the lines from a from line to a to line, or, with
// whole, the whole input (its boundaries start at the first line), or, with
// list, the nodes of those kinds in the syntax tree of the input (tree.go).
type regionYAML struct {
	From  config.String  `yaml:"from"`
	To    config.String  `yaml:"to"`
	Whole *config.String `yaml:"whole"` // true

	List        []config.String `yaml:"list"`
	Header      *config.String  `yaml:"header"`
	Except      *config.String  `yaml:"except"`
	Members     []config.String `yaml:"members"`
	Comments    []config.String `yaml:"comments"`
	Annotations []config.String `yaml:"annotations"`
}

type kindYAML struct {
	Region config.String  `yaml:"region"`
	Match  config.String  `yaml:"match"`
	List   *config.String `yaml:"list"`
	Sep    *config.String `yaml:"sep"`
	// Node names the member node types the kind takes, in a tree region.
	Node []config.String `yaml:"node"`
	// Let computes attributes of each declaration (see itemLets).
	Let []map[string]config.String `yaml:"let"`
}

type relYAML struct {
	Name       config.String              `yaml:"name"`
	Doc        config.String              `yaml:"doc"`
	Spots      spotsYAML                  `yaml:"spots"`
	Fresh      []config.String            `yaml:"fresh"`
	FreshLists []freshListYAML            `yaml:"fresh_lists"`
	Choose     []chooseYAML               `yaml:"choose"`
	Let        []map[string]config.String `yaml:"let"`
	Insert     config.String              `yaml:"insert"`
	Clone      *cloneYAML                 `yaml:"clone"`
	Declare    *declareYAML               `yaml:"declare"`
	Checks     []checkYAML                `yaml:"checks"`
}

type spotsYAML struct {
	Boundaries *config.String  `yaml:"boundaries"`
	Lists      []listSpotYAML  `yaml:"lists"`
	When       *config.String  `yaml:"when"`
	Except     []config.String `yaml:"except"`
}

type listSpotYAML struct {
	Kind config.String              `yaml:"kind"`
	Join *config.String             `yaml:"join"`
	Let  []map[string]config.String `yaml:"let"`
}

// cloneYAML inserts a copy of the member next to a spot of a tree region
// (the one before it, else the one after) with the name name and, when
// value is given, that value in the member's value field.
type cloneYAML struct {
	Name  config.String  `yaml:"name"`
	Value *config.String `yaml:"value"`
}

type freshListYAML struct {
	Name config.String `yaml:"name"`
	Min  int           `yaml:"min"`
	Max  int           `yaml:"max"`
}

type chooseYAML struct {
	Name    config.String   `yaml:"name"`
	From    *config.String  `yaml:"from"`
	Among   *config.String  `yaml:"among"`
	Options []config.String `yaml:"options"`
}

type checkYAML struct {
	Equivalence *equivYAML    `yaml:"equivalence"`
	Difference  *diffYAML     `yaml:"difference"`
	Created     *createdYAML  `yaml:"created"`
	Locality    *localityYAML `yaml:"locality"`
	Order       *orderYAML    `yaml:"order"`
	Analogy     *analogyYAML  `yaml:"analogy"`
	Blocks      *blocksYAML   `yaml:"blocks"`
}

type equivYAML struct {
	Name   *config.String  `yaml:"name"`
	Except []config.String `yaml:"except"`
}

type diffYAML struct {
	Name  *config.String `yaml:"name"`
	File  config.String  `yaml:"file"`
	Read  []readYAML     `yaml:"read"`
	Edits []editYAML     `yaml:"edits"`
}

// readYAML reads a value from the base output o: the first group of the
// last matcher of a path, on the line the path finds in file (by default
// the difference check's file).
type readYAML struct {
	Name config.String  `yaml:"name"`
	File *config.String `yaml:"file"`
	At   []matcherYAML  `yaml:"at"`
	In   *config.String `yaml:"in"` // o (the default) or o2, the follow-up's output
}

// forEachYAML repeats an edit once per element of a list binding (a dotted
// path, or a template rendering one), bound to as.
type forEachYAML struct {
	As    config.String `yaml:"as"`
	Among config.String `yaml:"among"`
}

type editYAML struct {
	Insert      *config.String `yaml:"insert"`
	Replace     *config.String `yaml:"replace"`
	Delete      bool           `yaml:"delete"`
	Substitute  *substYAML     `yaml:"substitute"`
	Renumber    *renumberYAML  `yaml:"renumber"`
	When        *config.String `yaml:"when"`
	ForEach     *forEachYAML   `yaml:"for_each"`
	BlankBefore bool           `yaml:"blank_before"`
	Where       []anchorYAML   `yaml:"where"`
	Through     []matcherYAML  `yaml:"through"`
}

type substYAML struct {
	Re   config.String `yaml:"re"`
	With config.String `yaml:"with"`
}

type renumberYAML struct {
	Re config.String `yaml:"re"`
	By config.String `yaml:"by"`
}

type createdYAML struct {
	Name    *config.String `yaml:"name"`
	File    config.String  `yaml:"file"`
	Content config.String  `yaml:"content"`
}

// anchorYAML is one alternative placement of an edit: the line found by the
// path of matchers given as after, before (inserts) or at (replace, delete),
// tried only when its when-template renders non-empty.
type anchorYAML struct {
	When   *config.String `yaml:"when"`
	End    bool           `yaml:"end"`
	After  []matcherYAML  `yaml:"after"`
	Before []matcherYAML  `yaml:"before"`
	At     []matcherYAML  `yaml:"at"`
}

// matcherYAML is a line matcher: a plain string matches a line exactly
// (white space around it ignored); {re: '…'} matches by regular expression.
type matcherYAML struct {
	Text config.String
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
	return config.Errorf(config.PosOf(ctx, n), "%s", msg)
}
