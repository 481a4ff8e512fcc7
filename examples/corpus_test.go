package examples_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/syntax"
)

// corpusPacks are the packs measured on the real-world corpus
// (testdata/corpus): the seeds are the corpus files of the pack's language;
// constructs maps each relation to the node kinds of a seed's syntax tree
// (from the pack's grammar) that make it a place for the relation, so
// that a seed holding one and no spot of the relation is a blind pair.
// They are rule names, not name kinds: in thrift.grammar a type reference
// read as @ref(enum) is a leaf of kind enum, an enum_body is an enum.
var corpusPacks = []struct {
	dir, corpus, ext, grammar string
	constructs                map[string][]string
}{
	{"thrift", "thrift", ".thrift", "thrift/thrift.grammar", map[string][]string{
		"add-constant": {"document"}, "add-struct": {"document"},
		"add-enum-value": {"enum_body"}, "add-enum-value-explicit": {"enum_body"},
		"add-field": {"struct"}, "add-string-field": {"struct"},
		"add-service-method": {"service"},
	}},
	{"flatbuffers", "flatbuffers", ".fbs", "flatbuffers/fbs.grammar", map[string][]string{
		"add-enum": {"schema"}, "add-table": {"schema"},
		"add-enum-value": {"enum"}, "add-enum-value-explicit": {"enum"},
		"add-field": {"table"}, "add-string-field": {"table"},
	}},
	{"typescript", "typescript", ".ts", "", nil},
	{"protobuf/go", "protobuf", ".proto", "protobuf/proto.grammar", protobufConstructs},
	{"protobuf/c", "protobuf", ".proto", "protobuf/proto.grammar", protobufConstructs},
}

// protobufConstructs are the node kinds of proto.grammar that make a
// place for each relation of the Protocol Buffers configurations.
var protobufConstructs = map[string][]string{
	"add-enum-value": {"enum_value"}, "c-add-enum-value": {"enum_value"}, "descriptor-enum-value": {"enum_value"},
	"add-field": {"mbody"}, "add-map-field": {"mbody"}, "add-optional-field": {"mbody"}, "descriptor-field": {"mbody"},
	"add-oneof-field": {"oneof"}, "descriptor-oneof-field": {"oneof"},
	"add-message": {"message"}, "descriptor-message": {"message"},
	"add-nested-message": {"message"}, "descriptor-nested-message": {"message"},
	"add-rpc": {"rpc"}, "descriptor-rpc": {"rpc"},
	"add-named-field": {"mbody"}, "add-group-field": {"mbody"},
	"add-enum": {"file"}, "add-nested-enum": {"mbody"},
	"add-option-field": {"mbody"}, "add-default-field": {"mbody"}, "add-enum-field": {"mbody"}, "add-remote-field": {"mbody"},
	"add-option-oneof-field": {"oneof"}, "add-option-enum-value": {"enum_value"}, "add-deprecated-message": {"file"},
	"go-option-field": {"mbody"}, "go-default-field": {"mbody"}, "go-enum-field": {"mbody"}, "go-remote-field": {"mbody"},
	"go-option-oneof-field": {"oneof"}, "go-option-enum-value": {"enum_value"}, "go-deprecated-message": {"file"},
}

// corpusWorkers are the workers of a corpus campaign: MCPT_CORPUS_WORKERS,
// or the engine's default.
func corpusWorkers() int {
	n, _ := strconv.Atoi(os.Getenv("MCPT_CORPUS_WORKERS"))
	return max(n, 0)
}

// corpusRow is one line of the table of issue 23.
type corpusRow struct {
	pack, config          string
	seeds, cases          int
	alarms, rejected      int
	pairs, blind          int
	alarmNames, blindOnes []string
	left                  []string // seeds the compiler rejected alone
}

// TestCorpusTable (long and tools tiers) runs every pack's exact and
// derived relations (mcpt.yaml, derived.yaml) on the real-world corpus of
// its language and prints the table of issue 23: seeds, test cases, oracle
// false alarms, rejected follow-ups, and blind relation–seed pairs (the
// seed holds the construct, the relation finds no spot in it). The
// compilers are correct, so every finding is a false alarm. It fails
// nothing on the figures: it measures. MCPT_CORPUS_CASES sets the test
// cases per campaign (default 60, enough to run every pack on the corpus
// in the suite, TypeScript's tsc kept warm as a worker): set it higher to
// measure.
// MCPT_CORPUS_VERBOSE=1 logs every finding with its diff or diagnostic;
// MCPT_CORPUS_PACKS=thrift,protobuf/go runs those packs only.
func TestCorpusTable(t *testing.T) {
	testtier.Long(t, "campaigns of every pack on the real-world corpus")
	var rows []corpusRow
	only := os.Getenv("MCPT_CORPUS_PACKS")
	for _, cp := range corpusPacks {
		if only != "" && !slices.Contains(strings.Split(only, ","), cp.dir) {
			continue
		}
		for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
			t.Run(cp.dir+"/"+cfg, func(t *testing.T) {
				switch cp.dir {
				case "typescript":
					needTsc(t)
				case "thrift":
					testtier.Tools(t, "apt-get install thrift-compiler", "thrift")
				case "flatbuffers":
					testtier.Tools(t, "apt-get install flatbuffers-compiler", "flatc")
				case "protobuf/go", "protobuf/c":
					needProtobuf(t)
				}
				// the corpus files that include or import others find them
				// beside them
				abs, err := filepath.Abs(filepath.Join("../testdata/corpus", cp.corpus))
				if err != nil {
					t.Fatal(err)
				}
				t.Setenv("FBS_PATH", abs)
				t.Setenv("PROTO_PATH", abs)
				seeds, _ := filepath.Glob(filepath.Join("../testdata/corpus", cp.corpus, "*"+cp.ext))
				s, err := setup.Load(filepath.Join(cp.dir, cfg), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: slices.Concat(protorel.Kinds, semrel.Kinds), Parsers: tsParsers}})
				if err != nil {
					t.Fatal(err)
				}
				cases := 60
				if n, err := strconv.Atoi(os.Getenv("MCPT_CORPUS_CASES")); err == nil && n > 0 {
					cases = n
				}
				tr := s.Transpiler
				if cp.dir == "typescript" {
					// the same tsc kept warm (byte-identical outputs, see
					// TestTypeScriptWorker): a run a few milliseconds
					// instead of a second or more
					tr = tsWorker(t, s)
				}
				c := &engine.Campaign{Transpiler: tr, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
					Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: 4,
					BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize, Release: s.Release, Flags: s.Flags,
					Workers: corpusWorkers(),
				}}
				rep, err := c.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if os.Getenv("MCPT_CORPUS_VERBOSE") != "" {
					for _, f := range rep.Findings {
						t.Logf("%s %s %s on %s (%s): %s %s\n%s", f.Relation, f.Kind, f.Checker, filepath.Base(f.SeedFile), f.Spot.Desc, f.Message, f.Diagnostic, f.Diff)
					}
				}
				// Seeds that need their includes beside them are rejected
				// alone: they are left out of the campaign and the table.
				left := slices.Concat(rep.Seeds.Rejected, rep.Seeds.Crashed, rep.Seeds.Nondeterministic)
				seeds = slices.DeleteFunc(seeds, func(s string) bool { return slices.Contains(left, s) })
				row := corpusRow{pack: cp.dir, config: cfg, seeds: len(seeds), cases: rep.TestCases, left: left}
				for _, f := range rep.Findings {
					if f.Kind == result.RejectedFollowUp {
						row.rejected++
					} else {
						row.alarms++
					}
					row.alarmNames = append(row.alarmNames, fmt.Sprintf("%s %s on %s", f.Relation, f.Kind, filepath.Base(f.SeedFile)))
				}
				if cp.dir == "typescript" {
					row.pairs, row.blindOnes = tsBlindPairs(t, s.Relations, seeds)
				} else {
					row.pairs, row.blindOnes = grammarBlindPairs(t, cp.grammar, cp.constructs, s.Relations, seeds)
				}
				row.blind = len(row.blindOnes)
				rows = append(rows, row)
			})
		}
	}
	var b strings.Builder
	b.WriteString("| pack | relations | seeds | test cases | oracle false alarms | rejected follow-ups | blind relation–seed pairs |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d (%.1f %%) | %d of %d |\n", r.pack, r.config, r.seeds, r.cases, r.alarms, r.rejected,
			100*float64(r.rejected)/float64(max(r.cases, 1)), r.blind, r.pairs)
	}
	t.Logf("the corpus table:\n%s", b.String())
	for _, r := range rows {
		slices.Sort(r.blindOnes)
		t.Logf("%s %s: left out: %v; findings: %s; blind: %s", r.pack, r.config, r.left, strings.Join(r.alarmNames, ", "), strings.Join(r.blindOnes, ", "))
	}
}

// grammarBlindPairs counts, with the pack's grammar read as a parser, the
// relation–seed pairs where the seed's tree holds a construct of the
// relation, and names those where the relation has no spot.
func grammarBlindPairs(t *testing.T, grammarFile string, constructs map[string][]string, rels []*relation.Relation, seeds []string) (int, []string) {
	t.Helper()
	g, err := grammar.ParseFile(grammarFile)
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	pairs := 0
	var blind []string
	for _, seed := range seeds {
		src := readFile(t, seed)
		tr, err := p.Parse(filepath.Base(seed), src)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]bool{}
		syntax.Walk(tr.Root, func(n *syntax.Node) bool {
			kinds[n.Kind] = true
			return true
		})
		for _, r := range rels {
			want, ok := constructs[r.Name]
			if !ok {
				t.Errorf("relation %s: which construct does it need? (corpusPacks)", r.Name)
				continue
			}
			if !slices.ContainsFunc(want, func(k string) bool { return kinds[k] }) {
				continue
			}
			pairs++
			ss, err := r.Spots(context.Background(), relation.Input{Name: filepath.Base(seed), Src: src})
			if err != nil {
				t.Fatal(err)
			}
			if len(ss) == 0 {
				blind = append(blind, r.Name+" on "+filepath.Base(seed))
			}
		}
	}
	return pairs, blind
}
