// Package report turns the result of a campaign into what people and CI
// read: a self-contained report.html with one section per group of
// findings (its smallest example, the outputs side by side with the
// unexpected difference marked, the input change and the command that
// reproduces it), a junit.xml with a suite per relation, and a JSON Lines
// stream of events while the campaign runs. Both files are built from
// report.json and the finding bundles alone, so that Rebuild can make them
// again after a merge, with byte-identical results for the same inputs.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// File names inside an output directory.
const (
	ReportJSON = "report.json"
	ReportHTML = "report.html"
	JUnitXML   = "junit.xml"
)

// Write writes report.html, the page of each group's example and
// junit.xml for r into outDir, report.html and junit.xml at once: what
// mcpt report writes.
func Write(outDir string, r *result.Report) error { return write(outDir, r, true) }

// WriteWithoutPages is Write without the pages, as a campaign and a merge
// write their report: report.html shows every group in full, and says
// that mcpt report adds the pages (a page holds the example's inputs and
// failing file in full, which its bundle holds too: 37 KB a group for
// Thrift's C++, a sixth of that campaign's output).
func WriteWithoutPages(outDir string, r *result.Report) error { return write(outDir, r, false) }

func write(outDir string, r *result.Report, pages bool) error {
	facts := readFacts(outDir, r)
	var html error
	var wg sync.WaitGroup
	wg.Go(func() { html = writeHTML(outDir, r, facts, pages) })
	junit := writeJUnit(outDir, r, facts)
	wg.Wait()
	return errors.Join(html, junit)
}

// openOutput opens the output directory outDir to read the bundles of its
// report (see bundle.OpenOutput).
func openOutput(outDir string) (*bundle.Reader, error) {
	out, err := bundle.OpenOutput(outDir)
	if err != nil {
		return nil, &InputError{err}
	}
	return out, nil
}

// InputError is an error in what a report is built from: report.json or
// a bundle that is damaged, refused or too large. Everything else (a write
// that failed) is not.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Rebuild reads outDir/report.json and writes report.html and junit.xml
// again from it and the bundles.
func Rebuild(outDir string) error {
	rd, err := bundle.Open(outDir)
	if err != nil {
		return err
	}
	defer rd.Close()
	r, err := rd.LoadReport(ReportJSON)
	if err != nil {
		return &InputError{err}
	}
	return Write(outDir, r)
}

// Bounds of what a report shows of a bundle, so that a bundle from
// elsewhere (a sparse file of 200 MiB, say) costs neither the memory nor
// a report of its size.
const (
	// maxShown is the most of one file or text the report shows; more is
	// cut, with a line saying so.
	maxShown = 256 << 10
	// maxPageShown is the most of the bundles' texts one report file
	// shows in all.
	maxPageShown = 8 << 20
	// maxFindingJSON is the largest finding.json whose evidence is read.
	maxFindingJSON = 64 << 20
	// maxRepro is the most of a bundle's repro.txt a report shows.
	maxRepro = 4 << 10
)

// budget is what is left of the text one report file shows of the
// bundles.
type budget struct{ left int64 }

func newBudget() *budget { return &budget{left: maxPageShown} }

// shown cuts s (of size bytes in all) to what is left of the budget, at
// most maxShown bytes, saying so in a last line.
func (bu *budget) shown(s string, size int64) string {
	limit := min(int64(maxShown), bu.left)
	if int64(len(s)) > limit {
		s = s[:limit]
	}
	bu.left -= int64(len(s))
	switch {
	case size <= int64(len(s)):
		return s
	case s == "":
		return fmt.Sprintf("[not shown by mcpt: %d bytes; a report shows at most %d MiB of the bundles' files]\n", size, maxPageShown>>20)
	}
	return strings.TrimSuffix(s, "\n") + "\n" + fmt.Sprintf("[cut by mcpt: the first %d KiB of %d bytes are shown]", len(s)>>10, size) + "\n"
}

// bundleFiles reads the files of one finding's bundle, never outside the
// output directory or, for a bundle a merged report refers to in place,
// the output directories beside it (see bundle.OpenOutput): a report may
// come from elsewhere. Files that are absent read as absent; a symbolic
// link on the way, or any other read error, is returned.
type bundleFiles struct {
	out *bundle.Reader // the output directory
	rel string         // the bundle path relative to it, slash-separated
	rd  *bundle.Reader // the bundle; nil when it is not there
	err error          // why the bundle could not be opened, when it is there
	bud *budget        // what is left to show
}

// openBundle opens the bundle of f, the bundle at its path in out; close
// releases it.
func openBundle(out *bundle.Reader, f *result.Finding, bud *budget) *bundleFiles {
	return openBundleAt(out, bundleRel(f), bud)
}

func openBundleAt(out *bundle.Reader, rel string, bud *budget) *bundleFiles {
	b := &bundleFiles{out: out, rel: rel, bud: bud}
	b.rd, b.err = out.Sub(rel)
	if errors.Is(b.err, fs.ErrNotExist) {
		b.err = nil
	}
	return b
}

func (b *bundleFiles) close() {
	if b.rd != nil {
		b.rd.Close()
	}
}

// dir is the bundle directory as the user names it.
func (b *bundleFiles) dir() string { return filepath.Join(b.out.Dir(), filepath.FromSlash(b.rel)) }

// read returns the content of name inside the bundle, cut as shown cuts
// it, and whether it exists.
func (b *bundleFiles) read(elem ...string) (string, bool, error) {
	data, size, ok, err := b.readPrefix(min(maxShown, b.bud.left), elem...)
	return b.bud.shown(string(data), size), ok, err
}

// readPrefix returns at most limit bytes of name inside the bundle, its
// size, and whether it exists.
func (b *bundleFiles) readPrefix(limit int64, elem ...string) ([]byte, int64, bool, error) {
	if b.rd == nil {
		return nil, 0, false, b.err
	}
	data, size, err := b.rd.ReadFilePrefix(path.Join(elem...), limit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	return data, size, true, nil
}

// check refuses a bundle holding anything but regular files and
// directories (see bundle.Reader.CheckTree); a bundle that is not there is
// no error (the report says so where it shows it).
func (b *bundleFiles) check() error {
	if b.rd == nil {
		return b.err
	}
	return b.rd.CheckTree(".")
}

// finding completes f with the evidence its bundle's finding.json carries,
// for reports that leave large fields out.
func (b *bundleFiles) finding(f result.Finding) (result.Finding, error) {
	if b.bud.left <= 0 { // nothing of it would be shown
		return b.cut(f), nil
	}
	data, size, ok, err := b.readPrefix(maxFindingJSON, bundle.FindingFile)
	if err != nil || !ok || size > maxFindingJSON {
		return b.cut(f), err
	}
	var bf result.Finding
	if err := json.Unmarshal(data, &bf); err != nil {
		return f, fmt.Errorf("%s: %w", filepath.Join(b.dir(), bundle.FindingFile), err)
	}
	b.rd.FindingEvidence(".", &bf)
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&f.Expected, bf.Expected)
	fill(&f.Actual, bf.Actual)
	fill(&f.Diff, bf.Diff)
	fill(&f.Stderr, bf.Stderr)
	if f.Compared == nil {
		f.Compared = bf.Compared
	}
	return b.cut(f), nil
}

// cut cuts the evidence of f to what the report shows.
func (b *bundleFiles) cut(f result.Finding) result.Finding {
	ts := []*string{&f.Expected, &f.Actual, &f.Diff, &f.Stderr}
	if f.Compared != nil {
		c := *f.Compared
		f.Compared = &c
		ts = append(ts, &c.Expected, &c.Found)
	}
	for _, t := range ts {
		*t = b.bud.shown(*t, int64(len(*t)))
	}
	return f
}

// repro is the command that reproduces the finding: the bundle's
// repro.txt, else one made from the bundle path.
func (b *bundleFiles) repro() (string, error) {
	// The command is what a reader needs most: it is shown whatever is
	// left of the report's budget, and cut on its own.
	data, size, ok, err := b.readPrefix(maxRepro, bundle.ReproFile)
	return reproOf(data, size, ok, err, b.dir())
}

// reproOf is the command of a bundle at dir whose repro.txt reads data
// (of size bytes), ok when it is there.
func reproOf(data []byte, size int64, ok bool, err error, dir string) (string, error) {
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(string(data)) != "" {
		return strings.TrimSpace((&budget{left: maxRepro}).shown(string(data), size)), nil
	}
	return bundle.ReproCommand("", dir), nil
}

// reducedSuffix ends the ID of the finding mcpt reduce writes beside a
// finding's own.
const reducedSuffix = "-reduced"

// reducedRels are the paths the reduced bundle of the bundle at rel may
// have: beside an archive, an archive; beside a bundle directory of an
// earlier mcpt, the directory that mcpt wrote or the archive this one
// writes.
func reducedRels(rel string) []string {
	if strings.HasSuffix(rel, bundle.Ext) {
		return []string{bundle.Reduced(rel)}
	}
	return []string{rel + reducedSuffix, rel + reducedSuffix + bundle.Ext}
}

// bundleHref is the link to the bundle at rel: the archive, or a bundle
// directory of an earlier mcpt.
func bundleHref(rel string) string {
	if strings.HasSuffix(rel, bundle.Ext) {
		return rel
	}
	return rel + "/"
}

// reduced describes the reduced bundle beside this one, or returns nil when
// there is none.
func (b *bundleFiles) reduced(f *result.Finding) (*reducedView, error) {
	if bundle.IsReduced(b.rel) {
		return nil, nil
	}
	var rb *bundleFiles
	for _, rel := range reducedRels(b.rel) {
		rb = openBundleAt(b.out, rel, b.bud)
		if rb.rd != nil || rb.err != nil {
			break
		}
	}
	defer rb.close()
	if _, _, ok, err := rb.readPrefix(0, bundle.FindingFile); err != nil || !ok {
		return nil, err
	}
	if err := rb.check(); err != nil {
		return nil, err
	}
	rf, err := rb.finding(result.Finding{ID: f.ID + reducedSuffix, SeedFile: f.SeedFile})
	if err != nil {
		return nil, err
	}
	repro, err := rb.repro()
	if err != nil {
		return nil, err
	}
	v := &reducedView{ID: rf.ID, Href: bundleHref(rb.rel), Repro: repro}
	name := path.Base(filepath.ToSlash(f.SeedFile))
	if s, ok, err := rb.read(bundle.BaseDir, name); err != nil {
		return nil, err
	} else if ok {
		v.Lines = countLines(s)
	}
	if s, ok, err := b.read(bundle.BaseDir, name); err != nil {
		return nil, err
	} else if ok {
		v.Before = countLines(s)
	}
	return v, nil
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func itoa(n int) string { return strconv.Itoa(n) }
