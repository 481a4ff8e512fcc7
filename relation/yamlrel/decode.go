package yamlrel

// The decode pass: a loader reads the relation files of a load, each
// once, with the files they include, into the structs of schema.go, and
// defines what each defines (defs.go); compile.go then compiles the
// relations.

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/snapshot"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
)

// Load compiles the relations of the relation files names in fsys, and of
// every file they include. Names are slash-separated paths in fsys; an
// include is read relative to the file that names it, and one that leaves
// fsys is an error. Errors carry file:line:col, the file named as fsys's
// DisplayName(name string) string method names it, when it has one.
func Load(fsys fs.FS, names ...string) ([]*relation.Relation, error) {
	return LoadWith(Options{}, fsys, names...)
}

// Options are what loading relation files may take besides the files.
type Options struct {
	// Generic are the words the transpiler writes of its own (the
	// configuration's signature.generic): a declaration named so is no
	// neighbour of order and no sibling of analogy, whose lines cannot be
	// told from the generator's.
	Generic []string
	// CheckerKinds are checker kinds the files may use besides
	// CheckerKinds (a kind written in Go, such as relation/protorel's).
	CheckerKinds []CheckerKind
	// Parsers are the parsers the files may name by their name
	// (`syntax: typescript`) besides mcpt's own grammars (syntax/lang's
	// Builtin), such as the tree-sitter TypeScript grammar.
	Parsers *syntax.Parsers
	// Warn, when set, is given each warning of the loading, as
	// "file:line:col: message": a key written with its old name (which
	// loads as the new one), once per key written.
	Warn func(warning string)
}

// LoadWith is Load with options.
func LoadWith(o Options, fsys fs.FS, names ...string) ([]*relation.Relation, error) {
	l := newLoader(fsys)
	var err error
	if l.checkers, err = checkerKinds(o.CheckerKinds); err != nil {
		return nil, err
	}
	if l.parsers, err = lang.With(o.Parsers); err != nil {
		return nil, err
	}
	for _, w := range o.Generic {
		if l.d.generic == nil {
			l.d.generic = map[string]bool{}
		}
		l.d.generic[w] = true
	}
	for _, name := range names {
		display := name
		if d, ok := fsys.(interface{ DisplayName(string) string }); ok {
			display = d.DisplayName(name)
		}
		l.loadFile(name, display, yamlpos.Pos{})
	}
	rels := l.compile().relations
	if o.Warn != nil {
		l.warns.Sort()
		for _, w := range l.warns {
			o.Warn(w.Error())
		}
	}
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return rels, nil
}

// LoadFiles is Load for relation files on disk, named by path.
func LoadFiles(paths ...string) ([]*relation.Relation, error) {
	return LoadFilesWith(Options{}, paths...)
}

// LoadFilesWith is LoadFiles with options.
func LoadFilesWith(o Options, paths ...string) ([]*relation.Relation, error) {
	r := snapshot.NewReader()
	names := make([]string, len(paths))
	for i, p := range paths {
		name, err := r.FSName(p)
		if err != nil {
			return nil, err
		}
		names[i] = name
	}
	return LoadWith(o, r.FS(), names...)
}

// loader reads the relation files of a load (the decode pass) and
// defines what they define in d; compile then compiles their relations.
type loader struct {
	d        *defs
	checkers map[string]CheckerKind // the kinds the checks may name
	seen     map[string]bool
	rels     []pendingRel
	fsys     fs.FS
	parsers  *syntax.Parsers // those syntax: may name
	// errs are the errors of every file read: one loading reports all;
	// warns the warnings (old spellings).
	errs, warns yamlpos.ErrorList
}

// newLoader is a loader of the files of fsys, its checks of the kinds
// CheckerKinds, its syntax: of mcpt's own grammars.
func newLoader(fsys fs.FS) *loader {
	checkers, _ := checkerKinds(nil) // CheckerKinds are sound (TestCheckerKindsDoc)
	parsers, _ := lang.With(nil)     // mcpt's own grammars: one of each name
	return &loader{d: newDefs(), checkers: checkers, seen: map[string]bool{}, fsys: fsys, parsers: parsers}
}

type pendingRel struct {
	r relYAML
}

// loadFile reads the relation file name of l.fsys, shown in messages as
// display, and the files it includes; from is the include that names it.
// Its errors go to l.errs, and it goes on past every one it can.
func (l *loader) loadFile(name, display string, from yamlpos.Pos) {
	if l.seen[name] {
		return // included twice: definitions are already there
	}
	l.seen[name] = true
	data, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		if from.File != "" {
			l.errs.Add(yamlpos.Errorf(from, "cannot include: %v", err))
		} else {
			l.errs.AddError(err)
		}
		return
	}
	var f fileYAML
	errs, ok := yamlpos.DecodeAllWarn(display, data, &f, &l.warns)
	l.errs = append(l.errs, errs...)
	if !ok {
		return
	}
	for _, inc := range f.Include {
		iname, idisplay := l.includeName(name, display, inc.Value)
		if !fs.ValidPath(iname) {
			l.errs.Add(yamlpos.Errorf(inc.Pos, "cannot include %s: it is not among the relation files", inc.Value))
			continue
		}
		l.loadFile(iname, idisplay, inc.Pos)
	}
	l.errs.AddError(l.setSyntax(name, display, f.Syntax))
	l.errs.AddError(l.d.add(&f))
	for _, r := range f.Relations {
		l.rels = append(l.rels, pendingRel{r: r})
	}
}

// includeName is the name and the display name of the file that the file
// name (shown as display) includes as inc. An absolute inc names a file
// only in a file set of the disk, one with a method PathName(path string)
// (string, error) that names the file at a path; elsewhere it names none.
func (l *loader) includeName(name, display, inc string) (string, string) {
	if filepath.IsAbs(inc) {
		if d, ok := l.fsys.(interface{ PathName(string) (string, error) }); ok {
			if n, err := d.PathName(inc); err == nil {
				return n, inc
			}
		}
		return "", inc
	}
	return path.Join(path.Dir(name), filepath.ToSlash(inc)), filepath.Join(filepath.Dir(display), inc)
}

// setSyntax resolves `syntax:` of the relation file name (display in
// messages): the name of a parser of the load, or a grammar file (a value
// ending in .grammar) relative to the relation file, read from the file set
// the relations are loaded from and read as a parser (grammar.NewParser).
func (l *loader) setSyntax(name, display string, s *yamlpos.String) error {
	if s == nil {
		return nil
	}
	d := l.d
	var (
		p         syntax.Parser
		key, show = s.Value, s.Value
	)
	if strings.HasSuffix(s.Value, ".grammar") {
		gname, gdisplay := l.includeName(name, display, s.Value)
		if !fs.ValidPath(gname) {
			return s.At("syntax %q: the grammar is not among the relation files", s.Value)
		}
		key, show = gname, gdisplay
		if d.syntax != nil && d.syntax.key == key {
			return nil
		}
		data, err := fs.ReadFile(l.fsys, gname)
		if err != nil {
			return s.At("syntax %q: cannot read the grammar: %v", s.Value, err)
		}
		if p, err = grammarParser(gdisplay, data); err != nil {
			return s.At("syntax %q: %v", s.Value, err)
		}
	}
	if d.syntax != nil {
		if d.syntax.key != key {
			return s.At("syntax %q: the relations already use %q (first at %s)", s.Value, d.syntax.show, d.syntax.pos)
		}
		return nil
	}
	if p == nil {
		var ok bool
		if p, ok = l.parsers.Lookup(s.Value); !ok {
			d.sources["syntax "] = s.Pos // given, in error: no region says it is not
			return s.At("syntax: %v", lang.Missing(s.Value, l.parsers))
		}
	}
	d.syntax = &syntaxDef{parser: p, pos: s.Pos, key: key, show: show}
	return nil
}

// grammarParsers caches the parsers of grammar files by display name and
// content: loading the same relations again (a campaign's shards, resumes,
// tests) compiles each grammar once.
var (
	grammarMu      sync.Mutex
	grammarParsers = map[string]*grammar.Parser{}
)

const grammarCacheSize = 16

// grammarParser is the parser of the grammar file display with content data.
func grammarParser(display string, data []byte) (*grammar.Parser, error) {
	key := display + "\x00" + string(data)
	grammarMu.Lock()
	p, ok := grammarParsers[key]
	grammarMu.Unlock()
	if ok {
		return p, nil
	}
	g, err := grammar.Parse(display, data)
	if err != nil {
		return nil, err
	}
	p = grammar.NewParser(g)
	grammarMu.Lock()
	defer grammarMu.Unlock()
	if len(grammarParsers) >= grammarCacheSize {
		clear(grammarParsers)
	}
	grammarParsers[key] = p
	return p, nil
}
