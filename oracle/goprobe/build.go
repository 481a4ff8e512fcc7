package goprobe

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpt-tool/mcpt/tree"
)

//go:embed probe/dump.go
var dumpSource []byte

// RuntimeModule is the module of protoc-gen-go's runtime, which the
// generated code imports.
const RuntimeModule = "google.golang.org/protobuf"

// Time limits: fetching and building the runtime once per campaign, then
// each check's build and run.
const (
	prepareTimeout = 10 * time.Minute
	buildTimeout   = 5 * time.Minute
	runTimeout     = time.Minute
)

// module is the temporary module of one check: the Go packages of each
// side, renamed under mcpt.probe/SIDE/pN, and a main that dumps both.
type module struct {
	files map[string][]byte
	// roots are the packages under test, per side (o, f); sides are the
	// sides the probe dumps, in order (both, or f alone when o's shape is
	// known).
	roots map[string]*goPackage
	sides []string
}

// sideFiles lays out the package of file in t and the packages of the
// tree it imports, transitively, under mcpt.probe/side/pN, their imports
// rewritten to those paths. A package the output tree does not hold (other
// than the standard library's and the runtime's) is an error: nothing to
// build it from.
func (m *module) side(t tree.Tree, file, side string) error {
	// The tree's Go packages, by directory and name; by name, for the
	// imports.
	pkgs := map[string]*goPackage{}
	byName := map[string][]*goPackage{}
	for _, n := range t.Names() {
		if !strings.HasSuffix(n, ".go") {
			continue
		}
		g, err := readGoFile(n, t[n])
		if err != nil {
			continue
		}
		key := path.Dir(n) + "\x00" + g.pkg
		if pkgs[key] != nil {
			continue
		}
		p, err := packageOf(t, n)
		if err != nil {
			continue
		}
		pkgs[key] = p
		byName[p.name] = append(byName[p.name], p)
	}
	root, err := packageOf(t, file)
	if err != nil {
		return err
	}
	if p := pkgs[root.dir+"\x00"+root.name]; p != nil {
		// The same package, its file under test first.
		for i, g := range p.files {
			if g.name == file {
				p.files[0], p.files[i] = p.files[i], p.files[0]
			}
		}
		root = p
	}
	m.roots[side] = root
	index := map[*goPackage]string{}
	importPath := func(p *goPackage) string {
		if ip, ok := index[p]; ok {
			return ip
		}
		ip := fmt.Sprintf("mcpt.probe/%s/p%d", side, len(index))
		index[p] = ip
		return ip
	}
	queue := []*goPackage{root}
	importPath(root)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		dir := strings.TrimPrefix(index[p], "mcpt.probe/")
		for _, g := range p.files {
			src := t[g.name]
			var out bytes.Buffer
			last := 0
			for _, im := range g.imports {
				if stdlib(im.path) || im.path == RuntimeModule || strings.HasPrefix(im.path, RuntimeModule+"/") {
					continue
				}
				var dep *goPackage
				for _, c := range byName[im.name] {
					if c == p {
						continue
					}
					if dep != nil {
						return fmt.Errorf("%s imports %s, which more than one package of the output could be", g.name, im.path)
					}
					dep = c
				}
				if dep == nil {
					return fmt.Errorf("%s imports %s, which the output tree does not hold", g.name, im.path)
				}
				if _, ok := index[dep]; !ok {
					queue = append(queue, dep)
				}
				out.Write(src[last:im.start])
				fmt.Fprintf(&out, "%q", importPath(dep))
				last = im.end
			}
			out.Write(src[last:])
			m.files[dir+"/"+path.Base(g.name)] = out.Bytes()
		}
	}
	return nil
}

// stdlib tells an import path of the standard library (no dot in its
// first element).
func stdlib(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// main writes the program that dumps both sides.
func (m *module) main() []byte { return m.mainFor(m.sides...) }

// mainFor writes the program that dumps the sides named.
func (m *module) mainFor(sides ...string) []byte {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"google.golang.org/protobuf/proto\"\n\n\t\"mcpt.probe/probe\"\n")
	for _, s := range slices.Compact(slices.Clone(sides)) {
		fmt.Fprintf(&b, "\t%s \"mcpt.probe/%s/p0\"\n", s, s)
	}
	b.WriteString(")\n\nfunc main() {\n\tprobe.Dump(\n")
	for _, s := range sides {
		g := m.roots[s].files[0]
		var msgs []string
		for _, t := range g.messages {
			msgs = append(msgs, fmt.Sprintf("&%s.%s{}", s, t))
		}
		fmt.Fprintf(&b, "\t\tprobe.Side{File: %s.%s, Messages: []proto.Message{%s}, Getters: %#v},\n", s, g.fileVar, strings.Join(msgs, ", "), g.getters)
	}
	b.WriteString("\t)\n}\n")
	return []byte(b.String())
}

// goMod is the module's go.mod: the runtime at version.
func goMod(name, version string) []byte {
	return fmt.Appendf(nil, "module %s\n\ngo 1.21\n\nrequire %s %s\n", name, RuntimeModule, version)
}

// runtimes are the runtime modules prepared, by go command and version:
// the go.sum lines a build needs, or why there are none.
var (
	runtimesMu sync.Mutex
	runtimes   = map[[2]string]*runtimeModule{}
)

type runtimeModule struct {
	once sync.Once
	sum  []byte
	err  error
	// exp is the export data of the static readings (exports).
	expOnce sync.Once
	exp     *exportData
}

// runtimeFor is the runtime module of a go command and version, which
// prepare fetched.
func runtimeFor(goCmd, version string) *runtimeModule {
	runtimesMu.Lock()
	defer runtimesMu.Unlock()
	r := runtimes[[2]string{goCmd, version}]
	if r == nil {
		r = &runtimeModule{}
		runtimes[[2]string{goCmd, version}] = r
	}
	return r
}

// prepare fetches the runtime at version into the module cache (as the
// user's go command fetches: GOPROXY, GOFLAGS=-mod=mod) and builds the
// probe against it once, so that the builds of the checks find it in the
// module and build caches without the network. It returns the go.sum of
// the module.
func prepare(ctx context.Context, goCmd, version string) ([]byte, error) {
	r := runtimeFor(goCmd, version)
	r.once.Do(func() {
		r.sum, r.err = fetch(ctx, goCmd, version)
	})
	if r.err != nil && ctx.Err() != nil {
		// Cut short by the campaign's end, not a verdict on the runtime.
		runtimesMu.Lock()
		delete(runtimes, [2]string{goCmd, version})
		runtimesMu.Unlock()
	}
	return r.sum, r.err
}

func fetch(ctx context.Context, goCmd, version string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "mcpt-goprobe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files := map[string][]byte{
		"go.mod":        goMod("mcpt.probe", version),
		"probe/dump.go": dumpSource,
		"main/main.go":  []byte("package main\n\nimport \"mcpt.probe/probe\"\n\nfunc main() { probe.Dump() }\n"),
	}
	if err := writeFiles(dir, files); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, prepareTimeout)
	defer cancel()
	if out, err := goCommand(ctx, goCmd, dir, true, "build", "-o", os.DevNull, "./..."); err != nil {
		return nil, fmt.Errorf("preparing %s %s: %v: %s", RuntimeModule, version, err, lastLines(out, 6))
	}
	return os.ReadFile(filepath.Join(dir, "go.sum"))
}

func writeFiles(dir string, files map[string][]byte) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// goCommand runs the go command in dir: the module mode of a build that
// resolves what go.mod lacks (GOFLAGS=-mod=mod), the local toolchain, no
// workspace, no cgo (no C compiler runs for the output), and with online
// false no network (GOPROXY=off: the runtime is in the module cache). Its
// process group is killed when ctx ends.
func goCommand(ctx context.Context, goCmd, dir string, online bool, args ...string) ([]byte, error) {
	out, err := goCmdFor(ctx, goCmd, dir, online, args...).CombinedOutput()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

// goCmdFor is the command goCommand runs.
func goCmdFor(ctx context.Context, goCmd, dir string, online bool, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0", "GO111MODULE=on")
	if !online {
		env = append(env, "GOPROXY=off", "GOSUMDB=off")
	}
	cmd.Env = env
	setGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	started.Add(1)
	return cmd
}

// lastLines is the end of an output, at most n lines, on one line.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// buildErrorRE finds the file of a compiler error: SIDE/pN/FILE.go:L:C.
var buildErrorRE = regexp.MustCompile(`(?m)^(?:\./)?(o|f)/p\d+/([^:\s]+\.go):\d+(?::\d+)?: (.*)$`)

// blame says which sides a failed build's errors are in, and the
// errors, the side's prefix taken away.
func blame(out []byte) (sides map[string][]string) {
	sides = map[string][]string{}
	for _, m := range buildErrorRE.FindAllSubmatch(out, -1) {
		s := string(m[1])
		sides[s] = append(sides[s], string(m[2])+": "+string(m[3]))
	}
	return sides
}

// build builds and runs the probe of one check in a temporary directory,
// removed afterwards, and returns what it printed.
func build(ctx context.Context, goCmd string, m *module, sum []byte, version string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "mcpt-goprobe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files := map[string][]byte{"go.mod": goMod("mcpt.probe", version), "go.sum": sum, "probe/dump.go": dumpSource, "main.go": m.main()}
	for k, v := range m.files {
		files[k] = v
	}
	if err := writeFiles(dir, files); err != nil {
		return nil, err
	}
	bctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	bin := filepath.Join(dir, "probe.bin")
	if out, err := goCommand(bctx, goCmd, dir, false, "build", "-ldflags=-s -w", "-o", bin, "."); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &buildError{out: out, err: err}
	}
	rctx, cancel2 := context.WithTimeout(ctx, runTimeout)
	defer cancel2()
	cmd := exec.CommandContext(rctx, bin)
	started.Add(1)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANG_PROTOBUF_REGISTRATION_CONFLICT=ignore")
	setGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if rctx.Err() != nil {
			err = fmt.Errorf("no end within %s", runTimeout)
		}
		return nil, &runError{out: stderr.Bytes(), err: err}
	}
	return stdout.Bytes(), nil
}

type buildError struct {
	out []byte
	err error
}

func (e *buildError) Error() string {
	return fmt.Sprintf("go build: %v: %s", e.err, lastLines(e.out, 8))
}

type runError struct {
	out []byte
	err error
}

func (e *runError) Error() string {
	return fmt.Sprintf("the probe: %v: %s", e.err, lastLines(e.out, 8))
}
