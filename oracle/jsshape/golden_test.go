package jsshape

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// goldenCase is a case of testdata/*.txtar: check.json (a Check, its
// members' places and kinds as words), o/… and o2/… the two output trees,
// and want, the verdict (UPDATE_GOLDEN=1 writes it).
type goldenCase struct {
	File    string       `json:"file"`
	Module  string       `json:"module"`
	Timeout string       `json:"timeout"`
	Ignore  string       `json:"ignore"`
	Added   []memberJSON `json:"added"`
}

type memberJSON struct {
	Name       string `json:"name"`
	In         string `json:"in"`
	Of         string `json:"of"`
	Kind       string `json:"kind"`
	Value      string `json:"value"`
	Writable   *bool  `json:"writable"`
	Enumerable *bool  `json:"enumerable"`
	Absent     bool   `json:"absent"`
	After      string `json:"after"`
	Before     string `json:"before"`
}

// verdictText writes a verdict as the golden files hold it.
func verdictText(v oracle.Verdict) string {
	var b strings.Builder
	if len(v.Fails) == 0 && len(v.Undecided) == 0 {
		return "pass\n"
	}
	for _, u := range v.Undecided {
		b.WriteString("undecided: " + u + "\n")
	}
	for _, f := range v.Fails {
		b.WriteString("fail " + f.Checker + " " + f.File + ": " + f.Message + "\n")
		if f.Expected != "" {
			b.WriteString("expected:\n" + f.Expected)
		}
		if f.Actual != "" {
			b.WriteString("actual:\n" + f.Actual)
		}
	}
	return b.String()
}

func (g *goldenCase) check(t *testing.T) *Check {
	c := &Check{File: g.File, Module: g.Module}
	if g.Ignore != "" {
		c.Ignore = regexp.MustCompile(g.Ignore)
	}
	if g.Timeout != "" {
		d, err := time.ParseDuration(g.Timeout)
		if err != nil {
			t.Fatal(err)
		}
		c.Timeout = d
	}
	for _, m := range g.Added {
		w, err := ParseWhere(m.In)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckKind(m.Kind); err != nil {
			t.Fatal(err)
		}
		c.Added = append(c.Added, Member{Name: m.Name, In: w, Of: m.Of, Kind: m.Kind, Writable: m.Writable, Enumerable: m.Enumerable, Absent: m.Absent, After: m.After, Before: m.Before})
		c.Values = append(c.Values, m.Value)
	}
	return c
}

// TestGolden runs each case of testdata/*.txtar in node and compares the
// verdict with its want.
func TestGolden(t *testing.T) {
	testtier.Tools(t, "apt-get install nodejs (node 20 or newer)", "node")
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var g goldenCase
			o, o2 := tree.Tree{}, tree.Tree{}
			// $MARKER is a file hostile modules try to write: it must not
			// be there afterwards.
			marker := filepath.Join(t.TempDir(), "escaped")
			want := -1
			// verdict is pass, fail or undecided: what the case is for,
			// which UPDATE_GOLDEN does not change.
			verdict := ""
			for i, f := range ar.Files {
				switch {
				case f.Name == "check.json":
					if err := json.Unmarshal(f.Data, &g); err != nil {
						t.Fatal(err)
					}
				case f.Name == "want":
					want = i
				case f.Name == "verdict":
					verdict = strings.TrimSpace(string(f.Data))
				case strings.HasPrefix(f.Name, "o/"):
					o[strings.TrimPrefix(f.Name, "o/")] = []byte(strings.ReplaceAll(string(f.Data), "$MARKER", marker))
				case strings.HasPrefix(f.Name, "o2/"):
					o2[strings.TrimPrefix(f.Name, "o2/")] = []byte(strings.ReplaceAll(string(f.Data), "$MARKER", marker))
				}
			}
			v := g.check(t).DecideContext(context.Background(), o, o2)
			checkCompared(t, v, "js-shape")
			got := verdictText(v)
			if _, err := os.Lstat(marker); err == nil {
				t.Errorf("a module wrote %s", marker)
			}
			if first, _, _ := strings.Cut(got, " "); strings.TrimRight(first, ":\n") != verdict {
				t.Errorf("verdict %q, the case is for %q:\n%s", first, verdict, got)
			}
			if os.Getenv("UPDATE_GOLDEN") == "1" {
				if want < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					want = len(ar.Files) - 1
				}
				ar.Files[want].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want < 0 {
				t.Fatal("no want (UPDATE_GOLDEN=1 writes it)")
			}
			if string(ar.Files[want].Data) != got {
				t.Errorf("verdict:\n%s\nwant:\n%s", got, ar.Files[want].Data)
			}
		})
	}
}

// checkCompared fails when a failure of the verdict does not carry what
// the checker compared: its kind, what it expects, and what it found.
func checkCompared(t *testing.T, v oracle.Verdict, kind string) {
	t.Helper()
	for _, f := range v.Fails {
		c := f.Compared
		if c == nil || c.Kind != kind || c.Expects == "" || c.Found == "" || len(c.Differences) == 0 {
			t.Errorf("%s: the failure carries %+v, want what %s compared", f.Message, c, kind)
		}
	}
}
