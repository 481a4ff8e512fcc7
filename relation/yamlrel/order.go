package yamlrel

import (
	"context"
	"fmt"
	"regexp"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var orderKind = CheckerKind{
	Name: "order",
	Doc: "Each line of o′ that mentions the new name sits between the lines of its neighbours' names, as its declaration does in the input (derived).\n" +
		"forms, files: as locality; prev, next: the neighbours (templates), derived from the spot when absent; places, not_places: the places checked, left out (patterns); ignore: lines of o′ left out (pattern on the whole line); unique: neighbours the input mentions once only.",
	New: newOrder,
}

type orderYAML struct {
	Name   *String     `yaml:"name"`
	Forms  []String    `yaml:"forms"`
	Files  []String    `yaml:"files"`
	Before *String     `yaml:"prev" was:"before"`
	After  *String     `yaml:"next" was:"after"`
	Places *placesYAML `yaml:"places"`
	Unique bool        `yaml:"unique"`
	// NotPlaces leaves places out.
	NotPlaces *placesYAML `yaml:"not_places"`
	// Ignore leaves lines out, by their whole text.
	Ignore *String `yaml:"ignore"`
}

type orderT struct {
	*derived
	places    *regexp.Regexp // the places checked
	unique    bool           // neighbours the input mentions once only
	notPlaces *regexp.Regexp // the places left out
	ignore    *regexp.Regexp // the lines of o′ left out
	before    *tmpl          // the neighbours, when not derived
	after     *tmpl
}

func newOrder(spec *Spec) (Check, error) {
	var o orderYAML
	if err := spec.Decode(&o); err != nil {
		return nil, err
	}
	d, err := newDerived(spec.unit(), "order", spec.name(o.Name), o.Forms, o.Files)
	if err != nil {
		return nil, err
	}
	c := &orderT{derived: d, unique: o.Unique}
	if o.Places != nil {
		if c.places, err = compileRE(o.Places.String); err != nil {
			return nil, err
		}
	}
	if o.NotPlaces != nil {
		if c.notPlaces, err = compileRE(o.NotPlaces.String); err != nil {
			return nil, err
		}
	}
	if o.Ignore != nil {
		if c.ignore, err = compileRE(*o.Ignore); err != nil {
			return nil, err
		}
	}
	if (o.Before == nil) != (o.After == nil) {
		at := o.Before
		if at == nil {
			at = o.After
		}
		return nil, at.At("order: give both prev and next, or neither (derived from the spot)")
	}
	if c.before, err = spec.unit().optTemplate(o.Before); err != nil {
		return nil, err
	}
	if c.after, err = spec.unit().optTemplate(o.After); err != nil {
		return nil, err
	}
	return c, nil
}

// placesYAML is the value of places and not_places: a pattern of places
// that warns, when decoded, of an alternative no place can match (a place
// is the indentation and the word that holds the name, not the line: see
// oracle.DeadPlaceAlternatives), at the alternative's position. Such an
// alternative selects nothing, as before: it loads, as the packs and the
// bundles written with it do.
type placesYAML struct{ yamlpos.String }

// deadPlaces holds the dead alternatives of each pattern of places met:
// a pattern shared by many checks (an alias) is decided once.
var deadPlaces sync.Map // pattern → []oracle.Alternative

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (p *placesYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if err := p.String.UnmarshalYAML(ctx, n); err != nil {
		return err
	}
	dead, ok := deadPlaces.Load(p.Value)
	if !ok {
		dead, _ = deadPlaces.LoadOrStore(p.Value, oracle.DeadPlaceAlternatives(p.Value))
	}
	for _, a := range dead.([]oracle.Alternative) {
		yamlpos.Warn(ctx, p.PosAt(a.Offset), fmt.Sprintf("%q matches no place (the indentation and the word that holds the name, as @, numbers as #: nothing after the word), and selects nothing; ignore leaves out lines by their text", a.Text))
	}
	return nil
}

func (c *orderT) Checker(mu *Mutation) (relation.Checker, error) {
	files, err := mu.renderAll(c.files)
	if err != nil {
		return nil, err
	}
	nd := mu.inserted()
	prev, next := nd.prev, nd.next
	if c.before != nil {
		if prev, err = mu.render(c.before); err != nil {
			return nil, err
		}
		if next, err = mu.render(c.after); err != nil {
			return nil, err
		}
	}
	newName := ""
	if len(nd.names) > 0 {
		newName = nd.names[0]
	}
	// A neighbour whose name the input declares twice (fields of two
	// structs) cannot be told apart from its namesake at a place: only
	// its line in the new line's block counts (shared).
	// A neighbour named by a word of the generator's (signature.generic)
	// cannot be told from that word: none.
	if c.unique && prev != "" && !mentionedOnce(mu.m.src, prev) || isGeneric(mu.r.d.generic, prev) {
		prev = ""
	}
	if c.unique && next != "" && !mentionedOnce(mu.m.src, next) || isGeneric(mu.r.d.generic, next) {
		next = ""
	}
	return &oracle.Order{Name: c.name, New: c.name1(newName), Prev: c.declaredName(mu, prev), Next: c.declaredName(mu, next), Others: c.others(mu), Files: files, Places: c.places, NotPlaces: c.notPlaces, Ignore: c.ignore,
		PrevShared: declaredTwice(mu.m, prev), NextShared: declaredTwice(mu.m, next)}, nil
}

// declaredTwice reports whether more than one declaration of the input
// has the name.
func declaredTwice(m *model, name string) bool {
	if name == "" {
		return false
	}
	n := 0
	for _, ds := range m.decls {
		for _, dc := range ds {
			if dc.kind.named && dc.name == name {
				n++
			}
			for _, x := range dc.names {
				if x == name {
					n++
				}
			}
		}
	}
	return n > 1
}
