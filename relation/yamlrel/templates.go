package yamlrel

// Templates, and the units that make them: every template of a load is
// made by the unit of the relation (or of the definitions) it belongs to,
// which registers it, with the names its checks bind, for the resolve pass.

import (
	"context"
	"text/template/parse"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// tmpl is a compiled template with the position it was written at, and
// the instances that evaluate it within the limits of bounds.go.
type tmpl struct {
	tree  *parse.Tree            // as parsed, to analyse
	trees map[string]*parse.Tree // and the templates it defines, by name (tree among them)
	pos   yamlpos.Pos
	src   string
	str   yamlpos.String // as written, to place an error inside it
	run   *instances
}

// A unit is what compiling one relation, or the definitions of a load,
// makes that the resolve pass checks: every template, registered as it is
// made (unit.template is the one maker of templates), the for_each items
// and the reads that bind names for the checks' templates, and the
// substitute edits, whose with sees the groups of its pattern.
type unit struct {
	tmpls []*tmpl
	each  []*forEach
	reads []readT
	withs []substitution
}

// substitution is a substitute edit's with and the pattern whose groups
// it sees (.match).
type substitution struct{ with, pattern *tmpl }

// template compiles the template s and registers it.
func (u *unit) template(s yamlpos.String) (*tmpl, error) {
	t, err := mkTmpl(s)
	if err != nil {
		return nil, err
	}
	u.tmpls = append(u.tmpls, t)
	return t, nil
}

// add registers what unit v made.
func (u *unit) add(v *unit) {
	u.tmpls = append(u.tmpls, v.tmpls...)
	u.each = append(u.each, v.each...)
	u.reads = append(u.reads, v.reads...)
	u.withs = append(u.withs, v.withs...)
}

// optTemplate compiles a template that may be absent (nil).
func (u *unit) optTemplate(s *yamlpos.String) (*tmpl, error) {
	if s == nil {
		return nil, nil
	}
	return u.template(*s)
}

// templates compiles the templates of a list.
func (u *unit) templates(srcs []yamlpos.String) ([]*tmpl, error) {
	var out []*tmpl
	for _, src := range srcs {
		t, err := u.template(src)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// parseTemplate parses the template s as text/template does with the
// template functions, without making a template of it: a template holds a
// copy of its functions (some 9 KB), which 10,000 relations of 20
// templates each would take 1.8 GB for. Its name is its position, as
// text/template's messages give it.
func parseTemplate(s yamlpos.String) (map[string]*parse.Tree, error) {
	trees, err := parseTrees(s.Pos.String(), s.Value)
	if err != nil {
		return nil, parseError(s, err)
	}
	return trees, nil
}

// parseTrees parses src as the template name, with the template
// functions.
func parseTrees(name, src string) (map[string]*parse.Tree, error) {
	return parse.Parse(name, src, "", "", parseFuncs)
}

// mkTmpl compiles the template s, registered nowhere: the package's code
// makes its templates through a unit (TestTemplatesMadeByUnits), tests
// through this.
func mkTmpl(s yamlpos.String) (*tmpl, error) {
	trees, err := parseTemplate(s)
	if err != nil {
		return nil, err
	}
	name := s.Pos.String()
	return &tmpl{tree: trees[name], trees: trees, pos: s.Pos, src: s.Value, str: s, run: &instances{name: name, src: s.Value}}, nil
}

// render evaluates the template on data, within the limits of one
// evaluation and until ctx is done; an error carries the position in the
// relation file of the action that failed, but for ctx's, which is
// returned as it is.
func (t *tmpl) render(ctx context.Context, data map[string]any) (string, error) {
	s, err := t.run.execute(ctx, data)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", t.execError(err)
	}
	return s, nil
}
