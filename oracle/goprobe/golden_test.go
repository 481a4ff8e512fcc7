package goprobe

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/oracle/goprobe/probe"
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
			gc := loadCase(t, file, common)
			ar, want, verdict, o, o2 := gc.ar, gc.want, gc.verdict, gc.o, gc.o2
			c := gc.check
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

// goldenCase is a case of testdata/*.txtar, loaded.
type goldenCase struct {
	ar      *txtar.Archive
	want    int // the index of want in ar, -1 when it has none
	verdict string
	o, o2   tree.Tree
	check   *Check
}

// loadCase reads a case, o and o2 starting from the files of common.
func loadCase(t *testing.T, file string, common tree.Tree) goldenCase {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var spec struct{ File, Element, Name, Number, JSON, Default, Deprecated string }
	gc := goldenCase{ar: ar, want: -1, o: tree.Tree{}, o2: tree.Tree{}}
	for k, v := range common {
		gc.o[k], gc.o2[k] = v, v
	}
	for i, f := range ar.Files {
		switch {
		case f.Name == "check.json":
			if err := json.Unmarshal(f.Data, &spec); err != nil {
				t.Fatal(err)
			}
		case f.Name == "drop":
			delete(gc.o, strings.TrimSpace(string(f.Data)))
			delete(gc.o2, strings.TrimSpace(string(f.Data)))
		case f.Name == "verdict":
			gc.verdict = strings.TrimSpace(string(f.Data))
		case f.Name == "want":
			gc.want = i
		case strings.HasPrefix(f.Name, "o/"):
			gc.o[strings.TrimPrefix(f.Name, "o/")] = f.Data
		case strings.HasPrefix(f.Name, "o2/"):
			gc.o2[strings.TrimPrefix(f.Name, "o2/")] = f.Data
		}
	}
	el, err := ParseElement(spec.Element)
	if err != nil {
		t.Fatal(err)
	}
	gc.check = &Check{File: spec.File, Element: el, Elem: spec.Name, Number: spec.Number, JSON: spec.JSON, Default: spec.Default, Deprecated: spec.Deprecated}
	return gc
}

// TestReadAgreesWithProbe reads both sides of each golden case without
// building and builds and runs the probe on them: where the reading
// succeeds, its facts are the probe's, and it succeeds on every side of
// the cases that pass (the cheap path is the one taken).
func TestReadAgreesWithProbe(t *testing.T) {
	testtier.Tools(t, "the Go toolchain", "go")
	common := tree.Tree{}
	for _, f := range []string{"shop.pb.go", "remote.pb.go"} {
		common[f] = readTestdata(t, filepath.Join("common", f+".txt"))
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reads := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			gc := loadCase(t, file, common)
			m := &module{files: map[string][]byte{}, roots: map[string]*goPackage{}, sides: []string{"o", "f"}}
			if err := m.side(gc.o, gc.check.File, "o"); err != nil {
				t.Skipf("o: %v", err)
			}
			if err := m.side(gc.o2, gc.check.File, "f"); err != nil {
				t.Skipf("o′: %v", err)
			}
			version := m.roots["o"].files[0].version
			sum, err := prepare(ctx, goCmd, version)
			if err != nil {
				t.Fatal(err)
			}
			out, buildErr := build(ctx, goCmd, m, sum, version)
			var shapes []probe.Shape
			if buildErr == nil {
				if err := json.Unmarshal(out, &shapes); err != nil || len(shapes) != 2 {
					t.Fatalf("the probe printed %.200q: %v", out, err)
				}
			}
			for i, side := range []string{"o", "f"} {
				got, err := m.readSide(ctx, goCmd, version, sum, side)
				if err != nil {
					if gc.verdict == "pass" {
						t.Errorf("%s: the reading failed on a case that passes: %v", side, err)
					}
					continue
				}
				reads++
				if buildErr != nil {
					// A reading that succeeds where the build fails is
					// never a pass: the check builds after a reading
					// that passes nothing, and reports the build.
					if gc.verdict == "pass" {
						t.Errorf("%s: read, but the probe fails: %v", side, buildErr)
					}
					continue
				}
				want := facts(shapes[i], m.roots[side].files[0])
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: the reading's facts differ from the probe's:\nread:  %v\nprobe: %v", side, got, want)
				}
			}
		})
	}
	if reads == 0 {
		t.Error("no side was read")
	}
}

// TestReadRefuses has the reading refuse what it does not model, so that
// the check builds and runs the probe on it: code run when the package
// loads and getters that do more than the generator's.
func TestReadRefuses(t *testing.T) {
	testtier.Tools(t, "the Go toolchain", "go")
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	shop, remote := string(readTestdata(t, "common/shop.pb.go.txt")), readTestdata(t, "common/remote.pb.go.txt")
	for name, edit := range map[string]func(string) string{
		"init panics":      func(s string) string { return s + "\nfunc init() { panic(\"loaded\") }\n" },
		"variable by call": func(s string) string { return s + "\nvar loaded = strings.ToUpper(\"x\")\n" },
		"getter loops": func(s string) string {
			return strings.Replace(s, "\t\treturn *x.Id\n\t}\n\treturn 0\n", "\t\treturn *x.Id\n\t}\n\tfor {\n\t}\n", 1)
		},
		"descriptor cut": func(s string) string {
			return strings.Replace(s, "const file_shop_proto_rawDesc = \"\" +\n\t\"\\n\" +\n", "const file_shop_proto_rawDesc = \"\\xff\" +\n", 1)
		},
		"getter calls": func(s string) string {
			return strings.Replace(s, "\t\treturn *x.Id\n\t}\n\treturn 0\n", "\t\treturn *x.Id\n\t}\n\treturn int32(len(os.Args))\n", 1)
		},
	} {
		t.Run(name, func(t *testing.T) {
			src := edit(shop)
			for _, pkg := range []string{"strings", "os"} {
				if strings.Contains(src, pkg+".") && !strings.Contains(src, "\t\""+pkg+"\"\n") {
					src = strings.Replace(src, "import (\n", "import (\n\t\""+pkg+"\"\n", 1)
				}
			}
			if src == shop {
				t.Fatal("the edit changed nothing")
			}
			tr := tree.Tree{"shop.pb.go": []byte(src), "remote.pb.go": remote}
			m := &module{files: map[string][]byte{}, roots: map[string]*goPackage{}, sides: []string{"o", "f"}}
			if err := m.side(tr, "shop.pb.go", "o"); err != nil {
				t.Fatal(err)
			}
			version := m.roots["o"].files[0].version
			sum, err := prepare(context.Background(), goCmd, version)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.readSide(context.Background(), goCmd, version, sum, "o"); err == nil {
				t.Error("read; want a refusal")
			} else {
				t.Log(err)
			}
		})
	}
}
