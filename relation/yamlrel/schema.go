package yamlrel

import (
	"context"
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/suggest"
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
	Numbers   *yamlpos.String                        `yaml:"numbers"`
	Captures  map[string]yamlpos.String              `yaml:"captures"`
	Let       []map[string]yamlpos.String            `yaml:"let"`
	Regions   map[string]regionYAML                  `yaml:"regions"`
	Kinds     map[string]kindYAML                    `yaml:"kinds"`
	Tables    map[string][]map[string]yamlpos.String `yaml:"tables"`
	Supports  *supportsYAML                          `yaml:"supports"`
	Relations []relYAML                              `yaml:"relations"`
}

// regionYAML is a region: the lines from a from line to a to line, or, with
// whole, the whole input (its boundaries start at the first line), or, with
// list, the nodes of those kinds in the syntax tree of the input
// (instantiatetree.go).
type regionYAML struct {
	From  yamlpos.String  `yaml:"from"`
	To    yamlpos.String  `yaml:"to"`
	Whole *yamlpos.String `yaml:"whole"` // true

	List        []yamlpos.String `yaml:"node" was:"list"`
	Header      *yamlpos.String  `yaml:"header"`
	Except      *yamlpos.String  `yaml:"except"`
	Members     []yamlpos.String `yaml:"members"`
	Comments    []yamlpos.String `yaml:"comments"`
	Annotations []yamlpos.String `yaml:"annotations"`
	Sep         *yamlpos.String  `yaml:"sep"`
	// Runs makes each run of members of a list node a list of its own
	// (the then and else bodies of an if statement).
	Runs *yamlpos.String `yaml:"runs"`
	// Labels name the lists of node types in spot descriptions (body:
	// declarations).
	Labels map[string]yamlpos.String `yaml:"labels"`
	// Outside names node types a list of the region may not lie in (a
	// namespace's body): such a list is no instance.
	Outside []yamlpos.String `yaml:"outside"`
}

type kindYAML struct {
	Region yamlpos.String  `yaml:"region"`
	Match  yamlpos.String  `yaml:"match"`
	List   *yamlpos.String `yaml:"list"`
	Sep    *yamlpos.String `yaml:"sep"`
	// Node names the member node types the kind takes, in a tree region.
	Node []yamlpos.String `yaml:"node"`
	// Fields take a declaration's attributes from its syntax tree instead
	// of a pattern: GROUP: [node types] (a quoted type, "String", is a
	// keyword: an anonymous node of that text).
	Fields map[string][]yamlpos.String `yaml:"fields"`
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
	When       *yamlpos.String  `yaml:"if" was:"when only"`
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
	// Kind, when given, copies the nearest declaration of that kind
	// instead of the neighbour.
	Kind *yamlpos.String `yaml:"kind"`
	// From is nearest (the member nearest the spot) or before (the
	// nearest before it).
	From *yamlpos.String `yaml:"from"`
	// Unless is a pattern of the members not copied.
	Unless *yamlpos.String `yaml:"except" was:"unless"`
	// Inner is fresh (every name declared inside the copy renamed) or
	// kept.
	Inner *yamlpos.String `yaml:"inner"`
	// Numbers are the numbers of the copy taken fresh.
	Numbers []cloneNumberYAML `yaml:"numbers"`
	pos     yamlpos.Pos       // of the mapping, for what it lacks
}

// cloneNumberYAML says where a declaration of a copy has a number taken
// fresh.
type cloneNumberYAML struct {
	Node      yamlpos.String `yaml:"node"`
	In        yamlpos.String `yaml:"in"`
	KeepFirst bool           `yaml:"keep_first"`
	Ascending bool           `yaml:"ascending"`
	pos       yamlpos.Pos
}

// decodeCloneNumbers reads the numbers of a clone: a sequence of
// mappings {node, in, keep_first, ascending}.
func decodeCloneNumbers(ctx context.Context, n ast.Node) ([]cloneNumberYAML, error) {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return nil, errAt(ctx, n, "numbers is a list: [{node: field, in: field_id}, …]")
	}
	var out []cloneNumberYAML
	keys := []string{"node", "in", "keep_first", "ascending"}
	for _, v := range seq.Values {
		m, ok := v.(ast.MapNode)
		if !ok {
			return nil, errAt(ctx, v, "a number is a mapping: {node: field, in: field_id}")
		}
		c := cloneNumberYAML{pos: yamlpos.PosOf(ctx, v)}
		seen := map[string]bool{}
		for it := m.MapRange(); it.Next(); {
			key := it.Key().String()
			if seen[key] {
				return nil, errAt(ctx, it.Key(), key+" given twice")
			}
			seen[key] = true
			var err error
			switch key {
			case "node":
				err = c.Node.UnmarshalYAML(ctx, it.Value())
			case "in":
				err = c.In.UnmarshalYAML(ctx, it.Value())
			case "keep_first", "ascending":
				var b yamlpos.String
				if err = b.UnmarshalYAML(ctx, it.Value()); err == nil {
					if b.Value != "true" && b.Value != "false" {
						return nil, b.At("%s is true or false, found %q", key, b.Value)
					}
					if key == "keep_first" {
						c.KeepFirst = b.Value == "true"
					} else {
						c.Ascending = b.Value == "true"
					}
				}
			default:
				err = errAt(ctx, it.Key(), fmt.Sprintf("unknown field %q%s", key, suggest.DidYouMean(key, keys)))
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (c *cloneYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	c.pos = yamlpos.PosOf(ctx, n)
	m, ok := n.(ast.MapNode)
	if !ok {
		return errAt(ctx, n, "clone is a mapping: {name: '{{.n}}', value: …}")
	}
	seen := map[string]bool{}
	for it := m.MapRange(); it.Next(); {
		key := it.Key().String()
		if len(seen) == 0 { // a block mapping's token is its first colon
			c.pos = yamlpos.PosOf(ctx, it.Key())
		}
		if key == "unless" { // its old name
			yamlpos.Warn(ctx, yamlpos.PosOf(ctx, it.Key()), yamlpos.Deprecated("unless", "except"))
			key = "except"
		}
		if seen[key] {
			return errAt(ctx, it.Key(), key+" given twice")
		}
		seen[key] = true
		var err error
		switch key {
		case "name":
			err = c.Name.UnmarshalYAML(ctx, it.Value())
		case "value":
			c.Value = &yamlpos.String{}
			err = c.Value.UnmarshalYAML(ctx, it.Value())
		case "kind":
			c.Kind = &yamlpos.String{}
			err = c.Kind.UnmarshalYAML(ctx, it.Value())
		case "inner":
			c.Inner = &yamlpos.String{}
			err = c.Inner.UnmarshalYAML(ctx, it.Value())
		case "from":
			c.From = &yamlpos.String{}
			err = c.From.UnmarshalYAML(ctx, it.Value())
		case "except":
			c.Unless = &yamlpos.String{}
			err = c.Unless.UnmarshalYAML(ctx, it.Value())
		case "numbers":
			c.Numbers, err = decodeCloneNumbers(ctx, it.Value())
		default:
			err = errAt(ctx, it.Key(), fmt.Sprintf("unknown field %q%s", key, suggest.DidYouMean(key, []string{"name", "value", "kind", "from", "except", "inner", "numbers"})))
		}
		if err != nil {
			return err
		}
	}
	return nil
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
