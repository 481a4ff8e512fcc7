package goprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
)

// The static reading type-checks the Go of a side against the export
// data that the user's go command writes for the packages it imports (the
// runtime module's and the standard library's), as the compiler would
// read them: `go list -export` gives where each is in the build cache,
// once per campaign and package.

// exportData is the export data of the packages the static readings of
// one runtime (go command and version) imported, and importers that read
// it.
type exportData struct {
	mu sync.Mutex
	// files are the export data files by import path; missing says why
	// a path has none (go list failed for it).
	files   map[string]string
	missing map[string]string
	// idle are the importers no reading uses now: each keeps the
	// packages it imported, so that a reading imports each once; there
	// are never more than the readings running at once.
	idle []types.Importer
}

// exportsOf is the export data of the runtime module r.
func (r *runtimeModule) exports() *exportData {
	r.expOnce.Do(func() { r.exp = &exportData{files: map[string]string{}, missing: map[string]string{}} })
	return r.exp
}

// ensure has go list give the export data of the paths not asked for
// before, in one run, in a module requiring the runtime (offline: the
// module is in the module cache since prepare).
func (e *exportData) ensure(ctx context.Context, goCmd, version string, sum []byte, paths []string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ask []string
	for _, p := range paths {
		if _, ok := e.files[p]; ok {
			continue
		}
		if why, ok := e.missing[p]; ok {
			return fmt.Errorf("%s: %s", p, why)
		}
		ask = append(ask, p)
	}
	if len(ask) == 0 {
		return nil
	}
	slices.Sort(ask)
	ask = slices.Compact(ask)
	dir, err := os.MkdirTemp("", "mcpt-goprobe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeFiles(dir, map[string][]byte{"go.mod": goMod("mcpt.probe", version), "go.sum": sum}); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}, ask...)
	out, err := goCommandOut(ctx, goCmd, dir, args...)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("go list -export: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("go list -export: %v", err)
		}
		switch {
		case p.Error != nil:
			e.missing[p.ImportPath] = strings.TrimSpace(p.Error.Err)
		case p.Export == "":
			e.missing[p.ImportPath] = "no export data"
		default:
			e.files[p.ImportPath] = p.Export
		}
	}
	for _, p := range ask {
		if _, ok := e.files[p]; !ok {
			if _, ok := e.missing[p]; !ok {
				e.missing[p] = "not listed"
			}
			return fmt.Errorf("%s: %s", p, e.missing[p])
		}
	}
	return nil
}

// get takes an idle importer, or makes one.
func (e *exportData) get() types.Importer {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := len(e.idle); n > 0 {
		imp := e.idle[n-1]
		e.idle = e.idle[:n-1]
		return imp
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", e.open)
}

// put gives an importer back.
func (e *exportData) put(imp types.Importer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.idle = append(e.idle, imp)
}

// open opens the export data of path, which ensure listed.
func (e *exportData) open(path string) (io.ReadCloser, error) {
	e.mu.Lock()
	f, ok := e.files[path]
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	return os.Open(f)
}

// goCommandOut runs the go command offline, as goCommand does, and
// returns its standard output alone.
func goCommandOut(ctx context.Context, goCmd, dir string, args ...string) ([]byte, error) {
	cmd := goCmdFor(ctx, goCmd, dir, false, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if err != nil {
		return out, fmt.Errorf("%v: %s", err, lastLines(stderr.Bytes(), 6))
	}
	return out, nil
}
