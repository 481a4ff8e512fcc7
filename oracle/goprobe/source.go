package goprobe

import (
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/tree"
)

// goFile is what go-probe reads of a Go file protoc-gen-go wrote, from
// its syntax: its package, imports, message and enum types, the getters
// of their fields, the file descriptor's variable, the runtime version
// it was generated for, and the identifiers whose doc comment says
// "Deprecated:".
type goFile struct {
	name    string
	pkg     string
	imports []importSpec
	// messages are the Go message types (structs holding a
	// protoimpl.MessageState), getters[type][proto field] their getters.
	messages []string
	getters  map[string]map[string]string
	// fileVar is the file descriptor's variable (File_NAME_proto).
	fileVar string
	// version is the protoc-gen-go version of the header (v1.36.12).
	version string
	// deprecated holds the identifiers with a "Deprecated:" doc comment:
	// TYPE, TYPE.FIELD, TYPE.METHOD() and CONST.
	deprecated map[string]bool
	// consts are the constants by type: their names.
	consts map[string][]string
	// enums are the Go enum types (an int32 type with a Descriptor
	// method), in the order of the source: protoc-gen-go's, the file's
	// enums, then each message's, a message before those it nests.
	enums []string
}

type importSpec struct {
	name, path string
	// start and end are the offsets of the path's literal in the source.
	start, end int
}

var (
	versionRE = regexp.MustCompile(`(?m)^//\s+protoc-gen-go (v\d+\.\d+\.\d+\S*)`)
	tagNameRE = regexp.MustCompile(`(?:^|,)name=([^,]+)`)
)

// readGoFile reads a Go file as parseGoFile does, once for each name and
// content among the last it read: a check reads o's files, the same for
// every test case of a seed, three times each.
func readGoFile(name string, src []byte) (*goFile, error) {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(src)
	var k [32]byte
	h.Sum(k[:0])
	goFilesMu.Lock()
	g, ok := goFiles.by[k]
	goFilesMu.Unlock()
	if ok {
		return g, nil
	}
	g, err := parseGoFile(name, src)
	if err != nil {
		return nil, err
	}
	goFilesMu.Lock()
	defer goFilesMu.Unlock()
	if _, ok := goFiles.by[k]; !ok {
		if len(goFiles.keys) >= maxGoFiles {
			delete(goFiles.by, goFiles.keys[0])
			goFiles.keys = goFiles.keys[1:]
		}
		goFiles.keys = append(goFiles.keys, k)
		goFiles.by[k] = g
	}
	return g, nil
}

// goFiles are the files readGoFile read last, at most maxGoFiles: a
// goFile is not changed once read.
var (
	goFilesMu sync.Mutex
	goFiles   = struct {
		keys [][32]byte
		by   map[[32]byte]*goFile
	}{by: map[[32]byte]*goFile{}}
)

const maxGoFiles = 64

// parseGoFile reads the Go source src of a file named name.
func parseGoFile(name string, src []byte) (*goFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	g := &goFile{name: name, pkg: f.Name.Name, getters: map[string]map[string]string{}, deprecated: map[string]bool{}, consts: map[string][]string{}}
	if m := versionRE.FindSubmatch(src); m != nil {
		g.version = string(m[1])
	}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		s := importSpec{path: p, start: fset.Position(im.Path.Pos()).Offset, end: fset.Position(im.Path.End()).Offset}
		if im.Name != nil {
			s.name = im.Name.Name
		} else {
			s.name = path.Base(p)
		}
		g.imports = append(g.imports, s)
	}
	deprecated := func(doc *ast.CommentGroup) bool {
		return doc != nil && strings.Contains(doc.Text(), "Deprecated:")
	}
	structs := map[string]*ast.StructType{}
	// oneofOf maps a oneof wrapper type to its interface (isT_O).
	oneofOf := map[string]string{}
	getterOK := map[string]bool{}
	var int32Types []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if deprecated(s.Doc) || len(d.Specs) == 1 && deprecated(d.Doc) {
						g.deprecated[s.Name.Name] = true
					}
					if st, ok := s.Type.(*ast.StructType); ok {
						structs[s.Name.Name] = st
					}
					if id, ok := s.Type.(*ast.Ident); ok && id.Name == "int32" {
						int32Types = append(int32Types, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if d.Tok == token.VAR && len(s.Names) == 1 && strings.HasPrefix(n.Name, "File_") && strings.HasSuffix(n.Name, "_proto") {
							g.fileVar = n.Name
						}
						if d.Tok != token.CONST {
							continue
						}
						if deprecated(s.Doc) {
							g.deprecated[n.Name] = true
						}
						if id, ok := s.Type.(*ast.Ident); ok {
							g.consts[id.Name] = append(g.consts[id.Name], n.Name)
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			recv := recvType(d.Recv.List[0].Type)
			if strings.HasPrefix(d.Name.Name, "is") && d.Type.Params.NumFields() == 0 && d.Type.Results.NumFields() == 0 {
				oneofOf[recv] = d.Name.Name
			}
			if deprecated(d.Doc) {
				g.deprecated[recv+"."+d.Name.Name+"()"] = true
			}
			if d.Type.Params.NumFields() == 0 {
				getterOK[recv+"."+d.Name.Name] = true
			}
		}
	}
	isMessage := func(st *ast.StructType) bool {
		for _, fl := range st.Fields.List {
			if sel, ok := fl.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "MessageState" {
				return true
			}
		}
		return false
	}
	// oneofField maps an interface of a oneof (isT_O) to its message and
	// the field holding it.
	oneofField := map[string][2]string{}
	for _, name := range slices.Sorted(maps.Keys(structs)) {
		st := structs[name]
		if !isMessage(st) {
			continue
		}
		g.messages = append(g.messages, name)
		g.getters[name] = map[string]string{}
		for _, fl := range st.Fields.List {
			for _, n := range fl.Names {
				if deprecated(fl.Doc) {
					g.deprecated[name+"."+n.Name] = true
				}
				if id, ok := fl.Type.(*ast.Ident); ok && strings.HasPrefix(id.Name, "is") {
					oneofField[id.Name] = [2]string{name, n.Name}
				}
				if pf := protoName(fl.Tag); pf != "" && getterOK[name+".Get"+n.Name] {
					g.getters[name][pf] = "Get" + n.Name
				}
			}
		}
	}
	// A oneof's member is a field of its wrapper type (T_Name), whose
	// getter is the message's.
	for wrapper, iface := range oneofOf {
		owner, ok := oneofField[iface]
		st := structs[wrapper]
		if !ok || st == nil {
			continue
		}
		for _, fl := range st.Fields.List {
			for _, n := range fl.Names {
				if deprecated(fl.Doc) {
					g.deprecated[owner[0]+"."+n.Name] = true
				}
				if pf := protoName(fl.Tag); pf != "" && getterOK[owner[0]+".Get"+n.Name] {
					g.getters[owner[0]][pf] = "Get" + n.Name
				}
			}
		}
	}
	for _, t := range int32Types {
		if getterOK[t+".Descriptor"] {
			g.enums = append(g.enums, t)
		}
	}
	if g.fileVar == "" {
		return nil, fmt.Errorf("%s: no file descriptor variable (var File_…_proto): not written by protoc-gen-go", name)
	}
	return g, nil
}

func recvType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// protoName is the proto field name of a struct tag's protobuf key.
func protoName(tag *ast.BasicLit) string {
	if tag == nil {
		return ""
	}
	s, err := strconv.Unquote(tag.Value)
	if err != nil {
		return ""
	}
	m := tagNameRE.FindStringSubmatch(reflect.StructTag(s).Get("protobuf"))
	if m == nil {
		return ""
	}
	return m[1]
}

// goPackage is the Go package of a file of the output: the .go files of
// its directory with its package clause.
type goPackage struct {
	dir, name string
	files     []*goFile
}

// packageOf gathers the package of file in t.
func packageOf(t tree.Tree, file string) (*goPackage, error) {
	main, err := readGoFile(file, t[file])
	if err != nil {
		return nil, err
	}
	p := &goPackage{dir: path.Dir(file), name: main.pkg, files: []*goFile{main}}
	for _, n := range t.Names() {
		if n == file || path.Dir(n) != p.dir || !strings.HasSuffix(n, ".pb.go") {
			continue
		}
		g, err := readGoFile(n, t[n])
		if err != nil || g.pkg != p.name {
			continue
		}
		p.files = append(p.files, g)
	}
	return p, nil
}
