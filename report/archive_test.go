package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
)

// TestPackedBundles: the report of an output directory whose bundles are
// archives shows the same evidence as of the same bundles as directories
// (the layout of earlier mcpt): the same cards and sections of the pages,
// but for the links, which go to the archive and name the files in it.
func TestPackedBundles(t *testing.T) {
	dirs := copyFixture(t)
	packed := copyFixture(t)
	entries, err := os.ReadDir(filepath.Join(packed, bundle.Dir))
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(packed, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		old := filepath.Join(packed, bundle.Dir, e.Name())
		b, err := bundle.Load(old)
		if err != nil {
			t.Fatal(err)
		}
		// The repro command stays the directory's, to compare.
		if err := bundle.Write(old+bundle.Ext, b); err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(old); err != nil {
			t.Fatal(err)
		}
		rel := bundle.Dir + "/" + e.Name()
		ref := regexp.MustCompile(`("bundle": *")` + regexp.QuoteMeta(rel) + `"`)
		report = ref.ReplaceAll(report, []byte("${1}"+rel+bundle.Ext+`"`))
		n++
	}
	if n == 0 || !strings.Contains(string(report), bundle.Ext) {
		t.Fatal("no bundle packed")
	}
	if err := os.WriteFile(filepath.Join(packed, ReportJSON), report, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dirs, packed} {
		if err := Rebuild(d); err != nil {
			t.Fatal(err)
		}
	}
	// The links differ, nothing else: the same text once they are taken
	// out.
	links := regexp.MustCompile(`(?s)href="[^"]*"|\n?<p class="sub" id="(base-input|outputs|open-bundle)">.*?</p>`)
	norm := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return links.ReplaceAllString(string(b), "")
	}
	pages, _ := os.ReadDir(filepath.Join(dirs, PagesDir))
	if len(pages) == 0 {
		t.Fatal("no pages")
	}
	for _, name := range append([]string{ReportHTML}, pageNames(pages)...) {
		a, b := norm(filepath.Join(dirs, name)), norm(filepath.Join(packed, name))
		if a != b {
			t.Errorf("%s: the report of the archives shows other evidence than that of the directories", name)
		}
	}
	page, _ := os.ReadFile(filepath.Join(packed, PagesDir, "c000042-augment-enumeration.html"))
	for _, want := range []string{
		`href="../findings/c000042-augment-enumeration.tar.gz">bundle</a>`,
		`<span id="base-output" class="mono">base-out/traffic_light_types.h</span>`,
		`<p class="sub" id="open-bundle">`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(string(page), ".tar.gz/") {
		t.Error("the page links into an archive")
	}
}

func pageNames(es []os.DirEntry) []string {
	var names []string
	for _, e := range es {
		names = append(names, filepath.Join(PagesDir, e.Name()))
	}
	return names
}
