package report

import (
	"path"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// bundleFacts is what report.html and junit.xml need of every finding's
// bundle, beyond the evidence of the few they show: whether its tree
// passes bundle.Reader.CheckTree, the command that reproduces it, and
// whether mcpt reduce wrote a bundle beside it. They are read once for
// both files, and for tens of thousands of bundles by a few readers at
// once: the time goes into the file system's calls, not into the CPU.
type bundleFacts struct {
	check    error // the verdict of CheckTree, or why the bundle could not be opened
	repro    string
	reproErr error
	// reduced is false when nothing is beside the bundle under the
	// name of its reduced bundle.
	reduced bool
}

// factSet holds the facts of the bundles of a report, by bundle path
// (bundleRel); nil when they were not read ahead, and every bundle is
// read where it is needed.
type factSet map[string]*bundleFacts

// bundleRel is the path of the bundle of f, relative to the output
// directory.
func bundleRel(f *result.Finding) string {
	if f.Bundle == "" {
		return bundle.Path(f.ID)
	}
	return f.Bundle
}

// readFacts reads the facts of the bundles of r's findings, below the
// output directory outDir (see bundle.OpenOutput); nil when the directory
// cannot be opened (the writers say why). Each directory of bundles
// (findings/, ../SHARD/findings/) is listed once and its bundles read
// through it (see bundle.Reader.ScanBundles); a bundle the scan leaves
// out is read on its own, as bundleFiles reads it.
func readFacts(outDir string, r *result.Report) factSet {
	out, err := bundle.OpenOutput(outDir)
	if err != nil {
		return nil
	}
	defer out.Close()
	set := make(factSet, len(r.Findings))
	byDir := map[string][]string{}
	for i := range r.Findings {
		if r.Findings[i].Counted {
			continue // no bundle
		}
		rel := bundleRel(&r.Findings[i])
		_, seen := set[rel]
		if dir, name := path.Split(rel); dir != "" && path.Join(dir, name) == rel && !seen {
			byDir[dir] = append(byDir[dir], name)
			set[rel] = nil
		}
	}
	for dir, names := range byDir {
		listed, scanned, err := out.ScanBundles(dir, names, bundle.ReproFile, maxRepro)
		if err != nil {
			continue
		}
		for name, s := range scanned {
			rel := dir + name
			fa := &bundleFacts{check: s.Tree}
			for _, red := range reducedRels(name) {
				fa.reduced = fa.reduced || listed[red]
			}
			fa.repro, fa.reproErr = reproOf(s.File, s.Size, s.Found, s.FileErr, filepath.Join(out.Dir(), filepath.FromSlash(rel)))
			set[rel] = fa
		}
	}
	var rels []string
	for i := range r.Findings {
		if r.Findings[i].Counted {
			continue
		}
		if rel := bundleRel(&r.Findings[i]); set[rel] == nil {
			rels = append(rels, rel)
		}
	}
	if len(rels) == 0 {
		return set
	}
	facts := make([]*bundleFacts, len(rels))
	workers := min(2*runtime.GOMAXPROCS(0), 8, len(rels))
	var wg sync.WaitGroup
	failed := make([]bool, workers)
	for w := range workers {
		wg.Go(func() {
			out, err := bundle.OpenOutput(outDir)
			if err != nil {
				failed[w] = true
				return
			}
			defer out.Close()
			for i := w; i < len(rels); i += workers {
				facts[i] = factsOf(out, rels[i])
			}
		})
	}
	wg.Wait()
	for _, f := range failed {
		if f {
			return nil
		}
	}
	for i, rel := range rels {
		set[rel] = facts[i]
	}
	return set
}

// factsOf reads the facts of the bundle at rel in out, as bundleFiles
// reads them.
func factsOf(out *bundle.Reader, rel string) *bundleFacts {
	b := openBundleAt(out, rel, nil)
	defer b.close()
	fa := &bundleFacts{check: b.check(), reduced: true}
	fa.repro, fa.reproErr = b.repro()
	fa.reduced = false
	for _, red := range reducedRels(rel) {
		if rb := openBundleAt(out, red, nil); rb.rd != nil || rb.err != nil {
			rb.close()
			fa.reduced = true
		}
	}
	return fa
}

// check is the verdict of bundle.Reader.CheckTree on the bundle of f in
// out, read ahead or now.
func (s factSet) check(out *bundle.Reader, f *result.Finding) error {
	if fa := s[bundleRel(f)]; fa != nil {
		return fa.check
	}
	b := openBundle(out, f, nil)
	defer b.close()
	return b.check()
}
