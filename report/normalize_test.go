package report

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// TestOutputsNormalized: a page sets o and o′ side by side as the check
// compared them, normalized by the recipe's rules: a generator that
// numbers counters through the file renumbers every line after the new
// member, which the rules make alike, so that the view marks the new
// member and nothing else, and says that it is normalized. Without the
// rules, every renumbered line is marked.
func TestOutputsNormalized(t *testing.T) {
	var o, o2 strings.Builder
	for i := 1; i <= 40; i++ {
		if i == 3 {
			fmt.Fprintf(&o2, "  write(zqnew, _iter%d);\n", i)
		}
		fmt.Fprintf(&o, "  write(f%d, _iter%d);\n", i, i)
		n := i
		if i >= 3 {
			n++
		}
		fmt.Fprintf(&o2, "  write(f%d, _iter%d);\n", i, n)
	}
	norm := func(s string) string { return regexp.MustCompile(`_iter[0-9]+`).ReplaceAllString(s, "_iterN") }
	// The check predicted the new member after the second; it is there,
	// and a line of o is missing from o′: one difference to mark.
	actual := strings.Replace(norm(o2.String()), "  write(f40, _iterN);\n", "", 1)
	o2s := strings.Replace(o2.String(), "  write(f40, _iter41);\n", "", 1)
	expected := norm(o2.String())
	replace := "_iterN"
	pages := map[bool]string{}
	for _, rules := range []bool{true, false} {
		dir := t.TempDir()
		f := result.Finding{
			ID: "c000001-add-field", Kind: result.Oracle, Relation: "add-field", SeedFile: "a.idl", Case: 1, Mode: "mcp",
			Checker: "class-definition", File: "a.cpp", Message: "a.cpp in o′ differs from the predicted difference",
			Expected: expected, Actual: actual, Bundle: "findings/c000001-add-field",
		}
		f.Signature = signature.Of(&f)
		rc := &bundle.Recipe{}
		if rules {
			rc.Normalize = oracle.Normalizer{{Files: []string{"*.cpp"}, Match: regexp.MustCompile(`_iter[0-9]+`), Replace: &replace}}
		}
		err := bundle.Write(filepath.Join(dir, "findings", f.ID), &bundle.Bundle{
			Finding: f, Recipe: rc, Base: []byte("struct A {}\n"), FollowUp: []byte("struct A { zqnew }\n"),
			BaseOut: map[string][]byte{"a.cpp": []byte(o.String())}, FollowUpOut: map[string][]byte{"a.cpp": []byte(o2s)},
		})
		if err != nil {
			t.Fatal(err)
		}
		r := &result.Report{Tool: "mcpt", Mode: "mcp", Findings: []result.Finding{f}, ByRelation: map[string]result.RelationStats{}}
		r.Groups = signature.Group(r.Findings)
		if err := Write(dir, r); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, PagesDir, f.ID+".html"))
		if err != nil {
			t.Fatal(err)
		}
		pages[rules] = string(b)
	}
	marked := func(page string) int { return strings.Count(page, `<td class="m unexp">unexpected</td>`) }
	if n := marked(pages[true]); n != 0 || !strings.Contains(pages[true], "shown normalized by the configuration&#39;s normalize rules") {
		t.Errorf("normalized: %d lines marked unexpected, want 0 (o′ holds the prediction but a line); note there: %v", n, strings.Contains(pages[true], "normalized"))
	}
	if !strings.Contains(pages[true], `<td class="m miss">missing</td>`) || !strings.Contains(pages[true], "write(f2, _iterN)") {
		t.Error("normalized: the missing line is not marked, or the lines are not shown normalized")
	}
	if n := marked(pages[false]); n < 30 || strings.Contains(pages[false], "shown normalized") {
		t.Errorf("without rules: %d lines marked unexpected, want the renumbered ones (the test shows nothing)", n)
	}
}
