package faultinject

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// runtimeFS holds the source of the runtime package that is copied into
// every instrumented module.
//
//go:embed mcptfault/*.go
var runtimeFS embed.FS

// RuntimeDir is where the runtime package goes in the instrumented copy,
// relative to the module root; it is imported as <module>/internal/mcptfault.
const RuntimeDir = "internal/mcptfault"

// ForwarderFile is the file added to each instrumented package; it declares
// the package-level function the rewritten conditions call, so that no
// import has to be added to the rewritten files.
const ForwarderFile = "zz_mcptfault.go"

// ManifestFile is the name of the manifest in the instrumented copy.
const ManifestFile = "mcptfault-manifest.json"

// Options says what Instrument instruments and where the copy goes.
type Options struct {
	// ModuleDir is the root of the Go module to instrument (it holds go.mod).
	ModuleDir string
	// OutDir receives the instrumented copy of the whole module; it must
	// not exist or be empty, and may not be ModuleDir.
	OutDir string
	// Packages are `go list` patterns, relative to ModuleDir, of the
	// packages to instrument, such as "./cll/..."; none means "./...".
	// Packages of other modules cannot be instrumented.
	Packages []string
	// Main, when set, is the main package to build in the copy, such as
	// "./cmd/cllc"; the binary goes to Binary, or OutDir/bin/<name>.
	Main   string
	Binary string
	// Manifest is where the manifest is written; empty means
	// OutDir/mcptfault-manifest.json.
	Manifest string
	// Progress, when set, is told of each step as it goes: "copying",
	// "instrumenting" (done of total packages) and "building".
	Progress func(step, unit string, done, total int)
}

// Instrument copies a Go module to opts.OutDir and rewrites every branch of
// the non-test files of the selected packages so that each can be forced
// true or false by fault id at run time: the conditions of if and for
// statements, the case clauses of expression switches and the operands of
// && and ||. The rewriting is done by byte offset on the original text —
// insertions, plus in switches the commas of a case list turned into ||
// and the tag turned into an init statement — so comments, layout and line
// numbers stay as they were. Type switches, constant declarations, cgo
// packages, && and || of a boolean type other than bool, and switches with
// both an init statement and a tag that may have side effects are left
// alone and listed in Manifest.Skipped. Instrument writes the manifest,
// builds opts.Main if set, and returns the manifest.
func Instrument(ctx context.Context, opts Options) (*Manifest, error) {
	src, out, err := instrumentDirs(opts)
	if err != nil {
		return nil, err
	}
	patterns := opts.Packages
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	mod, pkgs, exports, err := listPackages(ctx, src, patterns)
	if err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	if _, err := os.Stat(filepath.Join(src, filepath.FromSlash(RuntimeDir))); err == nil {
		return nil, fmt.Errorf("instrument: %s already exists in the module", RuntimeDir)
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string, string, int, int) {}
	}
	progress("copying", "", 0, 0)
	if err := copyTree(src, out); err != nil {
		return nil, fmt.Errorf("instrument: copying the module: %w", err)
	}
	m := &Manifest{Version: ManifestVersion, Module: mod.Path, Source: src, Dir: out, Sites: []Site{}}
	if err := m.instrumentPackages(mod, pkgs, exports, progress); err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	if err := writeRuntime(filepath.Join(out, filepath.FromSlash(RuntimeDir))); err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	if opts.Main != "" {
		if m.Binary, err = buildMain(ctx, opts, out, progress); err != nil {
			return nil, err
		}
	}
	mf := opts.Manifest
	if mf == "" {
		mf = filepath.Join(out, ManifestFile)
	}
	if err := m.Write(mf); err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	return m, nil
}

// instrumentDirs gives the absolute module and output directories of
// opts, the output directory made empty.
func instrumentDirs(opts Options) (src, out string, err error) {
	if opts.ModuleDir == "" || opts.OutDir == "" {
		return "", "", errors.New("instrument: the module directory and the output directory are required")
	}
	if src, err = filepath.Abs(opts.ModuleDir); err != nil {
		return "", "", err
	}
	if out, err = filepath.Abs(opts.OutDir); err != nil {
		return "", "", err
	}
	if src == out {
		return "", "", errors.New("instrument: the output directory is the module directory")
	}
	if err := emptyDir(out); err != nil {
		return "", "", fmt.Errorf("instrument: %w", err)
	}
	return src, out, nil
}

// instrumentPackages rewrites pkgs of mod from m.Source into the copy in
// m.Dir, type-checking them against the export data of their imports, and
// adds their sites and skips to m.
func (m *Manifest) instrumentPackages(mod *listModule, pkgs []*listPackage, exports map[string]string, progress func(step, unit string, done, total int)) error {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
	for i, p := range pkgs {
		progress("instrumenting", "packages", i, len(pkgs))
		if len(p.CgoFiles) > 0 {
			m.Skipped = append(m.Skipped, Skip{Pos: p.ImportPath, Reason: "packages using cgo are not instrumented"})
			continue
		}
		sites, skips, err := instrumentPackage(fset, imp, mod, p, m.Source, m.Dir, len(m.Sites))
		if err != nil {
			return err
		}
		m.Packages = append(m.Packages, p.ImportPath)
		m.Sites = append(m.Sites, sites...)
		m.Skipped = append(m.Skipped, skips...)
		progress("instrumenting", "packages", i+1, len(pkgs))
	}
	return nil
}

// buildMain builds opts.Main of the instrumented copy in out into
// opts.Binary, by default out/bin/NAME, and returns its absolute path.
func buildMain(ctx context.Context, opts Options, out string, progress func(step, unit string, done, total int)) (string, error) {
	bin := opts.Binary
	if bin == "" {
		bin = filepath.Join(out, "bin", path.Base(filepath.ToSlash(opts.Main)))
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		return "", err
	}
	progress("building", "", 0, 0)
	if err := Build(ctx, out, opts.Main, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// Build builds the main package pkg (a pattern relative to dir, such as
// "./cmd/cllc") of the instrumented copy in dir into bin, with -trimpath.
func Build(ctx context.Context, dir, pkg, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s in %s: %v\n%s", pkg, dir, err, b)
	}
	return nil
}

// instrumentPackage rewrites the files of p into the copy and adds the
// forwarder; its sites are numbered from first on.
func instrumentPackage(fset *token.FileSet, imp types.Importer, mod *listModule, p *listPackage, src, out string, first int) ([]Site, []Skip, error) {
	var files []*ast.File
	texts := map[*ast.File][]byte{}
	for _, name := range p.GoFiles {
		b, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), b, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		texts[f] = b
	}
	if err := checkNames(fset, files, p); err != nil {
		return nil, nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: imp}
	if mod.GoVersion != "" {
		conf.GoVersion = "go" + mod.GoVersion
	}
	if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
		return nil, nil, fmt.Errorf("type-checking %s: %w", p.ImportPath, err)
	}

	var sites []Site
	var skips []Skip
	for i, f := range files {
		abs := filepath.Join(p.Dir, p.GoFiles[i])
		rel, err := filepath.Rel(src, abs)
		if err != nil {
			return nil, nil, err
		}
		w := newFileRewriter(fset, f, texts[f], filepath.ToSlash(rel), info)
		s, text, err := w.rewrite(first + len(sites))
		if err != nil {
			return nil, nil, err
		}
		if _, err := parser.ParseFile(token.NewFileSet(), abs, text, parser.SkipObjectResolution); err != nil {
			return nil, nil, fmt.Errorf("internal error: the instrumented %s does not parse: %w", rel, err)
		}
		if len(s) > 0 {
			if err := os.WriteFile(filepath.Join(out, rel), text, 0o644); err != nil {
				return nil, nil, err
			}
		}
		sites = append(sites, s...)
		skips = append(skips, w.skips...)
	}
	if len(sites) > 0 {
		rel, _ := filepath.Rel(src, p.Dir)
		fw := filepath.Join(out, rel, ForwarderFile)
		if err := os.WriteFile(fw, forwarder(p.Name, mod.Path+"/"+RuntimeDir), 0o644); err != nil {
			return nil, nil, err
		}
	}
	return sites, skips, nil
}

// checkNames refuses a package that already uses a name the
// instrumentation adds.
func checkNames(fset *token.FileSet, files []*ast.File, p *listPackage) error {
	if _, err := os.Stat(filepath.Join(p.Dir, ForwarderFile)); err == nil {
		return fmt.Errorf("%s: %s already exists", p.ImportPath, ForwarderFile)
	}
	var err error
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && err == nil && (id.Name == forwarderName || id.Name == tagVarName) {
				err = fmt.Errorf("%s: the package already uses the name %s", fset.Position(id.Pos()), id.Name)
			}
			return err == nil
		})
	}
	return err
}

// forwarder is the source of the file that connects an instrumented
// package to the runtime.
func forwarder(pkgName, runtimePath string) []byte {
	return fmt.Appendf(nil, `// Code generated by mcpt faultinject. DO NOT EDIT.

package %s

import mcptfault %q

// %s returns c, or the value forced at branch site when a fault of that
// site is active. It is generic so that conditions of named boolean types
// keep their type.
func %s[T ~bool](site int, c T) T {
	return T(mcptfault.B(site, bool(c)))
}
`, pkgName, runtimePath, forwarderName, forwarderName)
}

// writeRuntime writes the runtime package, without its tests, to dir.
func writeRuntime(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := runtimeFS.ReadDir("mcptfault")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := runtimeFS.ReadFile("mcptfault/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// listModule and listPackage hold the parts of `go list -json` we use.
type listModule struct {
	Path      string
	Dir       string
	Main      bool
	GoVersion string
}

type listPackage struct {
	ImportPath string
	Name       string
	Dir        string
	Export     string
	GoFiles    []string
	CgoFiles   []string
	DepOnly    bool
	Module     *listModule
	ImportMap  map[string]string
	Error      *struct{ Err string }
}

// listPackages resolves the patterns in the module at dir and returns the
// module, the packages to instrument (sorted by import path) and the export
// data files of them and of all their dependencies.
func listPackages(ctx context.Context, dir string, patterns []string) (*listModule, []*listPackage, map[string]string, error) {
	args := append([]string{"list", "-export", "-deps",
		"-json=ImportPath,Name,Dir,Export,GoFiles,CgoFiles,DepOnly,Module,ImportMap,Error", "--"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, stderr.Bytes())
	}
	var mod *listModule
	var pkgs []*listPackage
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	for {
		p := new(listPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, nil, nil, fmt.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
		if p.DepOnly || p.Name == "mcptfault" && strings.HasSuffix(p.ImportPath, "/mcptfault") {
			continue // a dependency, or a copy of the runtime
		}
		if p.Module == nil || !p.Module.Main {
			return nil, nil, nil, fmt.Errorf("package %s is not in the module at %s", p.ImportPath, dir)
		}
		mod = p.Module
		pkgs = append(pkgs, p)
	}
	// Imports as written in the source, where they differ (vendoring).
	for _, p := range pkgs {
		for from, to := range p.ImportMap {
			if e, ok := exports[to]; ok {
				exports[from] = e
			}
		}
	}
	if mod == nil {
		return nil, nil, nil, fmt.Errorf("no package matches %s", strings.Join(patterns, " "))
	}
	if same, err := sameDir(mod.Dir, dir); err != nil || !same {
		return nil, nil, nil, fmt.Errorf("%s is not the root of module %s (%s is)", dir, mod.Path, mod.Dir)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	return mod, pkgs, exports, nil
}

func sameDir(a, b string) (bool, error) {
	x, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	y, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(x, y), nil
}

// emptyDir creates dir, or checks that it is an empty directory.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("output directory %s is not empty", dir)
	}
	return nil
}

// copyTree copies the module at src to dst, leaving out version-control
// directories and dst itself when it lies inside src. Symbolic links are
// copied as links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if p == dst || (rel != "." && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(p, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
