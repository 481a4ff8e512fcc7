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

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// File names inside an output directory.
const (
	ReportJSON = "report.json"
	ReportHTML = "report.html"
	JUnitXML   = "junit.xml"
)

// Write writes report.html and junit.xml for r into outDir.
func Write(outDir string, r *result.Report) error {
	return errors.Join(WriteHTML(outDir, r), WriteJUnit(outDir, r))
}

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
		return err
	}
	return Write(outDir, r)
}

// bundleFiles reads the files of one finding's bundle, never outside
// outDir: a report may come from elsewhere (a merge). Files that are absent
// read as absent; a symbolic link on the way, or any other read error, is
// returned.
type bundleFiles struct {
	outDir string
	rel    string // the bundle path relative to outDir, slash-separated
}

func openBundle(outDir string, f *result.Finding) bundleFiles {
	rel := f.Bundle
	if rel == "" {
		rel = bundle.Path(f.ID)
	}
	return bundleFiles{outDir: outDir, rel: rel}
}

// read returns the content of name inside the bundle and whether it exists.
func (b bundleFiles) read(elem ...string) (string, bool, error) {
	r, err := bundle.Open(b.outDir)
	if err != nil {
		return "", false, err
	}
	defer r.Close()
	data, err := r.ReadFile(path.Join(b.rel, path.Join(elem...)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(data), true, nil
}

// finding completes f with the evidence its bundle's finding.json carries,
// for reports that leave large fields out.
func (b bundleFiles) finding(f result.Finding) (result.Finding, error) {
	s, ok, err := b.read(bundle.FindingFile)
	if err != nil || !ok {
		return f, err
	}
	var bf result.Finding
	if err := json.Unmarshal([]byte(s), &bf); err != nil {
		return f, fmt.Errorf("%s: %w", filepath.Join(b.outDir, filepath.FromSlash(b.rel), bundle.FindingFile), err)
	}
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&f.Expected, bf.Expected)
	fill(&f.Actual, bf.Actual)
	fill(&f.Diff, bf.Diff)
	fill(&f.Stderr, bf.Stderr)
	return f, nil
}

// repro is the command that reproduces the finding: the bundle's
// repro.txt, else one made from the bundle path.
func (b bundleFiles) repro() (string, error) {
	s, ok, err := b.read(bundle.ReproFile)
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(s) != "" {
		return strings.TrimSpace(s), nil
	}
	return bundle.ReproCommand(filepath.Join(b.outDir, filepath.FromSlash(b.rel))), nil
}

// reducedSuffix ends the name of the bundle mcpt reduce writes beside a
// finding's own.
const reducedSuffix = "-reduced"

// reduced describes the reduced bundle beside this one, or returns nil when
// there is none.
func (b bundleFiles) reduced(f *result.Finding) (*reducedView, error) {
	if strings.HasSuffix(b.rel, reducedSuffix) {
		return nil, nil
	}
	rb := bundleFiles{outDir: b.outDir, rel: b.rel + reducedSuffix}
	if _, ok, err := rb.read(bundle.FindingFile); err != nil || !ok {
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
	v := &reducedView{ID: rf.ID, Href: rb.rel + "/", Repro: repro}
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
