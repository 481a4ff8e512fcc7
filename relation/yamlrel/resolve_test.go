package yamlrel

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// TestTemplatesMadeByUnits: the package makes its templates through a
// unit, which registers each for the resolve pass: mkTmpl, the maker of
// a template, is called by unit.template alone, and a tmpl is built by
// mkTmpl alone.
func TestTemplatesMadeByUnits(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls, lits := 0, 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			where := fn.Name.Name
			if fn.Recv != nil {
				where = types(fn.Recv.List[0].Type) + "." + where
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "mkTmpl" {
						calls++
						if where != "unit.template" {
							t.Errorf("%s: %s makes a template with mkTmpl: only unit.template may (it registers it)", fset.Position(x.Pos()), where)
						}
					}
				case *ast.CompositeLit:
					if id, ok := x.Type.(*ast.Ident); ok && id.Name == "tmpl" {
						lits++
						if where != "mkTmpl" {
							t.Errorf("%s: %s builds a tmpl: only mkTmpl may", fset.Position(x.Pos()), where)
						}
					}
				}
				return true
			})
		}
	}
	if calls != 1 || lits != 1 {
		t.Errorf("mkTmpl called %d times and a tmpl built %d times in the package, want once each", calls, lits)
	}
}

// types names the receiver type e (T or *T) as T.
func types(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// TestResolveFindsEveryTemplate: every template that a relation of the
// shipped relation files holds, wherever a check kind keeps it (found
// here by walking the compiled relation), is one its unit registered
// for the resolve pass, and every template a unit registered is held;
// likewise for the lets of the definitions. None of them is in error.
func TestResolveFindsEveryTemplate(t *testing.T) {
	for _, dir := range []string{"cll/relations", "cll/relations/statements", "cll/derived", "thrift/relations", "thrift/derived", "flatbuffers/relations", "flatbuffers/derived", "protobuf/relations", "protobuf/derived", "typescript/relations", "typescript/derived"} {
		pack, sub, _ := strings.Cut(dir, "/") // the pack's directory holds its grammar
		fsys := os.DirFS(path.Join("..", "..", "examples", pack))
		entries, err := os.ReadDir(path.Join("..", "..", "examples", dir))
		if err != nil {
			t.Fatal(err)
		}
		l := newLoader(fsys)
		l.parsers = withTS(t)
		// protobuf-js, a kind written in Go that the Protocol Buffers
		// pack's derived relations carry, has no template; js-shape and
		// dts-probe, which the TypeScript pack's carry, are relation/semrel's
		// (which imports this package), whose own tests compile their
		// templates: here they stand in without any
		none := func(*Spec) (Check, error) { return nil, nil }
		goKinds := []CheckerKind{{Name: "protobuf-js", New: none}, {Name: "js-shape", New: none}, {Name: "dts-probe", New: none}}
		if l.checkers, err = checkerKinds(goKinds); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if path.Ext(e.Name()) == ".yaml" {
				name := path.Join(sub, e.Name())
				l.loadFile(name, name, yamlpos.Pos{})
			}
		}
		c := l.compile()
		if err := l.errs.Err(); err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		var lets []let
		lets = append(lets, l.d.lets...)
		for _, k := range l.d.kinds {
			lets = append(lets, k.lets...)
		}
		sameTemplates(t, dir+": the definitions", held(reflect.ValueOf(lets)), l.d.unit.tmpls)
		n := len(l.d.unit.tmpls)
		for _, r := range c.spotted {
			sameTemplates(t, dir+": relation "+r.name, held(reflect.ValueOf(r)), r.unit.tmpls)
			n += len(r.unit.tmpls)
		}
		if n == 0 {
			t.Errorf("%s: no template", dir)
		}
	}
}

// sameTemplates reports the templates that are held and not registered,
// or registered and not held.
func sameTemplates(t *testing.T, what string, held map[uintptr]string, registered []*tmpl) {
	t.Helper()
	reg := map[uintptr]*tmpl{}
	for _, tm := range registered {
		reg[reflect.ValueOf(tm).Pointer()] = tm
	}
	for p, at := range held {
		if reg[p] == nil {
			t.Errorf("%s holds the template at %s, which its unit did not register: the resolve pass does not check it", what, at)
		}
	}
	for p, tm := range reg {
		if _, ok := held[p]; !ok {
			t.Errorf("%s: its unit registered the template at %s, which it does not hold", what, tm.pos)
		}
	}
}

// held finds the templates that v holds, through its structs, pointers,
// lists, maps and interfaces, but not in the definitions (resolved on
// their own) nor in the unit.
// It gives each by its position.
func held(v reflect.Value) map[uintptr]string {
	out := map[uintptr]string{}
	skip := []reflect.Type{reflect.TypeFor[*defs](), reflect.TypeFor[*kind](), reflect.TypeFor[*region](), reflect.TypeFor[*regexp.Regexp](), reflect.TypeFor[*unit]()}
	visiting := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if slices.Contains(skip, v.Type()) {
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || visiting[v.Pointer()] {
				return
			}
			visiting[v.Pointer()] = true
			if v.Type() == reflect.TypeFor[*tmpl]() {
				pos := v.Elem().FieldByName("pos")
				out[v.Pointer()] = fmt.Sprintf("%s:%d:%d", pos.FieldByName("File").String(), pos.FieldByName("Line").Int(), pos.FieldByName("Col").Int())
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value())
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		}
	}
	walk(v)
	return out
}
