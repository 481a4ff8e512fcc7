package grammar_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/syntax"
)

// idlGrammars are the grammars of the relation packs' languages, with the
// corpus directory each reads and the extension of its files.
var idlGrammars = []struct{ grammar, corpus, ext string }{
	{"../examples/thrift/thrift.grammar", "thrift", ".thrift"},
	{"../examples/flatbuffers/fbs.grammar", "flatbuffers", ".fbs"},
	{"../examples/protobuf/proto.grammar", "protobuf", ".proto"},
}

// TestParseCorpus: each grammar parses every file of its language in the
// real-world corpus (testdata/corpus) and the shipped seeds of its pack,
// and the tree has a named node of every definition keyword's rule.
func TestParseCorpus(t *testing.T) {
	for _, ig := range idlGrammars {
		t.Run(ig.corpus, func(t *testing.T) {
			g, err := grammar.ParseFile(ig.grammar)
			if err != nil {
				t.Fatal(err)
			}
			p := grammar.NewParser(g)
			files, _ := filepath.Glob(filepath.Join("../testdata/corpus", ig.corpus, "*"+ig.ext))
			shipped, _ := filepath.Glob(filepath.Join(filepath.Dir(ig.grammar), "*"+ig.ext))
			if len(files) < 15 {
				t.Fatalf("%d corpus files", len(files))
			}
			for _, f := range append(files, shipped...) {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := p.Parse(filepath.Base(f), src)
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				named := 0
				syntax.Walk(tr.Root, func(n *syntax.Node) bool {
					if n.Named && n.Kind != grammar.CommentKind {
						named++
					}
					return true
				})
				if named < 3 {
					t.Errorf("%s: a tree of %d named nodes", f, named)
				}
			}
		})
	}
}

// TestIDLSeedsParse: the seeds each IDL grammar generates parse back.
func TestIDLSeedsParse(t *testing.T) {
	for _, ig := range idlGrammars {
		t.Run(ig.corpus, func(t *testing.T) {
			g, err := grammar.ParseFile(ig.grammar)
			if err != nil {
				t.Fatal(err)
			}
			p := grammar.NewParser(g)
			b, err := grammar.Generate(g, grammar.Options{N: 100, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for i, prog := range b.Programs {
				if _, err := p.Parse(fmt.Sprintf("seed-%d%s", i+1, ig.ext), prog.Source); err != nil {
					t.Fatalf("%v\n%s", err, prog.Source)
				}
			}
		})
	}
}

// TestIDLSeedsCompile (tools tier): the compilers accept the seeds each
// IDL grammar generates, as the packs run them.
func TestIDLSeedsCompile(t *testing.T) {
	testtier.Tools(t, "apt-get install thrift-compiler flatbuffers-compiler protobuf-compiler", "thrift", "flatc", "protoc")
	for _, ig := range idlGrammars {
		t.Run(ig.corpus, func(t *testing.T) {
			g, err := grammar.ParseFile(ig.grammar)
			if err != nil {
				t.Fatal(err)
			}
			b, err := grammar.Generate(g, grammar.Options{N: 40, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			paths, err := b.WriteDir(filepath.Join(dir, "seeds"), strings.TrimPrefix(ig.ext, "."))
			if err != nil {
				t.Fatal(err)
			}
			compileAll(t, compilers[ig.ext], paths)
		})
	}
}

// TestCorpusCompiles (tools tier): the compilers accept every file of the
// corpus, as its provenance says (tsc is checked with the TypeScript pack).
func TestCorpusCompiles(t *testing.T) {
	testtier.Tools(t, "apt-get install thrift-compiler flatbuffers-compiler protobuf-compiler", "thrift", "flatc", "protoc")
	for _, ig := range idlGrammars {
		t.Run(ig.corpus, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join("../testdata/corpus", ig.corpus, "*"+ig.ext))
			compileAll(t, compilers[ig.ext], files)
		})
	}
}

// compilers are the commands that check a file of each language, with OUT
// for a scratch directory and IN for the file (run in its directory).
var compilers = map[string][][]string{
	".thrift": {{"thrift", "--gen", "cpp", "-out", "OUT", "IN"}, {"thrift", "--gen", "py", "-out", "OUT", "IN"}},
	".fbs":    {{"flatc", "--cpp", "-o", "OUT", "IN"}, {"flatc", "--ts", "-o", "OUT", "IN"}},
	".proto":  {{"protoc", "-I.", "--cpp_out=OUT", "--python_out=OUT", "IN"}},
}

func compileAll(t *testing.T, commands [][]string, paths []string) {
	t.Helper()
	for _, path := range paths {
		for _, c := range commands {
			out := t.TempDir()
			args := make([]string, len(c))
			for i, a := range c {
				a = strings.ReplaceAll(a, "OUT", out)
				args[i] = strings.ReplaceAll(a, "IN", filepath.Base(path))
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = filepath.Dir(path)
			if msg, err := cmd.CombinedOutput(); err != nil {
				src, _ := os.ReadFile(path)
				t.Fatalf("%s rejects %s: %v\n%s\n%s", args[0], path, err, msg, src)
			}
		}
	}
}
