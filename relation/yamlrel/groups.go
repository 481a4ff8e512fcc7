package yamlrel

// The groups of a substitute's pattern, which its with refers to as
// bindings: with is rendered once per match, .match holding the match's
// named groups, and its text is the replacement as it is (a $ that a
// binding renders is a $). regexp's own spelling, $1, ${1}, $name and $$
// in with's text, is the old one: it loads as index .match "1" would, with
// a warning at the reference that names the template to write.

import (
	"context"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"text/template/parse"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// withYAML is the value of a substitute's with: a template that warns,
// when decoded, of the old spelling of a group.
type withYAML struct{ yamlpos.String }

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (w *withYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if err := w.String.UnmarshalYAML(ctx, n); err != nil {
		return err
	}
	if !strings.Contains(w.Value, "$") {
		return nil
	}
	trees, err := parseTrees("", w.Value)
	if err != nil {
		return nil // the template's error is reported when it compiles
	}
	eachText(trees[""].Root, func(x *parse.TextNode) {
		for _, m := range groupRefRE.FindAllSubmatchIndex(x.Text, -1) {
			ref := string(x.Text[m[0]:m[1]])
			yamlpos.Warn(ctx, w.PosAt(int(x.Pos)+m[0]), yamlpos.Deprecated(ref, refSpelling(ref, groupKey(x.Text, m))))
		}
	})
	return nil
}

// groupRefRE matches what regexp's Expand reads as a group in a
// replacement: $$ (a $), $name and ${name}, a name of letters, digits and
// underscores (a number is the group of that number).
var groupRefRE = regexp.MustCompile(`\$(?:\$|\{(\w+)\}|(\w+))`)

// groupKey is the key in .match of the reference m (groupRefRE's
// submatch indices) in text: "" for $$.
func groupKey(text []byte, m []int) string {
	name := ""
	for g := 1; g <= 2; g++ {
		if m[2*g] >= 0 {
			name = string(text[m[2*g]:m[2*g+1]])
		}
	}
	if n, err := strconv.Atoi(name); err == nil && strings.Trim(name, "0123456789") == "" {
		return strconv.Itoa(n)
	}
	return name
}

// refSpelling is how the reference ref to the group key is written now.
func refSpelling(ref, key string) string {
	switch {
	case key == "":
		return "$"
	case key == "0":
		return "{{.match.NAME}}, naming the whole of re (?P<NAME>…)"
	case strings.Trim(key, "0123456789") == "":
		return "{{.match.NAME}}, naming group " + key + " of re (?P<NAME>…)"
	}
	return "{{.match." + key + "}}"
}

// eachText calls f with every text node under n.
func eachText(n parse.Node, f func(*parse.TextNode)) {
	walk(n, func(n parse.Node) {
		if x, ok := n.(*parse.TextNode); ok {
			f(x)
		}
	})
}

// expandRefs rewrites the references to groups in the text of the parse
// tree tr, the old spelling of with, to what they mean: $$ to a $, a
// group to index $.match KEY (empty for a group the match has not, as
// regexp's expansion has it).
func expandRefs(tr *parse.Tree, root parse.Node) {
	walk(root, func(n parse.Node) {
		x, ok := n.(*parse.ListNode)
		if !ok {
			return
		}
		var out []parse.Node
		for _, c := range x.Nodes {
			if t, isText := c.(*parse.TextNode); isText {
				out = append(out, splitRefs(tr, t)...)
			} else {
				out = append(out, c)
			}
		}
		x.Nodes = out
	})
}

// splitRefs is the text node t as text and actions, one per reference.
func splitRefs(tr *parse.Tree, t *parse.TextNode) []parse.Node {
	ms := groupRefRE.FindAllSubmatchIndex(t.Text, -1)
	if ms == nil {
		return []parse.Node{t}
	}
	var out []parse.Node
	text := func(s []byte) {
		if len(s) > 0 {
			out = append(out, &parse.TextNode{NodeType: parse.NodeText, Pos: t.Pos, Text: s})
		}
	}
	last := 0
	for _, m := range ms {
		text(t.Text[last:m[0]])
		last = m[1]
		key := groupKey(t.Text, m)
		if key == "" {
			text([]byte("$"))
			continue
		}
		pos := t.Pos + parse.Pos(m[0])
		idx := call(tr, pos, "index")
		idx.Args = append(idx.Args,
			&parse.VariableNode{NodeType: parse.NodeVariable, Pos: pos, Ident: []string{"$", "match"}},
			&parse.StringNode{NodeType: parse.NodeString, Pos: pos, Quoted: strconv.Quote(key), Text: key})
		out = append(out, &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos,
			Pipe: &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{idx}}})
	}
	text(t.Text[last:])
	return out
}

// matchData is what a substitute's with sees of a match: the bindings
// data, and .match, the match's groups by number ("0" the match) and by
// name (empty for a group that took no part in it).
func matchData(data map[string]any, re *regexp.Regexp, groups []string) map[string]any {
	named := map[string]string{}
	for i, name := range re.SubexpNames() {
		if name != "" && i < len(groups) && named[name] == "" {
			named[name] = groups[i] // the first that matched text, as regexp's expansion
		}
	}
	m := make(map[string]any, len(groups)+len(named))
	for i, g := range groups {
		m[strconv.Itoa(i)] = g
	}
	for name, g := range named {
		m[name] = g
	}
	d := maps.Clone(data)
	d["match"] = m
	return d
}

// actionRE is an action of a template, as the resolve pass leaves it out
// of a pattern to find its groups.
var actionRE = regexp.MustCompile(`\{\{.*?\}\}`)

// matchShape is what the resolve pass knows of .match: the named groups
// of the pattern's text, its actions left out; nothing (nil) when that
// text is no regular expression.
func matchShape(pattern *tmpl) *shape {
	re, err := regexp.Compile(actionRE.ReplaceAllString(pattern.src, ""))
	if err != nil {
		return nil
	}
	return mapOf("group of re", groupNames(re)...)
}
