package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// PagesDir is the directory of an output directory that holds the page of
// each finding that has one, named after the finding's ID.
const PagesDir = "pages"

// pageSet chooses the findings that get a page: the example of each
// group. A page shows its finding's inputs and failing file in full, a
// few hundred kilobytes for a large generated file, and the group's
// other findings are the same failure: each of those is linked to its
// bundle directory instead, which holds all of its evidence, and a
// campaign's pages cost a page per group, however many findings it
// bundles (bundles_per_group).
func pageSet(groups []result.Group, byID map[string]*result.Finding) map[string]bool {
	set := map[string]bool{}
	counted := func(id string) bool { f := byID[id]; return f != nil && f.Counted }
	for _, g := range groups {
		if pageable(g.Example) && !counted(g.Example) {
			set[g.Example] = true
		}
	}
	return set
}

// pageable tells whether a finding ID makes a safe file name: report.json
// may come from elsewhere, and an ID such as "../x" must not name a file
// outside the pages directory.
func pageable(id string) bool {
	if id == "" || len(id) > 200 || id[0] == '.' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c != '-' && c != '.' && !isWordByte(c) {
			return false
		}
	}
	return true
}

// pageHref is the page of finding id, relative to report.html.
func pageHref(id string) string { return PagesDir + "/" + id + ".html" }

// findingPage is what the page of one finding shows.
type findingPage struct {
	Ex          exampleView
	Group       *groupView // the finding's group, for the way back
	Report      string     // report.html, relative to the page
	MaxShownKiB int
}

// writePages writes the page of each finding of p that has one, one page
// at a time: a page holds at most one finding's evidence, each file cut at
// maxShown, and nothing of it is kept once the page is written.
func writePages(outDir string, out *bundle.Reader, r *result.Report, p *htmlPage) error {
	if len(p.pages) == 0 {
		return nil
	}
	byID := map[string]*result.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
	}
	w, err := openPages(outDir)
	if err != nil {
		return err
	}
	defer w.root.Close()
	var buf bytes.Buffer
	for gi := range p.Groups {
		g := &p.Groups[gi]
		for _, id := range g.G.Findings {
			f := byID[id]
			if !p.pages[id] || f == nil {
				continue
			}
			ex, err := newExample(out, f, newBudget(), true)
			if err != nil {
				return &InputError{err}
			}
			ex.Href = "../" + ex.Href
			if ex.Reduced != nil {
				red := *ex.Reduced
				red.Href = "../" + red.Href
				ex.Reduced = &red
			}
			buf.Reset()
			page := findingPage{Ex: ex, Group: g, Report: "../" + ReportHTML, MaxShownKiB: maxShown >> 10}
			if err := htmlTemplates.ExecuteTemplate(&buf, "finding.html.tmpl", page); err != nil {
				return err
			}
			if err := w.write(id+".html", buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// pageWriter writes files into the pages directory of an output
// directory, without following a symbolic link out of it.
type pageWriter struct {
	root *os.Root
	dir  string // the output directory, for messages
}

// openPages makes the pages directory of outDir when it is not there, and
// refuses one that is not a directory (a symbolic link, say).
func openPages(outDir string) (*pageWriter, error) {
	root, err := os.OpenRoot(outDir)
	if err != nil {
		return nil, err
	}
	if err := root.Mkdir(PagesDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		root.Close()
		return nil, err
	}
	fi, err := root.Lstat(PagesDir)
	if err != nil {
		root.Close()
		return nil, err
	}
	if !fi.IsDir() {
		root.Close()
		return nil, &InputError{fmt.Errorf("%s: not a directory: mcpt writes the finding pages into a directory of its own", filepath.Join(outDir, PagesDir))}
	}
	return &pageWriter{root: root, dir: outDir}, nil
}

// write writes the page name through a temporary file renamed into place,
// so that a reader sees the old page or the new one.
func (w *pageWriter) write(name string, data []byte) error {
	final := PagesDir + "/" + name
	tmp := PagesDir + "/.tmp-" + name
	if err := w.root.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.root.Rename(tmp, final)
	}
	if err != nil {
		w.root.Remove(tmp)
		return fmt.Errorf("%s: %w", filepath.Join(w.dir, PagesDir, name), err)
	}
	return nil
}
