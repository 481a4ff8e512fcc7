package goprobe

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

func verdictText(v oracle.Verdict) string {
	if len(v.Fails) == 0 && len(v.Undecided) == 0 {
		return "pass\n"
	}
	var b strings.Builder
	for _, u := range v.Undecided {
		b.WriteString("undecided: " + u + "\n")
	}
	for _, f := range v.Fails {
		b.WriteString("fail " + f.Checker + " " + f.File + ": " + f.Message + "\n")
	}
	return b.String()
}

// TestGolden runs each case of testdata/*.txtar: check.json (a Check),
// o2/shop.pb.go (the follow-up's Go), o/shop.pb.go when o is not
// testdata/common's, drop (a file of common left out of both trees),
// verdict (pass, fail or undecided: what the case is for) and want, the
// verdict in full (UPDATE_GOLDEN=1 writes it). The Go files are
// protoc-gen-go v1.36.12's for shop.proto and remote.proto (two packages),
// some edited by hand as a faulty generator would write them.
func TestGolden(t *testing.T) {
	testtier.Tools(t, "the Go toolchain", "go")
	common := tree.Tree{}
	for _, f := range []string{"shop.pb.go", "remote.pb.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "common", f+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		common[f] = b
	}
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
			var spec struct{ File, Element, Name, Number, JSON, Default, Deprecated string }
			o, o2 := tree.Tree{}, tree.Tree{}
			for k, v := range common {
				o[k], o2[k] = v, v
			}
			want, verdict := -1, ""
			for i, f := range ar.Files {
				switch {
				case f.Name == "check.json":
					if err := json.Unmarshal(f.Data, &spec); err != nil {
						t.Fatal(err)
					}
				case f.Name == "drop":
					delete(o, strings.TrimSpace(string(f.Data)))
					delete(o2, strings.TrimSpace(string(f.Data)))
				case f.Name == "verdict":
					verdict = strings.TrimSpace(string(f.Data))
				case f.Name == "want":
					want = i
				case strings.HasPrefix(f.Name, "o/"):
					o[strings.TrimPrefix(f.Name, "o/")] = f.Data
				case strings.HasPrefix(f.Name, "o2/"):
					o2[strings.TrimPrefix(f.Name, "o2/")] = f.Data
				}
			}
			el, err := ParseElement(spec.Element)
			if err != nil {
				t.Fatal(err)
			}
			c := &Check{File: spec.File, Element: el, Elem: spec.Name, Number: spec.Number, JSON: spec.JSON, Default: spec.Default, Deprecated: spec.Deprecated}
			v := c.DecideContext(context.Background(), o, o2)
			checkCompared(t, v, "go-probe")
			got := verdictText(v)
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
