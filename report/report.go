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
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
)

// File names inside an output directory and a bundle.
const (
	ReportJSON = "report.json"
	ReportHTML = "report.html"
	JUnitXML   = "junit.xml"

	bundleFinding     = "finding.json"
	bundleBase        = "base"
	bundleFollowUp    = "followup"
	bundleBaseOut     = "base-out"
	bundleFollowUpOut = "followup-out"
	bundleDiff        = "diff.txt"
	bundleRepro       = "repro.txt"
)

// Write writes report.html and junit.xml for r into outDir.
func Write(outDir string, r *result.Report) error {
	return errors.Join(WriteHTML(outDir, r), WriteJUnit(outDir, r))
}

// Rebuild reads outDir/report.json and writes report.html and junit.xml
// again from it and the bundles.
func Rebuild(outDir string) error {
	r, err := result.Load(filepath.Join(outDir, ReportJSON))
	if err != nil {
		return err
	}
	return Write(outDir, r)
}

// bundle reads the files of one finding's bundle. Files that are absent
// read as absent; any other read error is returned.
type bundle struct {
	outDir string
	dir    string // "" when the bundle path is unusable
	rel    string // the bundle path relative to outDir, slash-separated
}

func openBundle(outDir string, f *result.Finding) bundle {
	rel := f.Bundle
	if rel == "" {
		rel = "findings/" + f.ID
	}
	b := bundle{outDir: outDir, rel: rel}
	// A report may come from elsewhere (a merge): never read outside outDir.
	if p := filepath.FromSlash(rel); (f.Bundle != "" || f.ID != "") && filepath.IsLocal(p) {
		b.dir = filepath.Join(outDir, p)
	}
	return b
}

// read returns the content of name inside the bundle and whether it exists.
func (b bundle) read(elem ...string) (string, bool, error) {
	if b.dir == "" {
		return "", false, nil
	}
	name := filepath.Join(elem...)
	if !filepath.IsLocal(name) {
		return "", false, nil
	}
	data, err := os.ReadFile(filepath.Join(b.dir, name))
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
func (b bundle) finding(f result.Finding) (result.Finding, error) {
	s, ok, err := b.read(bundleFinding)
	if err != nil || !ok {
		return f, err
	}
	var bf result.Finding
	if err := json.Unmarshal([]byte(s), &bf); err != nil {
		return f, fmt.Errorf("%s: %w", filepath.Join(b.dir, bundleFinding), err)
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
func (b bundle) repro() (string, error) {
	s, ok, err := b.read(bundleRepro)
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(s) != "" {
		return strings.TrimSpace(s), nil
	}
	return "mcpt repro " + filepath.ToSlash(filepath.Join(b.outDir, filepath.FromSlash(b.rel))), nil
}

func itoa(n int) string { return strconv.Itoa(n) }
