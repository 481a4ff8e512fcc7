package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/signature"
)

// TestFlagsInReports: a campaign's release and combinations of flags, and
// each finding's combination, show in report.html, the finding pages and
// junit.xml; a group found under several combinations lists them.
func TestFlagsInReports(t *testing.T) {
	dir := copyFixture(t)
	r := loadFixture(t)
	r.Release = "5.9.3"
	r.Flags = []string{"target=es2017", "target=es2022", "target=esnext"}
	// The two findings of the reverse-enums group, under two
	// combinations.
	for i := range r.Findings {
		r.Findings[i].Flags = r.Flags[0]
		if r.Findings[i].ID == "c000187-augment-enumeration" {
			r.Findings[i].Flags = r.Flags[1]
		}
	}
	for i := range r.Cases {
		r.Cases[i].Flags = r.Flags[i%2]
	}
	r.Groups = signature.Group(r.Findings)
	if err := r.Save(filepath.Join(dir, ReportJSON)); err != nil {
		t.Fatal(err)
	}
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	html := read(ReportHTML)
	for _, want := range []string{
		"transpiler release <code>5.9.3</code> · 3 combinations of flags",
		"</b><span>seeds under a combination of flags",
		"target=es2017<br>target=es2022<br>target=esnext<br>",
		// The reverse-enums group: its two findings under two combinations.
		`under 2 combinations of flags: <span class="mono">target=es2017; target=es2022</span>`,
		`<dt>flags</dt><dd class="mono">target=es2017</dd>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	f := r.Findings[0]
	if page := read(filepath.Join(PagesDir, f.ID+".html")); !strings.Contains(page, `<dt>flags</dt><dd class="mono">`+f.Flags+`</dd>`) {
		t.Errorf("the page of %s does not say its flags %s", f.ID, f.Flags)
	}
	junit := read(JUnitXML)
	for _, want := range []string{
		`<property name="release" value="5.9.3"></property>`,
		`<property name="flags" value="target=es2017; target=es2022; target=esnext"></property>`,
		`name="` + f.SeedFile + ` (` + f.Flags + `)"`,
	} {
		if !strings.Contains(junit, want) {
			t.Errorf("junit.xml lacks %q", want)
		}
	}
	// Without flags nothing of them shows.
	plain := copyFixture(t)
	if err := Rebuild(plain); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(plain, ReportHTML))
	if strings.Contains(string(b), "combination") || strings.Contains(string(b), "<dt>flags</dt>") {
		t.Error("a report without flags speaks of them")
	}
}
