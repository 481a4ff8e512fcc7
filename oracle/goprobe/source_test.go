package goprobe

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/oracle/goprobe/probe"
	"github.com/mcpt-tool/mcpt/tree"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadGoFile: what go-probe reads of protoc-gen-go's Go: getters of
// plain fields and oneof members, Deprecated: comments of struct fields,
// wrapper fields and getters, enums in order, the file variable, the
// version.
func TestReadGoFile(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "deprecated-oneof.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range ar.Files {
		if f.Name == "o2/shop.pb.go" {
			src = f.Data
		}
	}
	g, err := readGoFile("shop.pb.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if g.pkg != "input" || g.fileVar != "File_shop_proto" || g.version != "v1.36.12" {
		t.Errorf("package %s, file variable %s, version %s", g.pkg, g.fileVar, g.version)
	}
	if !slices.Equal(g.messages, []string{"Order"}) || !slices.Equal(g.enums, []string{"Status"}) {
		t.Errorf("messages %v, enums %v", g.messages, g.enums)
	}
	want := map[string]string{"id": "GetId", "note": "GetNote", "level": "GetLevel", "card": "GetCard", "cash": "GetCash", "zqcoupon": "GetZqcoupon"}
	for f, getter := range want {
		if g.getters["Order"][f] != getter {
			t.Errorf("getter of %s: %q, want %s", f, g.getters["Order"][f], getter)
		}
	}
	for _, id := range []string{"Order.Zqcoupon", "Order.GetZqcoupon()"} {
		if !g.deprecated[id] {
			t.Errorf("%s: no Deprecated: comment read", id)
		}
	}
	for _, id := range []string{"Order.Card", "Order.GetCard()", "Order", "Status_OPEN"} {
		if g.deprecated[id] {
			t.Errorf("%s: a Deprecated: comment read", id)
		}
	}
	if imports := g.imports; len(imports) == 0 || !slices.ContainsFunc(imports, func(i importSpec) bool {
		return i.name == "remote" && i.path == "example.com/pb/remote" && string(src[i.start:i.end]) == `"example.com/pb/remote"`
	}) {
		t.Errorf("imports %+v", g.imports)
	}
	if _, err := readGoFile("x.go", []byte("package x\n")); err == nil {
		t.Error("a file without descriptor variable is read")
	}
}

// TestModuleLayout: the packages of a side, the imports of the output
// tree renamed under mcpt.probe, nothing else changed; an import the tree
// does not hold is an error.
func TestModuleLayout(t *testing.T) {
	tr := tree.Tree{"shop.pb.go": readTestdata(t, "common/shop.pb.go.txt"), "remote.pb.go": readTestdata(t, "common/remote.pb.go.txt")}
	m := &module{files: map[string][]byte{}, roots: map[string]*goPackage{}}
	if err := m.side(tr, "shop.pb.go", "o"); err != nil {
		t.Fatal(err)
	}
	shop, remote := string(m.files["o/p0/shop.pb.go"]), string(m.files["o/p1/remote.pb.go"])
	if shop == "" || remote == "" || len(m.files) != 2 {
		t.Fatalf("files %v", slices.Sorted(maps.Keys(m.files)))
	}
	if want := strings.Replace(string(tr["shop.pb.go"]), `"example.com/pb/remote"`, `"mcpt.probe/o/p1"`, 1); shop != want {
		t.Error("shop.pb.go changed beyond its import")
	}
	if remote != string(tr["remote.pb.go"]) {
		t.Error("remote.pb.go changed")
	}
	main := string(m.mainFor("o", "o"))
	for _, s := range []string{`o "mcpt.probe/o/p0"`, "File: o.File_shop_proto", "&o.Order{}", `"Order":map[string]string{`} {
		if !strings.Contains(main, s) {
			t.Errorf("main lacks %s:\n%s", s, main)
		}
	}
	delete(tr, "remote.pb.go")
	err := (&module{files: map[string][]byte{}, roots: map[string]*goPackage{}}).side(tr, "shop.pb.go", "o")
	if err == nil || !strings.Contains(err.Error(), "imports example.com/pb/remote, which the output tree does not hold") {
		t.Errorf("error %v", err)
	}
}

// shapeWith is a shape of one message with the fields given.
func shapeWith(fields ...probe.Field) probe.Shape {
	return probe.Shape{Messages: []probe.Message{{Name: "p.M", Go: "M", Fields: fields}}}
}

func intField(name string, n int32) probe.Field {
	return probe.Field{Name: name, Number: n, JSON: name, Kind: "int32", Card: "optional", Default: "0", Getter: "Get" + strings.ToUpper(name[:1]) + name[1:], Got: "0"}
}

// TestCompare: o′ is o plus the added element, agreeing with itself and
// the predictions; each departure is said.
func TestCompare(t *testing.T) {
	g := &goFile{deprecated: map[string]bool{}, consts: map[string][]string{}}
	base := facts(shapeWith(intField("a", 1)), g)
	cases := []struct {
		name  string
		check Check
		fu    probe.Shape
		dep   []string // Deprecated: comments of o′
		want  string   // the message, "" for none
	}{
		{"a field", Check{Element: Field, Elem: "b", Number: "2", JSON: "b", Default: "0"}, shapeWith(intField("a", 1), intField("b", 2)), nil, ""},
		{"another number", Check{Element: Field, Elem: "b", Number: "3"}, shapeWith(intField("a", 1), intField("b", 2)), nil, "field p.M.b: number 2, predicted 3"},
		{"no new field", Check{Element: Field, Elem: "b"}, shapeWith(intField("a", 1)), nil, "o′ has 0 new fields named b, not 1"},
		{"an old field changed", Check{Element: Field, Elem: "b"}, shapeWith(probe.Field{Name: "a", Number: 1, JSON: "a", Kind: "int64", Card: "optional", Default: "0", Getter: "GetA", Got: "0"}, intField("b", 2)), nil, "field p.M.a: changed"},
		{"a getter off its default", Check{Element: Field, Elem: "b"}, shapeWith(intField("a", 1), probe.Field{Name: "b", Number: 2, JSON: "b", Kind: "int32", Card: "optional", Default: "40", Getter: "GetB", Got: "18"}), nil,
			"field p.M.b: the getter GetB returns 18 on an empty message, the descriptor's default is 40"},
		{"deprecated with its comments", Check{Element: Field, Elem: "b", Deprecated: "true"}, shapeWith(intField("a", 1), probe.Field{Name: "b", Number: 2, JSON: "b", Kind: "int32", Card: "optional", Default: "0", Getter: "GetB", Got: "0", Deprecated: true}), []string{"M.B", "M.GetB()"}, ""},
		{"deprecated without the getter's", Check{Element: Field, Elem: "b"}, shapeWith(intField("a", 1), probe.Field{Name: "b", Number: 2, JSON: "b", Kind: "int32", Card: "optional", Default: "0", Getter: "GetB", Got: "0", Deprecated: true}), []string{"M.B"},
			"field p.M.b: deprecated, but its getter GetB has no Deprecated: comment"},
		{"not predicted deprecated", Check{Element: Field, Elem: "b", Deprecated: "false"}, shapeWith(intField("a", 1), probe.Field{Name: "b", Number: 2, JSON: "b", Kind: "int32", Card: "optional", Default: "0", Getter: "GetB", Got: "0", Deprecated: true}), []string{"M.B", "M.GetB()"},
			"field p.M.b: deprecated true, predicted false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g2 := &goFile{deprecated: map[string]bool{}, consts: map[string][]string{}}
			for _, d := range c.dep {
				g2.deprecated[d] = true
			}
			v := c.check.compare(base, facts(c.fu, g2))
			got := ""
			if len(v.Fails) > 0 {
				got = v.Fails[0].Message
			}
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("message %q, want %q", got, c.want)
			}
		})
	}
}

// TestMapEntryName: the entry message of a map field, as protoc names it.
func TestMapEntryName(t *testing.T) {
	for in, want := range map[string]string{"tags": "TagsEntry", "zq_levels": "ZqLevelsEntry", "a_b_c": "ABCEntry"} {
		if got := mapEntryName(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
