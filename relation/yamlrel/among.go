package yamlrel

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"text/template/parse"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// listRef is the list binding that among names (of a choice, of
// for_each). It is written as a template of one field, '{{.E.names}}', or
// of index over a field with fields and quoted keys, '{{index .tables
// .w}}', whose value (not its text) is the list. A dotted path (E.names)
// and a template rendering one ('tables.{{.w}}') are its old spellings.
type listRef struct {
	src   string
	str   yamlpos.String // as written, for the resolve pass
	path  string         // the field, or index's first argument, as a dotted path
	keys  []parse.Node   // index's other arguments: fields and strings
	t     *tmpl          // the template as written (none for a dotted path)
	pathT *tmpl          // old spelling: a template rendering a dotted path
}

// amongYAML is the value of among: a string that warns, when decoded,
// of an old spelling.
type amongYAML struct{ yamlpos.String }

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (a *amongYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if err := a.String.UnmarshalYAML(ctx, n); err != nil {
		return err
	}
	if _, _, ok := valueTemplate(a.Value); !ok && strings.TrimSpace(a.Value) != "" {
		yamlpos.Warn(ctx, a.Pos, yamlpos.Deprecated("among: "+a.Value, amongSpelling(a.Value)))
	}
	return nil
}

var pathTemplateRE = regexp.MustCompile(`^([A-Za-z_][\w.]*)\.\{\{\s*(\.[A-Za-z_][\w.]*)\s*\}\}$`)

// amongSpelling is the template an old spelling of among is written as.
func amongSpelling(old string) string {
	if m := pathTemplateRE.FindStringSubmatch(old); m != nil {
		return fmt.Sprintf("'{{index .%s %s}}'", m[1], m[2])
	}
	if !strings.Contains(old, "{{") {
		return "'{{." + old + "}}'"
	}
	return "a template of the list, '{{.X}}' or '{{index .X .k}}'"
}

// valueTemplate tells whether src is a template among takes the value
// of: {{.a.b}}, or {{index .a K…}} with each K a field or a string; it
// returns the field as a dotted path and the keys.
func valueTemplate(src string) (path string, keys []parse.Node, ok bool) {
	if !strings.Contains(src, "{{") {
		return "", nil, false
	}
	trees, err := parseTrees("", src)
	if err != nil || len(trees[""].Root.Nodes) != 1 {
		return "", nil, false
	}
	a, isAction := trees[""].Root.Nodes[0].(*parse.ActionNode)
	if !isAction || len(a.Pipe.Decl) > 0 || len(a.Pipe.Cmds) != 1 {
		return "", nil, false
	}
	args := a.Pipe.Cmds[0].Args
	if f, isField := args[0].(*parse.FieldNode); isField && len(args) == 1 {
		return strings.Join(f.Ident, "."), nil, true
	}
	if id, isIdent := args[0].(*parse.IdentifierNode); !isIdent || id.Ident != "index" || len(args) < 3 {
		return "", nil, false
	}
	f, isField := args[1].(*parse.FieldNode)
	if !isField {
		return "", nil, false
	}
	for _, k := range args[2:] {
		switch k.(type) {
		case *parse.FieldNode, *parse.StringNode:
		default:
			return "", nil, false
		}
	}
	return strings.Join(f.Ident, "."), args[2:], true
}

// compileAmong compiles the value of among.
func compileAmong(u *unit, s yamlpos.String) (listRef, error) {
	r := listRef{src: s.Value, str: s, path: s.Value}
	if !strings.Contains(s.Value, "{{") {
		return r, nil
	}
	t, err := u.template(s)
	if err != nil {
		return r, err
	}
	r.t = t
	var ok bool
	if r.path, r.keys, ok = valueTemplate(s.Value); !ok {
		r.pathT = t
	}
	return r, nil
}

// resolve is the value of the binding, and how it was named.
func (r listRef) resolve(ctx context.Context, data map[string]any) (any, string, error) {
	if r.pathT != nil {
		path, err := r.pathT.render(ctx, data)
		if err != nil {
			return nil, "", err
		}
		v, err := lookup(data, path)
		return v, path, err
	}
	v, err := lookup(data, r.path)
	if err != nil {
		return nil, r.src, err
	}
	for _, k := range r.keys {
		var key string
		switch k := k.(type) {
		case *parse.StringNode:
			key = k.Text
		case *parse.FieldNode:
			kv, err := lookup(data, strings.Join(k.Ident, "."))
			if err != nil {
				return nil, r.src, err
			}
			s, isString := kv.(string)
			if !isString {
				return nil, r.src, fmt.Errorf("%s: the key %s is not a string", r.src, k)
			}
			key = s
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, r.src, fmt.Errorf("%s: cannot index a %T", r.src, v)
		}
		if v, isMap = m[key]; !isMap {
			return nil, r.src, fmt.Errorf("%s: no %q", r.src, key)
		}
	}
	return v, r.src, nil
}
