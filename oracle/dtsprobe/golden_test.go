package dtsprobe

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

// packTypeScript is the TypeScript of the TypeScript pack, which
// scripts/test installs with npm ci.
func packTypeScript(t testing.TB) string {
	t.Helper()
	testtier.Tools(t, "apt-get install nodejs npm", "node")
	ts := FindTypeScript(filepath.Join("..", "..", "examples", "typescript"))
	if ts == "" {
		t.Fatal("TypeScript is not installed in examples/typescript: run `npm ci` there (scripts/test does)")
	}
	return ts
}

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
		b.WriteString("source says:\n" + f.Expected)
		b.WriteString("declaration file says:\n" + f.Actual)
	}
	return b.String()
}

// TestGolden runs each case of testdata/*.txtar: check.json (the file,
// member and of of a Check, and options), source.ts (the follow-up
// input), o2/… (the follow-up's declaration files) and want, the verdict
// (UPDATE_GOLDEN=1 writes it).
func TestGolden(t *testing.T) {
	ts := packTypeScript(t)
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, c, o2, want, verdict := readCase(t, file, ts)
			v := c.DecideContext(context.Background(), nil, o2)
			checkCompared(t, v, "dts-probe")
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

// readCase reads a case of TestGolden: its archive, the check and o′ it
// describes, the index of its want file (-1 when it has none) and the
// verdict it is for (pass, fail or undecided, which UPDATE_GOLDEN does not
// change).
func readCase(t *testing.T, file, ts string) (ar *txtar.Archive, c *Check, o2 tree.Tree, want int, verdict string) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c = &Check{TypeScript: ts}
	var spec struct {
		File, Member, Of string
		Options          []string
	}
	o2 = tree.Tree{}
	want = -1
	for i, f := range ar.Files {
		switch {
		case f.Name == "check.json":
			if err := json.Unmarshal(f.Data, &spec); err != nil {
				t.Fatal(err)
			}
		case f.Name == "source.ts":
			c.Source = f.Data
		case f.Name == "want":
			want = i
		case f.Name == "verdict":
			verdict = strings.TrimSpace(string(f.Data))
		case strings.HasPrefix(f.Name, "o2/"):
			o2[strings.TrimPrefix(f.Name, "o2/")] = f.Data
		}
	}
	c.File, c.Member, c.Of, c.Options = spec.File, spec.Member, spec.Of, spec.Options
	return ar, c, o2, want, verdict
}

// TestReusedProgram checks, one after the other in one worker, cases that
// probe the same module alike but for the declaration file: a correct one
// and a faulty one, back and forth. The worker's program before lends its
// structure to the next (the library files, found once); each verdict must
// still be its case's own, from its own files.
func TestReusedProgram(t *testing.T) {
	ts := packTypeScript(t)
	pairs := [][2]string{
		{"optional-method-ok", "optional-method-dropped"},
		{"readonly-ok", "readonly-lost"},
		{"undefined-ok", "undefined-lost"},
		{"enum-value-ok", "enum-value-wrong"},
		{"function-default-ok", "function-default-lost"},
	}
	before := reusedPrograms.Load()
	for _, pair := range pairs {
		for _, name := range []string{pair[0], pair[1], pair[0], pair[1]} {
			ar, c, o2, want, _ := readCase(t, filepath.Join("testdata", name+".txtar"), ts)
			if want < 0 {
				t.Fatalf("%s: no want", name)
			}
			if got := verdictText(c.DecideContext(context.Background(), nil, o2)); got != string(ar.Files[want].Data) {
				t.Errorf("%s after another case of its module:\n%s\nwant:\n%s", name, got, ar.Files[want].Data)
			}
		}
	}
	// Each case after the first of its pair has the files and imports of
	// the one before: its program reuses the structure.
	if n := reusedPrograms.Load() - before; n < int64(3*len(pairs)) {
		t.Errorf("%d of %d checks reused the program before, want at least %d", n, 4*len(pairs), 3*len(pairs))
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
