package syntax

import (
	"strings"
	"testing"
)

// parseEnums is a hand-made parser for the tests: `enum NAME { A, B = 1 }`
// declarations in a module, with // and /* */ comments and @annotations
// that stand before members.
func parseEnums(t *testing.T, src string) *Tree {
	t.Helper()
	b := []byte(src)
	root := &Node{Kind: "program", Named: true, Start: 0, End: len(b)}
	i := 0
	skipWS := func() {
		for i < len(b) && strings.IndexByte(" \t\r\n", b[i]) >= 0 {
			i++
		}
	}
	word := func() *Node {
		s := i
		for i < len(b) && (b[i] == '_' || b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] >= '0' && b[i] <= '9') {
			i++
		}
		return &Node{Kind: "identifier", Named: true, Start: s, End: i}
	}
	comment := func() *Node {
		s := i
		if strings.HasPrefix(src[i:], "//") {
			for i < len(b) && b[i] != '\n' {
				i++
			}
		} else {
			i = strings.Index(src[i:], "*/") + i + 2
		}
		return &Node{Kind: "comment", Named: true, Start: s, End: i}
	}
	for skipWS(); i < len(b); skipWS() {
		if b[i] == '/' {
			root.Children = append(root.Children, comment())
			continue
		}
		decl := &Node{Kind: "enum_declaration", Named: true, Start: i}
		kw := word()
		if kw.Text(b) != "enum" {
			t.Fatalf("hand-made parser: want enum at %d, got %q", kw.Start, kw.Text(b))
		}
		skipWS()
		name := word()
		name.Field = "name"
		skipWS()
		body := &Node{Kind: "enum_body", Named: true, Field: "body", Start: i}
		body.Children = append(body.Children, &Node{Kind: "{", Start: i, End: i + 1})
		i++
		for skipWS(); b[i] != '}'; skipWS() {
			switch {
			case b[i] == '/':
				body.Children = append(body.Children, comment())
			case b[i] == ',':
				body.Children = append(body.Children, &Node{Kind: ",", Start: i, End: i + 1})
				i++
			case b[i] == '@':
				s := i
				i++
				word()
				body.Children = append(body.Children, &Node{Kind: "annotation", Named: true, Start: s, End: i})
			default:
				id := word()
				if i == id.Start {
					t.Fatalf("hand-made parser: stuck at %d", i)
				}
				save := i
				skipWS()
				if i < len(b) && b[i] == '=' {
					i++
					skipWS()
					v := word()
					v.Field = "value"
					id.Field = "name"
					body.Children = append(body.Children, &Node{Kind: "enum_assignment", Named: true, Start: id.Start, End: v.End, Children: []*Node{id, v}})
				} else {
					i = save
					body.Children = append(body.Children, &Node{Kind: "property_identifier", Named: true, Start: id.Start, End: id.End})
				}
			}
		}
		body.Children = append(body.Children, &Node{Kind: "}", Start: i, End: i + 1})
		i++
		body.End = i
		decl.End = i
		decl.Children = []*Node{kw, name, body}
		root.Children = append(root.Children, decl)
	}
	LinkParents(root)
	return &Tree{Name: "t.enum", Src: b, Root: root}
}

var enumSpec = ListSpec{Lists: []string{"enum_body"}, Annotations: []string{"annotation"}}

func spotDescs(t *testing.T, src string) []string {
	var out []string
	for _, l := range Lists(parseEnums(t, src), enumSpec) {
		for _, s := range l.Spots() {
			out = append(out, s.Desc)
		}
	}
	return out
}

// Every layout of the same enums has the same spots.
func TestSpotsIgnoreLayout(t *testing.T) {
	layouts := []string{
		"enum Color {\n  Red,\n  Green = 2,\n  Blue\n}\nenum E {}\n",
		"enum Color { Red, Green = 2, Blue }\nenum E {}\n",
		"enum Color\n{\n\tRed,\n\tGreen = 2,\n\tBlue,\n}\nenum E\n{\n}\n",
		"// c\nenum Color {\n  // red\n  Red, // trailing\n  /** doc */\n  @ann\n  Green = 2,\n\n  /* loose */\n\n  Blue\n}\nenum E { /* none */ }\n",
		"enum Color {\r\n  Red,\r\n  Green = 2,\r\n  Blue\r\n}\r\nenum E {\r\n}\r\n",
	}
	want := strings.Join([]string{
		"enum_body of Color, before Red", "enum_body of Color, between Red and Green",
		"enum_body of Color, between Green and Blue", "enum_body of Color, after Blue", "enum_body of E, empty",
	}, "\n")
	for _, src := range layouts {
		if got := strings.Join(spotDescs(t, src), "\n"); got != want {
			t.Errorf("spots of %q:\n%s\nwant\n%s", src, got, want)
		}
	}
}

func TestLayoutLearned(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Layout
	}{
		{"enum A {\n  X,\n  Y\n}", Layout{Indent: "  ", Unit: "  ", Sep: ",", OnePerLine: true, EOL: "\n"}},
		{"enum A { X, Y, }", Layout{Indent: "  ", Unit: "  ", Sep: ",", Trailing: true, EOL: "\n"}},
		{"enum A\r\n{\r\n\tX,\r\n\tY,\r\n}\r\n", Layout{Indent: "\t", Unit: "\t", Sep: ",", OnePerLine: true, Trailing: true, EOL: "\r\n"}},
		{"enum A {\n    X\n    Y\n}", Layout{Indent: "    ", Unit: "    ", OnePerLine: true, EOL: "\n"}},
	} {
		ls := Lists(parseEnums(t, c.src), enumSpec)
		if got := ls[0].Layout; got != c.want {
			t.Errorf("layout of %q = %+v, want %+v", c.src, got, c.want)
		}
	}
}

func TestNeighboursAndAttachments(t *testing.T) {
	src := "enum A {\n  X,\n  /** doc */\n  @ann\n  Y = 1, // y\n  Z\n}"
	tr := parseEnums(t, src)
	l := Lists(tr, enumSpec)[0]
	if len(l.Members) != 3 {
		t.Fatalf("%d members, want 3", len(l.Members))
	}
	y := l.Members[1]
	if y.Name != "Y" || y.Prev().Name != "X" || y.Next().Name != "Z" || l.Members[0].Prev() != nil || l.Members[2].Next() != nil {
		t.Errorf("neighbours wrong: %s, %v, %v", y.Name, y.Prev(), y.Next())
	}
	if len(y.Leading) != 2 || src[y.Start:y.Node.Start] != "/** doc */\n  @ann\n  " {
		t.Errorf("Y's leading comment and annotation not attached: %q", src[y.Start:y.Node.Start])
	}
	if y.Trailing == nil || src[y.Node.Start:y.End] != "Y = 1, // y" {
		t.Errorf("Y's trailing comment not attached: %q", src[y.Node.Start:y.End])
	}
	if sib := y.Siblings(); len(sib) != 0 {
		t.Errorf("Y (an assignment) has siblings %v", sib)
	}
	if sib := l.Members[0].Siblings(); len(sib) != 1 || sib[0].Name != "Z" {
		t.Errorf("X's siblings = %v, want Z", sib)
	}
}

// The inserted member follows the layout of its siblings.
func TestInsertFollowsLayout(t *testing.T) {
	for _, c := range []struct {
		src  string
		gap  int
		want string
	}{
		{"enum A {\n  X,\n  Y\n}", 2, "enum A {\n  X,\n  Y,\n  N\n}"},
		{"enum A {\n  X,\n  Y\n}", 0, "enum A {\n  N,\n  X,\n  Y\n}"},
		{"enum A {\n  X,\n  Y\n}", 1, "enum A {\n  X,\n  N,\n  Y\n}"},
		{"enum A { X, Y }", 1, "enum A { X, N, Y }"},
		{"enum A { X, Y }", 2, "enum A { X, Y, N }"},
		{"enum A { X, Y, }", 2, "enum A { X, Y, N, }"},
		{"enum A\r\n{\r\n\tX,\r\n\tY,\r\n}", 1, "enum A\r\n{\r\n\tX,\r\n\tN,\r\n\tY,\r\n}"},
		{"enum A {\n  X, // x\n  /** y */\n  Y // last\n}", 1, "enum A {\n  X, // x\n  N,\n  /** y */\n  Y // last\n}"},
		{"enum A {\n  X, // x\n  Y // last\n}", 2, "enum A {\n  X, // x\n  Y, // last\n  N\n}"},
		// a list without separators to learn from keeps the text's own
		{"enum A {}", 0, "enum A { N, }"},
		{"enum A {\n}", 0, "enum A {\n  N,\n}"},
		{"enum A {\n    X\n    Y\n}", 1, "enum A {\n    X\n    N,\n    Y\n}"},
	} {
		tr := parseEnums(t, c.src)
		s := Lists(tr, enumSpec)[0].Spots()[c.gap]
		if got := string(s.Insert("N,").Apply(tr.Src)); got != c.want {
			t.Errorf("insert at %s of %q:\n%q\nwant\n%q", s.Desc, c.src, got, c.want)
		}
	}
}

func TestClone(t *testing.T) {
	tr := parseEnums(t, "enum A {\n  X,\n  Y = B\n}")
	l := Lists(tr, enumSpec)[0]
	if got := l.Members[0].Clone("N", "7"); got != "N" {
		t.Errorf("clone of X = %q", got)
	}
	if got := l.Members[1].Clone("N", "7"); got != "N = 7" {
		t.Errorf("clone of Y = B with a fresh value = %q", got)
	}
	if got := l.Members[1].Clone("N", ""); got != "N = B" {
		t.Errorf("clone of Y = B = %q", got)
	}
}

// A comment that opens a member's first child (a grammar rule whose node
// wraps the one that holds the comment: definition → struct) is left out
// of the member's text, as one that opens the member itself.
func TestDeclTextNestedComment(t *testing.T) {
	src := "/** doc */\nstruct S { }\nconst X = 1\n"
	b := []byte(src)
	def := func(start, end int, kids ...*Node) *Node {
		return &Node{Kind: "definition", Named: true, Start: start, End: end, Children: kids}
	}
	comment := &Node{Kind: "comment", Named: true, Start: 0, End: 10}
	kw := &Node{Kind: "struct", Start: 11, End: 17}
	name := &Node{Kind: "type", Field: "new", Named: true, Start: 18, End: 19}
	st := &Node{Kind: "struct", Named: true, Start: 0, End: 23, Children: []*Node{comment, kw, name, {Kind: "{", Start: 20, End: 21}, {Kind: "}", Start: 22, End: 23}}}
	cst := &Node{Kind: "const", Named: true, Start: 24, End: 35, Children: []*Node{{Kind: "const", Start: 24, End: 29}, {Kind: "const", Field: "new", Named: true, Start: 30, End: 31}, {Kind: "=", Start: 32, End: 33}, {Kind: "1", Start: 34, End: 35}}}
	root := &Node{Kind: "document", Named: true, Start: 0, End: len(b), Children: []*Node{def(0, 23, st), def(24, 35, cst)}}
	LinkParents(root)
	ls := Lists(&Tree{Name: "t", Src: b, Root: root}, ListSpec{Lists: []string{"document"}, Members: []string{"definition"}})
	if len(ls) != 1 || len(ls[0].Members) != 2 {
		t.Fatalf("lists %v", ls)
	}
	if got := ls[0].Members[0].Text(); got != "struct S { }" {
		t.Errorf("text of the struct %q, want %q", got, "struct S { }")
	}
	if got := ls[0].Members[1].Text(); got != "const X = 1" {
		t.Errorf("text of the const %q, want %q", got, "const X = 1")
	}
}

// TestBracketlessListInline: a list without brackets whose one member
// follows other text on its line (`states A`, as a grammar of mcpt's
// notation reads it) takes a new member on that line.
func TestBracketlessListInline(t *testing.T) {
	src := []byte("states A\n")
	list := &Node{Kind: "state_list", Named: true, Start: 7, End: 8, Children: []*Node{
		{Kind: "state", Named: true, Field: "new", Start: 7, End: 8},
	}}
	root := &Node{Kind: "states", Named: true, Start: 0, End: 8, Children: []*Node{{Kind: "states", Start: 0, End: 6}, list}}
	ls := Lists(&Tree{Src: src, Root: root}, ListSpec{Lists: []string{"state_list"}, Sep: ","})
	if len(ls) != 1 || len(ls[0].Members) != 1 {
		t.Fatalf("lists %v", ls)
	}
	if ls[0].Layout.OnePerLine {
		t.Errorf("layout %+v: want the member inline", ls[0].Layout)
	}
	if got := string(ls[0].Spots()[1].Insert("B").Apply(src)); got != "states A, B\n" {
		t.Errorf("after A: %q, want %q", got, "states A, B\n")
	}
}

// TestCommentsAloneNode: a node that holds a comment and nothing after it
// (a comment a grammar spells out, in a declaration or as one) is no
// content of a declaration and no member: a comment ending a member's line
// is the member's, a comment line the next member's.
func TestCommentsAloneNode(t *testing.T) {
	src := []byte("a // c\n// d\nb\n")
	decl := func(start, end int, children ...*Node) *Node {
		return &Node{Kind: "decl", Named: true, Start: start, End: end, Children: children}
	}
	comment := func(start, end int) *Node { return &Node{Kind: "comment", Named: true, Start: start, End: end} }
	root := &Node{Kind: "body", Named: true, Start: 0, End: 13, Children: []*Node{
		decl(0, 6, &Node{Kind: "name", Named: true, Field: "new", Start: 0, End: 1},
			&Node{Kind: "tail", Named: true, Start: 2, End: 6, Children: []*Node{comment(2, 6)}}),
		decl(7, 11, comment(7, 11)),
		decl(12, 13, &Node{Kind: "name", Named: true, Field: "new", Start: 12, End: 13}),
	}}
	ls := Lists(&Tree{Src: src, Root: root}, ListSpec{Lists: []string{"body"}})
	if len(ls) != 1 {
		t.Fatalf("%d lists", len(ls))
	}
	ms := ls[0].Members
	if len(ms) != 2 {
		t.Fatalf("%d members, want 2 (a comment line is none)", len(ms))
	}
	if ms[0].Text() != "a" || ms[0].Trailing == nil || ms[0].Trailing.Text(src) != "// c" {
		t.Errorf("a: text %q, trailing %v", ms[0].Text(), ms[0].Trailing)
	}
	if len(ms[1].Leading) != 1 || ms[1].Leading[0].Text(src) != "// d" || ms[1].Text() != "b" {
		t.Errorf("b: text %q, %d leading", ms[1].Text(), len(ms[1].Leading))
	}
	if got := string(ls[0].Spots()[1].Insert("x").Apply(src)); got != "a // c\nx\n// d\nb\n" {
		t.Errorf("between a and b: %q", got)
	}
}

// TestInsertAfterTrailingComment: in an inline list, a member inserted
// after one that ends its line with a comment starts a line of its own,
// not inside the comment.
func TestInsertAfterTrailingComment(t *testing.T) {
	src := []byte("  a b // c\n")
	leaf := func(start int) *Node {
		return &Node{Kind: "decl", Named: true, Start: start, End: start + 1, Children: []*Node{
			{Kind: "name", Named: true, Field: "new", Start: start, End: start + 1}}}
	}
	root := &Node{Kind: "body", Named: true, Start: 2, End: 10, Children: []*Node{
		leaf(2), leaf(4), {Kind: "comment", Named: true, Start: 6, End: 10},
	}}
	ls := Lists(&Tree{Src: src, Root: root}, ListSpec{Lists: []string{"body"}})
	if len(ls) != 1 || len(ls[0].Members) != 2 || ls[0].Members[1].Trailing == nil {
		t.Fatalf("lists %+v", ls)
	}
	if ls[0].Layout.OnePerLine {
		t.Fatalf("layout %+v: want the members inline", ls[0].Layout)
	}
	sp := ls[0].Spots()
	if got := string(sp[1].Insert("x").Apply(src)); got != "  a x b // c\n" {
		t.Errorf("between a and b: %q", got)
	}
	if got := string(sp[2].Insert("x").Apply(src)); got != "  a b // c\n  x\n" {
		t.Errorf("after b: %q", got)
	}
}

// TestInsertBodyWithoutTerminator: in a list where `;` ends the members
// that need it (a TypeScript class body: fields, not methods), a member
// whose text ends with a body takes none, while a field does.
func TestInsertBodyWithoutTerminator(t *testing.T) {
	src := []byte("class C {\n  a;\n  m() {}\n}\n")
	body := &Node{Kind: "class_body", Named: true, Start: 8, End: 24, Children: []*Node{
		{Kind: "{", Start: 8, End: 9},
		{Kind: "field", Named: true, Start: 12, End: 13, Children: []*Node{{Kind: "property_identifier", Named: true, Field: "name", Start: 12, End: 13}}},
		{Kind: ";", Start: 13, End: 14},
		{Kind: "method", Named: true, Start: 17, End: 23, Children: []*Node{
			{Kind: "property_identifier", Named: true, Field: "name", Start: 17, End: 18},
			{Kind: "formal_parameters", Named: true, Start: 18, End: 20},
			{Kind: "statement_block", Named: true, Start: 21, End: 23},
		}},
		{Kind: "}", Start: 24, End: 25},
	}}
	body.End = 25
	root := &Node{Kind: "program", Named: true, Start: 0, End: len(src), Children: []*Node{
		{Kind: "class", Named: true, Start: 0, End: 25, Children: []*Node{{Kind: "class", Start: 0, End: 5}, body}},
	}}
	LinkParents(root)
	ls := Lists(&Tree{Src: src, Root: root}, ListSpec{Lists: []string{"class_body"}})
	if len(ls) != 1 || len(ls[0].Members) != 2 {
		t.Fatalf("lists %v", ls)
	}
	spots := ls[0].Spots()
	for _, c := range []struct {
		gap        int
		text, want string
	}{
		{2, "s() {}", "class C {\n  a;\n  m() {}\n  s() {}\n}\n"},
		{1, "static { x(); }", "class C {\n  a;\n  static { x(); }\n  m() {}\n}\n"},
		{2, "x = 1;", "class C {\n  a;\n  m() {}\n  x = 1;\n}\n"},
		{1, "x = 1", "class C {\n  a;\n  x = 1;\n  m() {}\n}\n"},
	} {
		if got := string(spots[c.gap].Insert(c.text).Apply(src)); got != c.want {
			t.Errorf("insert %q at %s:\n%q\nwant\n%q", c.text, spots[c.gap].Desc, got, c.want)
		}
	}
}

// TestInsertInlineTerminator: on one line, the last member of a list
// whose `;` is a terminator gains one before a new member (`{ a; b }`
// cannot hold `b x;`), but not after a body.
func TestInsertInlineTerminator(t *testing.T) {
	member := func(kind string, start, end int, body bool) *Node {
		n := &Node{Kind: kind, Named: true, Start: start, End: end, Children: []*Node{{Kind: "property_identifier", Named: true, Field: "name", Start: start, End: start + 1}}}
		if body {
			n.Children = append(n.Children, &Node{Kind: "formal_parameters", Named: true, Start: start + 1, End: start + 3}, &Node{Kind: "statement_block", Named: true, Start: start + 4, End: end})
		}
		return n
	}
	for _, c := range []struct {
		src        string
		last       *Node
		text, want string
	}{
		// "class C { a; b }": the field b gains its ;
		{"class C { a; b }", member("field", 13, 14, false), "x", "class C { a; b; x; }"},
		// "class C { a; m() {} }": the method does not
		{"class C { a; m() {} }", member("method", 13, 19, true), "x", "class C { a; m() {} x; }"},
	} {
		src := []byte(c.src)
		body := &Node{Kind: "class_body", Named: true, Start: 8, End: len(src), Children: []*Node{
			{Kind: "{", Start: 8, End: 9},
			member("field", 10, 11, false),
			{Kind: ";", Start: 11, End: 12},
			c.last,
			{Kind: "}", Start: len(src) - 1, End: len(src)},
		}}
		root := &Node{Kind: "program", Named: true, Start: 0, End: len(src), Children: []*Node{
			{Kind: "class", Named: true, Start: 0, End: len(src), Children: []*Node{{Kind: "class", Start: 0, End: 5}, body}},
		}}
		LinkParents(root)
		ls := Lists(&Tree{Src: src, Root: root}, ListSpec{Lists: []string{"class_body"}})
		if len(ls) != 1 || len(ls[0].Members) != 2 || ls[0].Layout.OnePerLine {
			t.Fatalf("%s: lists %v", c.src, ls)
		}
		if got := string(ls[0].Spots()[2].Insert(c.text).Apply(src)); got != c.want {
			t.Errorf("insert %q at the end of %q: %q, want %q", c.text, c.src, got, c.want)
		}
	}
}
