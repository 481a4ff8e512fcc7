package goprobe

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	pdesc "google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	// The well-known types, whose descriptors and Go types a generated
	// file may refer to: the static reading finds them linked here.
	_ "google.golang.org/protobuf/types/known/anypb"
	_ "google.golang.org/protobuf/types/known/apipb"
	_ "google.golang.org/protobuf/types/known/durationpb"
	_ "google.golang.org/protobuf/types/known/emptypb"
	_ "google.golang.org/protobuf/types/known/fieldmaskpb"
	_ "google.golang.org/protobuf/types/known/sourcecontextpb"
	_ "google.golang.org/protobuf/types/known/structpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
	_ "google.golang.org/protobuf/types/known/typepb"
	_ "google.golang.org/protobuf/types/known/wrapperspb"
	_ "google.golang.org/protobuf/types/pluginpb"

	"github.com/mcpt-tool/mcpt/oracle/goprobe/probe"
)

// The static reading: what the probe would print of a side, read from its
// Go source without building or running it. The Go is type-checked (the
// compiler's errors are go/types' errors), the serialized descriptor is
// decoded and built with protodesc, and what the runtime does with the
// rest when the package is loaded is done here: the counts and lists of
// protoimpl.TypeBuilder checked against the descriptor, each dependency
// index resolved as the runtime resolves it (to a declaration of the
// file, or through the Go type of goTypes to its descriptor), each Go
// message type taken to its descriptor through its ProtoReflect method,
// and each getter evaluated on an empty message. The reading refuses
// (and the check builds the probe) whatever it does not model: code run
// when the package loads that is not the generator's usual code, a
// getter that does more than read fields and constants, a type error, an
// index the runtime would not resolve to the declaration the descriptor
// names. So a reading that succeeds says what the probe would print.

// srcPkg is a Go package of a side, type-checked from its source.
type srcPkg struct {
	path  string
	names []string
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
	// funcs are its functions and methods by name (RECV.NAME for a
	// method), vars the specs of its package-level variables.
	funcs map[string]*ast.FuncDecl
	vars  map[*types.Var]varSpec
	// files' readings by their MessageInfos and EnumInfos variables.
	byMsgInfos, byEnumInfos map[*types.Var]*fileReading
	readings                []*fileReading
}

type varSpec struct {
	spec *ast.ValueSpec
	i    int
}

// reading is the state of one static reading of a side.
type reading struct {
	fset *token.FileSet
	imp  types.Importer
	pkgs map[string]*srcPkg
	// descriptors built, by .proto path
	files    *protoregistry.Files
	fdps     map[string]*fileReading
	building map[string]bool
}

// readSide reads the facts of a side (o or f) of m without building.
//
// A reading that panics (a Go file the reading's own code did not foresee)
// is a refusal like any other: the check builds the probe.
func (m *module) readSide(ctx context.Context, goCmd, version string, sum []byte, side string) (_ map[string]fact, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the reading failed: %v", r)
		}
	}()
	rd := &reading{fset: token.NewFileSet(), pkgs: map[string]*srcPkg{}, files: &protoregistry.Files{}, fdps: map[string]*fileReading{}, building: map[string]bool{}}
	// The side's packages, parsed, and the imports that are not the
	// tree's.
	byDir := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(m.files)) {
		if strings.HasPrefix(k, side+"/") {
			byDir[path.Dir(k)] = append(byDir[path.Dir(k)], k)
		}
	}
	external := map[string]bool{}
	for dir, names := range byDir {
		p := &srcPkg{path: "mcpt.probe/" + dir, names: names, funcs: map[string]*ast.FuncDecl{}, vars: map[*types.Var]varSpec{},
			byMsgInfos: map[*types.Var]*fileReading{}, byEnumInfos: map[*types.Var]*fileReading{}}
		for _, n := range names {
			f, err := parser.ParseFile(rd.fset, n, m.files[n], parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			p.files = append(p.files, f)
			for _, im := range f.Imports {
				ip := strings.Trim(im.Path.Value, `"`)
				if !strings.HasPrefix(ip, "mcpt.probe/") && ip != "unsafe" {
					external[ip] = true
				}
			}
		}
		rd.pkgs[p.path] = p
	}
	exp := runtimeFor(goCmd, version).exports()
	if err := exp.ensure(ctx, goCmd, version, sum, slices.Sorted(maps.Keys(external))); err != nil {
		return nil, err
	}
	rd.imp = exp.get()
	defer exp.put(rd.imp)
	root, err := rd.check("mcpt.probe/" + side + "/p0")
	if err != nil {
		return nil, err
	}
	for _, p := range slices.Sorted(maps.Keys(rd.pkgs)) {
		if rd.pkgs[p].pkg == nil {
			continue // not imported: the build would not compile it either
		}
		if err := rd.pkgs[p].inert(); err != nil {
			return nil, err
		}
		if err := rd.readFiles(rd.pkgs[p]); err != nil {
			return nil, err
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rd.pkgs)) {
		for _, r := range rd.pkgs[p].readings {
			if err := rd.build(r); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rd.pkgs)) {
		for _, r := range rd.pkgs[p].readings {
			if err := rd.link(r); err != nil {
				return nil, err
			}
		}
	}
	g := m.roots[side].files[0]
	var fr *fileReading
	for _, r := range root.readings {
		if r.fileVar == g.fileVar {
			fr = r
		}
	}
	if fr == nil {
		return nil, fmt.Errorf("no descriptor built for %s", g.fileVar)
	}
	gs := &staticGo{rd: rd, pkg: root, byName: map[protoreflect.FullName]string{}, getters: g.getters}
	for _, t := range g.messages {
		md, err := rd.messageOfGoType(root, t)
		if err != nil {
			return nil, err
		}
		gs.byName[md.FullName()] = t
	}
	sh := probe.ShapeOf(fr.fd, gs)
	if gs.err != nil {
		return nil, gs.err
	}
	return facts(sh, g), nil
}

// check type-checks the package of path, and the tree's packages it
// imports, from source.
func (rd *reading) check(ipath string) (*srcPkg, error) {
	p := rd.pkgs[ipath]
	if p == nil {
		return nil, fmt.Errorf("no package %s in the output", ipath)
	}
	if p.pkg != nil {
		return p, nil
	}
	if p.info != nil {
		return nil, fmt.Errorf("import cycle through %s", ipath)
	}
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	var errs []error
	conf := types.Config{
		GoVersion: "go1.21",
		Importer: importerFunc(func(ip string) (*types.Package, error) {
			if strings.HasPrefix(ip, "mcpt.probe/") {
				dep, err := rd.check(ip)
				if err != nil {
					return nil, err
				}
				return dep.pkg, nil
			}
			return rd.imp.Import(ip)
		}),
		Error: func(err error) { errs = append(errs, err) },
	}
	pkg, _ := conf.Check(ipath, rd.fset, p.files, p.info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-checking: %v", errs[0])
	}
	p.pkg = pkg
	for _, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					name = recvType(d.Recv.List[0].Type) + "." + name
				}
				if _, dup := p.funcs[name]; dup && name != "init" {
					return nil, fmt.Errorf("%s declared twice", name)
				}
				p.funcs[name] = d
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if v, ok := p.info.Defs[n].(*types.Var); ok {
							p.vars[v] = varSpec{vs, i}
						}
					}
				}
			}
		}
	}
	return p, nil
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// inert checks that what runs when the package is loaded is what the
// generator writes: variables initialised with literals, conversions,
// make and math's constants, and init functions that run the files'
// descriptor builders (initFunc).
func (p *srcPkg) inert() error {
	for _, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						if err := p.inertExpr(v); err != nil {
							return err
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Name.Name != "init" {
					continue
				}
				for _, st := range d.Body.List {
					fn := calledInit(st)
					if fn == "" || p.funcs[fn] == nil {
						return fmt.Errorf("init runs %s", nodeString(st))
					}
				}
			}
		}
	}
	return nil
}

// calledInit is the function a statement `file_x_proto_init()` calls, ""
// for any other statement.
func calledInit(st ast.Stmt) string {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return ""
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return ""
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok || !strings.HasPrefix(id.Name, "file_") || !strings.HasSuffix(id.Name, "_init") {
		return ""
	}
	return id.Name
}

// inertExpr checks that evaluating e cannot fail or do anything.
func (p *srcPkg) inertExpr(e ast.Expr) error {
	if tv, ok := p.info.Types[e]; ok && tv.Value != nil {
		return nil
	}
	switch e := e.(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return nil
	case *ast.Ident:
		return nil
	case *ast.ParenExpr:
		return p.inertExpr(e.X)
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if err := p.inertExpr(kv.Key); err != nil {
					return err
				}
				el = kv.Value
			}
			if err := p.inertExpr(el); err != nil {
				return err
			}
		}
		return nil
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, ok := p.info.Uses[id].(*types.PkgName); ok {
				return nil
			}
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if ix, ok := e.X.(*ast.IndexExpr); ok {
				return p.inIndex(ix)
			}
		}
	case *ast.CallExpr:
		if tv := p.info.Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
			return p.inertExpr(e.Args[0])
		}
		if b, ok := calleeOf(p.info, e).(*types.Builtin); ok && b.Name() == "make" {
			for _, a := range e.Args[1:] {
				if tv := p.info.Types[a]; tv.Value == nil {
					return fmt.Errorf("make with %s", nodeString(a))
				}
			}
			return nil
		}
		if f, ok := calleeOf(p.info, e).(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "math" && (f.Name() == "Inf" || f.Name() == "NaN") {
			for _, a := range e.Args {
				if err := p.inertExpr(a); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("a variable is initialised with %s", nodeString(e))
}

// inIndex checks an index expression VAR[CONST] whose variable is a
// slice of known length: a composite literal or make with a constant.
func (p *srcPkg) inIndex(ix *ast.IndexExpr) error {
	id, ok := ix.X.(*ast.Ident)
	if !ok {
		return fmt.Errorf("%s: not a variable", nodeString(ix))
	}
	v, _ := p.info.Uses[id].(*types.Var)
	n, ok := p.sliceLen(v)
	tv := p.info.Types[ix.Index]
	if !ok || tv.Value == nil {
		return fmt.Errorf("%s: no known length or index", nodeString(ix))
	}
	if i, exact := constant.Int64Val(tv.Value); !exact || i < 0 || i >= int64(n) {
		return fmt.Errorf("%s: index out of range [0,%d)", nodeString(ix), n)
	}
	return nil
}

// sliceLen is the length a package-level slice variable is initialised
// with: a composite literal without keys, or make([]T, N).
func (p *srcPkg) sliceLen(v *types.Var) (int, bool) {
	vs, ok := p.vars[v]
	if !ok || len(vs.spec.Values) <= vs.i {
		return 0, false
	}
	switch e := vs.spec.Values[vs.i].(type) {
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				return 0, false
			}
		}
		return len(e.Elts), true
	case *ast.CallExpr:
		if b, ok := calleeOf(p.info, e).(*types.Builtin); ok && b.Name() == "make" && len(e.Args) == 2 {
			if tv := p.info.Types[e.Args[1]]; tv.Value != nil {
				n, exact := constant.Int64Val(tv.Value)
				return int(n), exact && n >= 0
			}
		}
	}
	return 0, false
}

// calleeOf is the object a call calls: a function, a builtin, nil for
// anything else.
func calleeOf(info *types.Info, call *ast.CallExpr) types.Object {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		if sel := info.Selections[f]; sel != nil {
			return sel.Obj()
		}
		return info.Uses[f.Sel]
	}
	return nil
}

func nodeString(n ast.Node) string {
	var b strings.Builder
	switch n := n.(type) {
	case ast.Expr:
		b.WriteString(types.ExprString(n))
	default:
		// Positions are not needed to print a statement on its own.
		if err := format.Node(&b, token.NewFileSet(), n); err != nil {
			b.Reset()
			fmt.Fprintf(&b, "%T", n)
		}
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// A fileReading is one generated file of a package: its descriptor and
// what its descriptor builder (file_NAME_proto_init) gives the runtime.
type fileReading struct {
	pkg     *srcPkg
	name    string
	fileVar string
	fdp     *descriptorpb.FileDescriptorProto
	fd      protoreflect.FileDescriptor
	// the builder's counts and lists
	numEnums, numMessages, numExtensions, numServices int
	goTypes                                           []types.Type // nil for a nil entry
	depIdxs                                           []int32
	enumInfos, msgInfos, extInfos                     int
	// the declarations in the runtime's flattened order
	enums []protoreflect.EnumDescriptor
	msgs  []protoreflect.MessageDescriptor
	exts  []protoreflect.ExtensionDescriptor
}

// readFiles reads the descriptor builder of each file of p that has one;
// the descriptors are built once every package's are read (a file's
// imports may be another package's).
func (rd *reading) readFiles(p *srcPkg) error {
	for i, f := range p.files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "file_") || !strings.HasSuffix(fn.Name.Name, "_init") {
				continue
			}
			r, err := p.readInit(fn)
			if err != nil {
				return fmt.Errorf("%s: %v", fn.Name.Name, err)
			}
			r.name = p.names[i]
			p.readings = append(p.readings, r)
		}
	}
	return nil
}

// readInit reads a descriptor builder: its statements must be those the
// generator writes, its TypeBuilder's fields known.
func (p *srcPkg) readInit(fn *ast.FuncDecl) (*fileReading, error) {
	r := &fileReading{pkg: p}
	var built bool
	for _, st := range fn.Body.List {
		switch st := st.(type) {
		case *ast.IfStmt:
			// if File_x_proto != nil { return }, or
			// if !protoimpl.UnsafeEnabled { …Exporter = func… }
			if st.Init != nil || st.Else != nil {
				return nil, fmt.Errorf("an if the generator does not write")
			}
			if b, ok := st.Cond.(*ast.BinaryExpr); ok && b.Op == token.NEQ && len(st.Body.List) == 1 {
				if _, ok := st.Body.List[0].(*ast.ReturnStmt); ok {
					continue
				}
			}
			if u, ok := st.Cond.(*ast.UnaryExpr); ok && u.Op == token.NOT && types.ExprString(u.X) == "protoimpl.UnsafeEnabled" {
				for _, s := range st.Body.List {
					if err := p.initAssign(s, built); err != nil {
						return nil, err
					}
				}
				continue
			}
			return nil, fmt.Errorf("an if the generator does not write")
		case *ast.ExprStmt:
			if name := calledInit(st); name != "" && p.funcs[name] != nil {
				continue
			}
			return nil, fmt.Errorf("runs %s", nodeString(st.X))
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				continue
			}
			return nil, fmt.Errorf("declares something other than a type")
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				if built || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
					return nil, fmt.Errorf("a definition the generator does not write")
				}
				if err := p.typeBuilder(st.Rhs[0], r); err != nil {
					return nil, err
				}
				built = true
				continue
			}
			if built && len(st.Lhs) == 1 && len(st.Rhs) == 1 {
				if sel, ok := st.Rhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "File" {
					if id, ok := st.Lhs[0].(*ast.Ident); ok {
						r.fileVar = id.Name
						continue
					}
				}
			}
			if err := p.initAssign(st, built); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("a statement the generator does not write")
		}
	}
	if !built || r.fileVar == "" {
		return nil, fmt.Errorf("no TypeBuilder built, or its file not kept")
	}
	return r, nil
}

// initAssign checks an assignment of a descriptor builder: a field of an
// element of a slice of known length set to a literal or a function, or,
// after the build, a variable set to nil.
func (p *srcPkg) initAssign(s ast.Stmt, built bool) error {
	st, ok := s.(*ast.AssignStmt)
	if !ok || st.Tok != token.ASSIGN || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
		return fmt.Errorf("a statement the generator does not write")
	}
	if id, ok := st.Lhs[0].(*ast.Ident); ok && built && types.ExprString(st.Rhs[0]) == "nil" {
		if _, ok := p.info.Uses[id].(*types.Var); ok {
			return nil
		}
	}
	sel, ok := st.Lhs[0].(*ast.SelectorExpr)
	if !ok {
		return fmt.Errorf("assigns %s", nodeString(st.Lhs[0]))
	}
	ix, ok := sel.X.(*ast.IndexExpr)
	if !ok {
		return fmt.Errorf("assigns %s", nodeString(st.Lhs[0]))
	}
	if err := p.inIndex(ix); err != nil {
		return err
	}
	return p.inertExpr(st.Rhs[0])
}

// typeBuilder reads protoimpl.TypeBuilder{…}.Build().
func (p *srcPkg) typeBuilder(e ast.Expr, r *fileReading) error {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return fmt.Errorf("a definition the generator does not write")
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Build" {
		return fmt.Errorf("a definition the generator does not write")
	}
	lit, ok := sel.X.(*ast.CompositeLit)
	if !ok || types.ExprString(lit.Type) != "protoimpl.TypeBuilder" {
		return fmt.Errorf("no protoimpl.TypeBuilder")
	}
	var raw ast.Expr
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return fmt.Errorf("a TypeBuilder without keys")
		}
		var err error
		switch key := types.ExprString(kv.Key); key {
		case "File":
			db, ok := kv.Value.(*ast.CompositeLit)
			if !ok {
				return fmt.Errorf("the TypeBuilder's File: not a DescBuilder literal")
			}
			for _, el := range db.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					return fmt.Errorf("a DescBuilder without keys")
				}
				dst := map[string]*int{"NumEnums": &r.numEnums, "NumMessages": &r.numMessages, "NumExtensions": &r.numExtensions, "NumServices": &r.numServices}[types.ExprString(kv.Key)]
				switch k := types.ExprString(kv.Key); {
				case k == "RawDescriptor":
					raw = kv.Value
				case k == "GoPackagePath":
				case dst != nil:
					tv := p.info.Types[kv.Value]
					if tv.Value == nil {
						return fmt.Errorf("%s: not a constant", k)
					}
					n, exact := constant.Int64Val(tv.Value)
					if !exact || n < 0 {
						return fmt.Errorf("%s: %s", k, tv.Value)
					}
					*dst = int(n)
				default:
					return fmt.Errorf("DescBuilder.%s: not written by the generator", k)
				}
			}
		case "GoTypes":
			err = p.goTypes(kv.Value, r)
		case "DependencyIndexes":
			err = p.depIdxs(kv.Value, r)
		case "EnumInfos", "MessageInfos", "ExtensionInfos":
			id, ok := kv.Value.(*ast.Ident)
			v, _ := p.info.Uses[id].(*types.Var)
			n, known := p.sliceLen(v)
			if !ok || !known {
				return fmt.Errorf("%s: no slice of known length", key)
			}
			switch key {
			case "EnumInfos":
				r.enumInfos = n
				p.byEnumInfos[v] = r
			case "MessageInfos":
				r.msgInfos = n
				p.byMsgInfos[v] = r
			default:
				r.extInfos = n
			}
		default:
			return fmt.Errorf("TypeBuilder.%s: not written by the generator", key)
		}
		if err != nil {
			return err
		}
	}
	b, err := p.rawDesc(raw)
	if err != nil {
		return fmt.Errorf("RawDescriptor: %v", err)
	}
	r.fdp = &descriptorpb.FileDescriptorProto{}
	if err := proto.Unmarshal(b, r.fdp); err != nil {
		return fmt.Errorf("RawDescriptor: %v", err)
	}
	return nil
}

// rawDesc evaluates the RawDescriptor of a builder: a byte slice
// variable of constant bytes, or unsafe.Slice(unsafe.StringData(C),
// len(C)) of a string constant C.
func (p *srcPkg) rawDesc(e ast.Expr) ([]byte, error) {
	if e == nil {
		return nil, fmt.Errorf("none")
	}
	if tv := p.info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return []byte(constant.StringVal(tv.Value)), nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, _ := p.info.Uses[e].(*types.Var)
		vs, ok := p.vars[v]
		if !ok || len(vs.spec.Values) <= vs.i {
			return nil, fmt.Errorf("%s: no variable with a value", e.Name)
		}
		lit, ok := vs.spec.Values[vs.i].(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("%s: not a literal", e.Name)
		}
		b := make([]byte, 0, len(lit.Elts))
		for _, el := range lit.Elts {
			tv := p.info.Types[el]
			if tv.Value == nil {
				return nil, fmt.Errorf("%s: not constant bytes", e.Name)
			}
			n, exact := constant.Int64Val(tv.Value)
			if !exact || n < 0 || n > 255 {
				return nil, fmt.Errorf("%s: not constant bytes", e.Name)
			}
			b = append(b, byte(n))
		}
		return b, nil
	case *ast.CallExpr:
		if f, ok := calleeOf(p.info, e).(*types.Builtin); ok && f.Name() == "Slice" && len(e.Args) == 2 {
			in, ok := e.Args[0].(*ast.CallExpr)
			if g, ok2 := calleeOf(p.info, in).(*types.Builtin); ok && ok2 && g.Name() == "StringData" && len(in.Args) == 1 {
				tv := p.info.Types[in.Args[0]]
				n := p.info.Types[e.Args[1]]
				if tv.Value != nil && n.Value != nil && tv.Value.Kind() == constant.String {
					s := constant.StringVal(tv.Value)
					if l, exact := constant.Int64Val(n.Value); exact && l == int64(len(s)) {
						return []byte(s), nil
					}
				}
			}
		}
		if tv := p.info.Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
			if a := p.info.Types[e.Args[0]]; a.Value != nil && a.Value.Kind() == constant.String {
				return []byte(constant.StringVal(a.Value)), nil
			}
		}
	}
	return nil, fmt.Errorf("%s: not written by the generator", nodeString(e))
}

func (p *srcPkg) goTypes(e ast.Expr, r *fileReading) error {
	lit, err := p.literalOf(e)
	if err != nil {
		return fmt.Errorf("GoTypes: %v", err)
	}
	for _, el := range lit.Elts {
		if id, ok := el.(*ast.Ident); ok && id.Name == "nil" {
			r.goTypes = append(r.goTypes, nil)
			continue
		}
		// (T)(0) or (*T)(nil)
		call, ok := el.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !p.info.Types[call.Fun].IsType() {
			return fmt.Errorf("GoTypes: %s", nodeString(el))
		}
		r.goTypes = append(r.goTypes, p.info.Types[call.Fun].Type)
	}
	return nil
}

func (p *srcPkg) depIdxs(e ast.Expr, r *fileReading) error {
	lit, err := p.literalOf(e)
	if err != nil {
		return fmt.Errorf("DependencyIndexes: %v", err)
	}
	for _, el := range lit.Elts {
		tv := p.info.Types[el]
		if tv.Value == nil {
			return fmt.Errorf("DependencyIndexes: %s", nodeString(el))
		}
		n, exact := constant.Int64Val(tv.Value)
		if !exact || n < 0 || n > 1<<30 {
			return fmt.Errorf("DependencyIndexes: %s", tv.Value)
		}
		r.depIdxs = append(r.depIdxs, int32(n))
	}
	return nil
}

// literalOf is the composite literal a package-level variable named by e
// is initialised with.
func (p *srcPkg) literalOf(e ast.Expr) (*ast.CompositeLit, error) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, fmt.Errorf("%s: not a variable", nodeString(e))
	}
	v, _ := p.info.Uses[id].(*types.Var)
	vs, ok := p.vars[v]
	if !ok || len(vs.spec.Values) <= vs.i {
		return nil, fmt.Errorf("%s: no variable with a value", id.Name)
	}
	lit, ok := vs.spec.Values[vs.i].(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("%s: not a literal", id.Name)
	}
	for _, el := range lit.Elts {
		if _, ok := el.(*ast.KeyValueExpr); ok {
			return nil, fmt.Errorf("%s: a literal with keys", id.Name)
		}
	}
	return lit, nil
}

// build builds the descriptor of r, and first those of the files it
// imports: the side's generated files, else the well-known types linked
// into mcpt.
func (rd *reading) build(r *fileReading) error {
	if r.fd != nil {
		return nil
	}
	name := r.fdp.GetName()
	if other, ok := rd.fdps[name]; ok && other != r {
		return fmt.Errorf("two generated files describe %s", name)
	}
	rd.fdps[name] = r
	if rd.building[name] {
		return fmt.Errorf("an import cycle through %s", name)
	}
	rd.building[name] = true
	for _, dep := range r.fdp.GetDependency() {
		if _, err := rd.files.FindFileByPath(dep); err == nil {
			continue
		}
		if d := rd.fdpOf(dep); d != nil {
			if err := rd.build(d); err != nil {
				return err
			}
			continue
		}
		fd, err := protoregistry.GlobalFiles.FindFileByPath(dep)
		if err != nil {
			return fmt.Errorf("%s imports %s, which the output does not describe", name, dep)
		}
		if err := rd.files.RegisterFile(fd); err != nil {
			return err
		}
	}
	fd, err := pdesc.NewFile(r.fdp, rd.files)
	if err != nil {
		return fmt.Errorf("the descriptor of %s: %v", name, err)
	}
	if err := rd.files.RegisterFile(fd); err != nil {
		return err
	}
	r.fd = fd
	r.enums, r.msgs, r.exts = flatten(fd)
	return nil
}

// fdpOf finds the generated file of the side that describes path.
func (rd *reading) fdpOf(path string) *fileReading {
	if r, ok := rd.fdps[path]; ok {
		return r
	}
	for _, p := range slices.Sorted(maps.Keys(rd.pkgs)) {
		for _, r := range rd.pkgs[p].readings {
			if r.fdp.GetName() == path {
				return r
			}
		}
	}
	return nil
}

// flatten lists a file's enums, messages and extensions in the order the
// runtime allocates them: the file's own, then, message by message (the
// file's first, each followed by what it nests, depth first), each
// message's.
func flatten(fd protoreflect.FileDescriptor) (es []protoreflect.EnumDescriptor, ms []protoreflect.MessageDescriptor, xs []protoreflect.ExtensionDescriptor) {
	for i := 0; i < fd.Enums().Len(); i++ {
		es = append(es, fd.Enums().Get(i))
	}
	for i := 0; i < fd.Messages().Len(); i++ {
		ms = append(ms, fd.Messages().Get(i))
	}
	for i := 0; i < fd.Extensions().Len(); i++ {
		xs = append(xs, fd.Extensions().Get(i))
	}
	var visit func(m protoreflect.MessageDescriptor)
	visit = func(m protoreflect.MessageDescriptor) {
		for i := 0; i < m.Enums().Len(); i++ {
			es = append(es, m.Enums().Get(i))
		}
		for i := 0; i < m.Messages().Len(); i++ {
			ms = append(ms, m.Messages().Get(i))
		}
		for i := 0; i < m.Extensions().Len(); i++ {
			xs = append(xs, m.Extensions().Get(i))
		}
		for i := 0; i < m.Messages().Len(); i++ {
			visit(m.Messages().Get(i))
		}
	}
	for i := 0; i < fd.Messages().Len(); i++ {
		visit(fd.Messages().Get(i))
	}
	return es, ms, xs
}

// The lists of the dependency indexes, as the runtime numbers them.
const (
	listFieldDeps = iota
	listExtTargets
	listExtDeps
	listMethInDeps
	listMethOutDeps
)

// link checks what the runtime does with a file's builder when the
// package loads and its descriptors are used: the counts against the
// descriptor, the Go types of its enums and messages, and each dependency
// resolved through the indexes to the declaration the descriptor names.
func (rd *reading) link(r *fileReading) error {
	name := r.fdp.GetName()
	if r.numEnums != len(r.enums) || r.numMessages != len(r.msgs) || r.numExtensions != len(r.exts) || r.numServices != r.fd.Services().Len() {
		return fmt.Errorf("%s: the builder counts %d enums, %d messages, %d extensions, %d services; the descriptor has %d, %d, %d, %d",
			name, r.numEnums, r.numMessages, r.numExtensions, r.numServices, len(r.enums), len(r.msgs), len(r.exts), r.fd.Services().Len())
	}
	if r.enumInfos != len(r.enums) || r.msgInfos != len(r.msgs) || r.extInfos != len(r.exts) {
		return fmt.Errorf("%s: the builder's infos do not match the descriptor", name)
	}
	if len(r.goTypes) < len(r.enums)+len(r.msgs) {
		return fmt.Errorf("%s: %d Go types for %d enums and messages", name, len(r.goTypes), len(r.enums)+len(r.msgs))
	}
	for i := range r.enums {
		if r.goTypes[i] == nil {
			return fmt.Errorf("%s: no Go type for enum %s", name, r.enums[i].FullName())
		}
	}
	for i, md := range r.msgs {
		if (r.goTypes[len(r.enums)+i] == nil) != md.IsMapEntry() {
			return fmt.Errorf("%s: the Go type of message %s", name, md.FullName())
		}
	}
	// The runtime's depIdxs.Get(i, j): x[x[len(x)-i-1]+j].
	get := func(list, j int) (int, error) {
		x := r.depIdxs
		if len(x) < 5 {
			return 0, fmt.Errorf("%s: %d dependency indexes", name, len(x))
		}
		k := int(x[len(x)-list-1]) + j
		if k < 0 || k >= len(x)-5 {
			return 0, fmt.Errorf("%s: dependency index %d of list %d out of range", name, j, list)
		}
		return int(x[k]), nil
	}
	ne, nm := len(r.enums), len(r.msgs)
	enumAt := func(list, j int) (protoreflect.FullName, error) {
		d, err := get(list, j)
		switch {
		case err != nil:
			return "", err
		case d < ne:
			return r.enums[d].FullName(), nil
		case d < ne+nm:
			return "", fmt.Errorf("%s: an enum's dependency index %d names a message", name, d)
		case d >= len(r.goTypes) || r.goTypes[d] == nil:
			return "", fmt.Errorf("%s: dependency index %d: no Go type", name, d)
		}
		return rd.enumOfGoType(r.goTypes[d])
	}
	msgAt := func(list, j int) (protoreflect.FullName, error) {
		d, err := get(list, j)
		switch {
		case err != nil:
			return "", err
		case d < ne:
			return "", fmt.Errorf("%s: a message's dependency index %d names an enum", name, d)
		case d < ne+nm:
			return r.msgs[d-ne].FullName(), nil
		case d >= len(r.goTypes) || r.goTypes[d] == nil:
			return "", fmt.Errorf("%s: dependency index %d: no Go type", name, d)
		}
		return rd.messageOfGoTypeT(r.goTypes[d])
	}
	want := func(what string, got protoreflect.FullName, err error, desc protoreflect.FullName) error {
		if err != nil {
			return err
		}
		if got != desc {
			return fmt.Errorf("%s: %s resolves to %s, the descriptor names %s", name, what, got, desc)
		}
		return nil
	}
	dep := 0
	for _, md := range r.msgs {
		for i := 0; i < md.Fields().Len(); i++ {
			fd := md.Fields().Get(i)
			var err error
			switch fd.Kind() {
			case protoreflect.EnumKind:
				got, e := enumAt(listFieldDeps, dep)
				err = want(string(fd.FullName()), got, e, fd.Enum().FullName())
			case protoreflect.MessageKind, protoreflect.GroupKind:
				got, e := msgAt(listFieldDeps, dep)
				err = want(string(fd.FullName()), got, e, fd.Message().FullName())
			default:
				continue
			}
			if err != nil {
				return err
			}
			dep++
		}
	}
	dep = 0
	for i, xd := range r.exts {
		got, e := msgAt(listExtTargets, i)
		if err := want(string(xd.FullName())+"'s extendee", got, e, xd.ContainingMessage().FullName()); err != nil {
			return err
		}
		var err error
		switch xd.Kind() {
		case protoreflect.EnumKind:
			got, e := enumAt(listExtDeps, dep)
			err = want(string(xd.FullName()), got, e, xd.Enum().FullName())
		case protoreflect.MessageKind, protoreflect.GroupKind:
			got, e := msgAt(listExtDeps, dep)
			err = want(string(xd.FullName()), got, e, xd.Message().FullName())
		default:
			continue
		}
		if err != nil {
			return err
		}
		dep++
	}
	dep = 0
	for i := 0; i < r.fd.Services().Len(); i++ {
		sd := r.fd.Services().Get(i)
		for j := 0; j < sd.Methods().Len(); j++ {
			md := sd.Methods().Get(j)
			in, e := msgAt(listMethInDeps, dep)
			if err := want(string(md.FullName())+"'s input", in, e, md.Input().FullName()); err != nil {
				return err
			}
			out, e := msgAt(listMethOutDeps, dep)
			if err := want(string(md.FullName())+"'s output", out, e, md.Output().FullName()); err != nil {
				return err
			}
			dep++
		}
	}
	return nil
}

// linked maps the Go types of the messages and enums linked into mcpt
// (the well-known types) to their full names: PKGPATH.NAME.
var linked = sync.OnceValue(func() map[string]protoreflect.FullName {
	m := map[string]protoreflect.FullName{}
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		t := reflect.TypeOf(mt.Zero().Interface())
		if t.Kind() == reflect.Pointer {
			m["*"+t.Elem().PkgPath()+"."+t.Elem().Name()] = mt.Descriptor().FullName()
		}
		return true
	})
	protoregistry.GlobalTypes.RangeEnums(func(et protoreflect.EnumType) bool {
		t := reflect.TypeOf(et.New(0))
		m[t.PkgPath()+"."+t.Name()] = et.Descriptor().FullName()
		return true
	})
	return m
})

// enumOfGoType is the full name of the enum whose Go type is t, as its
// Descriptor method gives it: file_NAME_proto_enumTypes[i].Descriptor().
func (rd *reading) enumOfGoType(t types.Type) (protoreflect.FullName, error) {
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", fmt.Errorf("the Go type %s is no enum", t)
	}
	p := rd.pkgs[n.Obj().Pkg().Path()]
	if p == nil {
		if fn, ok := linked()[n.Obj().Pkg().Path()+"."+n.Obj().Name()]; ok {
			return fn, nil
		}
		return "", fmt.Errorf("the Go type %s: no descriptor known", t)
	}
	fn := p.funcs[n.Obj().Name()+".Descriptor"]
	if fn == nil || len(fn.Body.List) != 1 {
		return "", fmt.Errorf("%s.Descriptor: not written by the generator", n.Obj().Name())
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return "", fmt.Errorf("%s.Descriptor: not written by the generator", n.Obj().Name())
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", fmt.Errorf("%s.Descriptor: not written by the generator", n.Obj().Name())
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Descriptor" {
		return "", fmt.Errorf("%s.Descriptor: not written by the generator", n.Obj().Name())
	}
	r, i, err := p.infoIndex(sel.X, p.byEnumInfos)
	if err != nil {
		return "", fmt.Errorf("%s.Descriptor: %v", n.Obj().Name(), err)
	}
	if r.fd == nil || i >= len(r.enums) {
		return "", fmt.Errorf("%s.Descriptor: enum %d of %d", n.Obj().Name(), i, len(r.enums))
	}
	return r.enums[i].FullName(), nil
}

// infoIndex reads VAR[i] of a builder's infos.
func (p *srcPkg) infoIndex(e ast.Expr, by map[*types.Var]*fileReading) (*fileReading, int, error) {
	ix, ok := e.(*ast.IndexExpr)
	if !ok {
		return nil, 0, fmt.Errorf("%s: not an index", nodeString(e))
	}
	id, ok := ix.X.(*ast.Ident)
	if !ok {
		return nil, 0, fmt.Errorf("%s: not an index", nodeString(e))
	}
	v, _ := p.info.Uses[id].(*types.Var)
	r := by[v]
	tv := p.info.Types[ix.Index]
	if r == nil || tv.Value == nil {
		return nil, 0, fmt.Errorf("%s: not a builder's infos", nodeString(e))
	}
	i, exact := constant.Int64Val(tv.Value)
	if !exact || i < 0 {
		return nil, 0, fmt.Errorf("%s: index %s", nodeString(e), tv.Value)
	}
	return r, int(i), nil
}

// messageOfGoTypeT is the full name of the message whose Go type is t, a
// pointer to a message type.
func (rd *reading) messageOfGoTypeT(t types.Type) (protoreflect.FullName, error) {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return "", fmt.Errorf("the Go type %s is no message", t)
	}
	n, ok := ptr.Elem().(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", fmt.Errorf("the Go type %s is no message", t)
	}
	p := rd.pkgs[n.Obj().Pkg().Path()]
	if p == nil {
		if fn, ok := linked()["*"+n.Obj().Pkg().Path()+"."+n.Obj().Name()]; ok {
			return fn, nil
		}
		return "", fmt.Errorf("the Go type %s: no descriptor known", t)
	}
	md, err := rd.messageOfGoType(p, n.Obj().Name())
	if err != nil {
		return "", err
	}
	return md.FullName(), nil
}

// messageOfGoType is the descriptor the ProtoReflect method of the
// message type name of p gives: mi := &file_NAME_proto_msgTypes[i].
func (rd *reading) messageOfGoType(p *srcPkg, name string) (protoreflect.MessageDescriptor, error) {
	fn := p.funcs[name+".ProtoReflect"]
	if fn == nil || len(fn.Body.List) == 0 {
		return nil, fmt.Errorf("%s.ProtoReflect: not written by the generator", name)
	}
	as, ok := fn.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Rhs) != 1 {
		return nil, fmt.Errorf("%s.ProtoReflect: not written by the generator", name)
	}
	u, ok := as.Rhs[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, fmt.Errorf("%s.ProtoReflect: not written by the generator", name)
	}
	r, i, err := p.infoIndex(u.X, p.byMsgInfos)
	if err != nil {
		return nil, fmt.Errorf("%s.ProtoReflect: %v", name, err)
	}
	if r.fd == nil || i >= len(r.msgs) || i+len(r.enums) >= len(r.goTypes) || r.goTypes[len(r.enums)+i] == nil {
		return nil, fmt.Errorf("%s.ProtoReflect: message %d has no Go type", name, i)
	}
	return r.msgs[i], nil
}

// staticGo is the probe.GoSide of a static reading.
type staticGo struct {
	rd      *reading
	pkg     *srcPkg
	byName  map[protoreflect.FullName]string
	getters map[string]map[string]string
	// err is the first getter the reading could not evaluate.
	err error
}

func (g *staticGo) GoType(md protoreflect.MessageDescriptor) string { return g.byName[md.FullName()] }

func (g *staticGo) Get(goType string, fd protoreflect.FieldDescriptor) (string, string) {
	name := g.getters[goType][string(fd.Name())]
	if name == "" || g.err != nil {
		return "", ""
	}
	obj := g.pkg.pkg.Scope().Lookup(goType)
	if obj == nil {
		g.err = fmt.Errorf("no Go type %s", goType)
		return "", ""
	}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	sel := ms.Lookup(g.pkg.pkg, name)
	if sel == nil {
		return "", ""
	}
	sig := sel.Obj().Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return "", ""
	}
	got, err := g.rd.getter(g.pkg, goType, name, sig.Results().At(0).Type())
	if err != nil {
		g.err = fmt.Errorf("%s.%s: %v", goType, name, err)
		return "", ""
	}
	return name, got
}
