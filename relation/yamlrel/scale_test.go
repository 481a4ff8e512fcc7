package yamlrel

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// manyRelations is a relation file of n relations on the enums of
// enumGrammar, each with lets, a spots condition and checks: templates
// to load and evaluate.
func manyRelations(n int) string {
	var b strings.Builder
	b.WriteString(grammarRelYAML) // its relations last
	for i := range n {
		fmt.Fprintf(&b, `  - name: add-member-%d
    doc: Add a member, again (%d).
    spots:
      boundaries: enum
      if: '{{ne .region.name "Never%d"}}'
    fresh: [n]
    let:
      - upper: '{{caps .n}}'
      - where: '{{.region.name}}.{{.upper}}'
    insert: '{{.n}}'
    checks:
      - equivalence: {except: ['{{.where}}.h']}
      - difference:
          name: member
          file: '{{.region.name}}.h'
          edits:
            - insert: '  {{.upper}},'
              where: [{after: ['enum {{.region.name}} {']}]
`, i, i, i)
	}
	return b.String()
}

// TestTemplatesShareFunctions: the templates of many relations are
// evaluated by a few evaluators, each holding the template functions
// once, not each template with a copy of them of its own (9 KB a
// template: 10,000 relations took gigabytes).
func TestTemplatesShareFunctions(t *testing.T) {
	fsys := grammarFS(manyRelations(200), enumGrammar)
	rels, err := Load(fsys, "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 201 {
		t.Fatalf("%d relations, want 201", len(rels))
	}
	before := evaluatorsMade.Load()
	ctx := context.Background()
	in := relation.Input{Name: "x.enums", Src: []byte("enum Color { Red, Green }\n")}
	mutated := 0
	for _, r := range rels {
		ss, err := r.Spots(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		fu, err := r.Mutate(ctx, in, ss[1], rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fu.Src), "Red,") {
			t.Fatalf("follow-up %q", fu.Src)
		}
		mutated++
	}
	// Each relation evaluated its spots condition, lets, insert and check
	// templates: over a thousand templates, in one goroutine.
	if made := evaluatorsMade.Load() - before; made > 8 && !raceOn {
		t.Errorf("%d evaluators made for %d relations' templates: the templates do not share them", made, mutated)
	}
}

// BenchmarkLoadRelations loads a file of 1,000 relations: the time and
// memory per relation must not grow with their number (the file was read
// again for each checker, and each template copied the template
// functions).
func BenchmarkLoadRelations(b *testing.B) {
	for _, n := range []int{250, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := grammarFS(manyRelations(n), enumGrammar)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(fsys, "pack/rels/rel.yaml"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/relation")
		})
	}
}

// oneEnum is an enums file of one enum of n members.
func oneEnum(n int) []byte {
	var b strings.Builder
	b.WriteString("enum Big {\n")
	for i := range n {
		name := []byte{'V', 'a', 'a', 'a', 'a'}
		for j, k := 4, i; j > 0; j, k = j-1, k/26 {
			name[j] = byte('a' + k%26)
		}
		fmt.Fprintf(&b, "  %s,\n", name)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// spotRelation inserts a member at each boundary of an enum whose spots
// condition reads the spot's data: its neighbours and its place.
const spotRelation = grammarRelYAML + `  - name: add-member-where
    doc: Add a member where the data says.
    spots:
      boundaries: enum
      if: '{{and (ne .prev.member "Nope") (ge .region.index 0) (ne (len .region.before) -1)}}'
    fresh: [n]
    insert: '{{.n}}'
    checks:
      - equivalence: {}
`

// spotsAllocated is what finding the spots of the relation with a spots
// condition allocates per spot on an enum of n members, with the spots.
func spotsAllocated(t testing.TB, n int) (float64, int) {
	rels, err := Load(grammarFS(spotRelation, enumGrammar), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := rels[1]
	in := relation.Input{Name: "big.enums", Src: oneEnum(n)}
	ctx := context.Background()
	if _, err := rels[0].Spots(ctx, in); err != nil { // (the model: parsed once)
		t.Fatal(err)
	}
	var ss []relation.Spot
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ss, err = r.Spots(ctx, in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(ss)), len(ss)
}

// TestSpotsLinear: the data a spot's condition sees is made in time and
// memory independent of the number of declarations around it (it held a
// list of all of them, made again for every spot, and every spot counted
// the lines before it: quadratic; 50,000 declarations took minutes).
func TestSpotsLinear(t *testing.T) {
	small, n := spotsAllocated(t, 1000)
	if n != 1001 {
		t.Fatalf("%d spots on 1,000 members", n)
	}
	large, n := spotsAllocated(t, 20000)
	if n != 20001 {
		t.Fatalf("%d spots on 20,000 members", n)
	}
	t.Logf("%.0f bytes a spot among 1,000 members, %.0f among 20,000", small, large)
	if large > 2*small {
		t.Errorf("a spot allocates %.0f bytes among 20,000 members, %.0f among 1,000: not linear", large, small)
	}
}

// BenchmarkSpots finds the spots of a relation whose spots condition reads
// each spot's data, in an enum of 1,000 to 50,000 members: the time per
// spot does not grow with them.
func BenchmarkSpots(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			rels, err := Load(grammarFS(spotRelation, enumGrammar), "pack/rels/rel.yaml")
			if err != nil {
				b.Fatal(err)
			}
			src := oneEnum(n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				// a new input each time (the model and spots of an input
				// are memoised)
				in := relation.Input{Name: "big.enums", Src: fmt.Appendf(bytes.Clone(src), "// %d\n", i)}
				if _, err := rels[1].Spots(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(n+1)), "ns/spot")
		})
	}
}

// TestLetsBounded: the lets of one evaluation take at most maxLetBytes in
// all, however many there are (a thousand lets of 8 MB each crashed run
// and repro), and the error names the let that went over; so do the
// attributes of an input's declarations.
func TestLetsBounded(t *testing.T) {
	var rel strings.Builder
	rel.WriteString(grammarRelYAML + `  - name: big-lets
    doc: Lets of 8 MB.
    spots: {boundaries: enum}
    fresh: [n]
    let:
`)
	for i := range 100 {
		fmt.Fprintf(&rel, "      - l%d: '{{repeat \"x\" 8000000}}'\n", i)
	}
	rel.WriteString("    insert: '{{.n}}'\n    checks:\n      - equivalence: {}\n")
	rels, err := Load(grammarFS(rel.String(), enumGrammar), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in := relation.Input{Name: "x.enums", Src: []byte("enum Color { Red, Green }\n")}
	ss, err := rels[1].Spots(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = rels[1].Mutate(ctx, in, ss[0], rand.New(rand.NewPCG(1, 2)))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "let l8: pack/rels/rel.yaml:") || !strings.Contains(err.Error(), "the lets of one evaluation take over 64 MiB in all") {
		t.Fatalf("error %v", err)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 400 {
		t.Errorf("the mutation allocated %d MB before it stopped", mb)
	}

	// The attributes of the declarations of an input.
	kinds := strings.Replace(grammarRelYAML, "  member: {region: enum, node: [value], match: '^(?P<name>\\w+)$'}",
		"  member:\n    region: enum\n    node: [value]\n    match: '^(?P<name>\\w+)$'\n    let:\n      - big: '{{repeat \"y\" 4000000}}'", 1)
	if kinds == grammarRelYAML {
		t.Fatal("the kind was not found")
	}
	rels, err = Load(grammarFS(kinds, enumGrammar), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("enum Color {\n")
	for i := range 30 {
		fmt.Fprintf(&src, "  Col%c%c,\n", 'a'+i/26, 'a'+i%26)
	}
	src.WriteString("}\n")
	_, err = rels[0].Spots(ctx, relation.Input{Name: "y.enums", Src: []byte(src.String())})
	if err == nil || !strings.Contains(err.Error(), "kind member, line 18: let big: ") || !strings.Contains(err.Error(), "over 64 MiB in all") {
		t.Fatalf("error %v", err)
	}
}

// TestPatternBounded: a template cannot compile a pattern of megabytes
// (one of 5 MB took 1.5 GB); the error says so.
func TestPatternBounded(t *testing.T) {
	for _, src := range []string{
		`{{match (repeat "a" 5000000) "aaa"}}`,
		`{{count (repeat "b" 70000) "bbb"}}`,
	} {
		tm, err := mkTmpl(yamlpos.String{Value: src, Pos: yamlpos.Pos{File: "r.yaml", Line: 3, Col: 7}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tm.render(context.Background(), map[string]any{})
		if err == nil || !strings.Contains(err.Error(), "r.yaml:3:7: a pattern of ") || !strings.Contains(err.Error(), "bytes, over the 64 KiB a pattern may take") {
			t.Errorf("%s: %v", src, err)
		}
	}
	tm, err := mkTmpl(yamlpos.String{Value: `{{match (printf "^%s$" (repeat "c" 60000)) (repeat "c" 60000)}}`})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tm.render(context.Background(), map[string]any{}); err != nil || s != "true" {
		t.Errorf("a pattern of 60 KB: %q, %v", s, err)
	}
}

// TestConditionPerList: a spots condition that reads nothing of a spot
// but its region instance (its name, its items, the input) is evaluated
// once for all the spots of an instance, one that reads a spot (its
// neighbours, its place, a let that does) at every spot; the spots are the
// same.
func TestConditionPerList(t *testing.T) {
	src := grammarRelYAML + `  - name: add-where
    doc: Add a member where the conditions say.
    spots:
      boundaries: enum
      except:
        - '{{if eq .region.name "Nope"}}a list{{end}}'
        - '{{if eq .prev.member "Green"}}after Green{{end}}'
        - '{{if match (printf "\\b%s\\b" (re .region.name)) .input.text}}{{else}}never{{end}}'
        - '{{with .region.after}}{{if eq (index . 0).name "Blue"}}before Blue{{end}}{{end}}'
    fresh: [n]
    insert: '{{.n}}'
    checks:
      - equivalence: {}
`
	l := newLoader(grammarFS(src, enumGrammar))
	l.loadFile("pack/rels/rel.yaml", "rel.yaml", yamlpos.Pos{})
	c := l.compile()
	rels := c.relations
	if err := l.errs.Err(); err != nil {
		t.Fatal(err)
	}
	r := rels[1]
	ss, err := r.Spots(context.Background(), relation.Input{Name: "x.enums", Src: []byte("enum Color { Red, Green, Blue, Teal }\nenum Size { Big }\n")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ss {
		got = append(got, s.Desc)
	}
	want := "body of Color, before Red|body of Color, between Red and Green|body of Color, between Blue and Teal|body of Color, after Teal|body of Size, before Big|body of Size, after Big"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("spots:\n%s\nwant\n%s", g, want)
	}
	var rr *rel
	for _, x := range c.spotted {
		if x.name == r.Name {
			rr = x
		}
	}
	var evals []int64
	for _, e := range rr.except {
		evals = append(evals, e.run.evaluations.Load())
	}
	// 7 spots in 2 instances: the first and third excepts are evaluated
	// once per instance, the second at every spot, the fourth at the 6
	// spots the second leaves
	if fmt.Sprint(evals) != "[2 7 2 6]" {
		t.Errorf("evaluations of the excepts: %v, want [2 7 2 6]", evals)
	}
}

// TestReadsSpot: what a template may read of a boundary spot.
func TestReadsSpot(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{`{{.region.name}} {{.input.text}} {{.decls.field}} {{.count.x}}`, false},
		{`{{range .region.items}}{{.index}} {{.before}} {{.prev}}{{end}}`, false},
		{`{{with .region.name}}{{.}}{{end}}`, false},
		{`{{.prev.member}}`, true},
		{`{{.next.x}}`, true},
		{`{{.region.index}}`, true},
		{`{{len .region.before}}`, true},
		{`{{index .region "after"}}`, true},
		{`{{range .region.items}}{{$.region.after}}{{end}}`, true},
		{`{{pluck "x" .}}`, true},
		{`{{with .x}}{{else}}{{.}}{{end}}`, true},
		{`{{.mine}}`, true}, // a let that reads a spot
		{`{{define "t"}}{{.}}{{end}}{{template "t" .region.name}}`, true},
	} {
		tm, err := mkTmpl(yamlpos.String{Value: tt.src})
		if err != nil {
			t.Fatal(err)
		}
		if got := readsSpot(tm, map[string]bool{"mine": true}); got != tt.want {
			t.Errorf("%s: reads a spot %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestSeedLimit: a seed over MaxSeed is refused by every relation before it
// is parsed (a seed of 16 MiB took gigabytes), with its name and the limit;
// the relations go on reading the seeds below it.
func TestSeedLimit(t *testing.T) {
	rels, err := Load(grammarFS(grammarRelYAML, enumGrammar), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var src bytes.Buffer
	for i := 0; src.Len() <= MaxSeed; i++ {
		fmt.Fprintf(&src, "enum E%d { Red, Green }\n", i)
	}
	big := relation.Input{Name: "big.enums", Src: src.Bytes()}
	want := fmt.Sprintf("big.enums: %d bytes, over the 4 MiB limit of a seed the relations read", src.Len())
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = rels[0].Spots(ctx, big)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Spots of a seed of %d bytes: %v, want %q", src.Len(), err, want)
	}
	// (a parse of the seed allocates hundreds of megabytes)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 && !raceOn {
		t.Errorf("refusing the seed allocated %d bytes: it was read", got)
	}
	if _, err := rels[0].Mutate(ctx, big, relation.Spot{}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Mutate on the seed: %v, want %q", err, want)
	}
	small := relation.Input{Name: "small.enums", Src: src.Bytes()[:strings.Index(src.String(), "\n")+1]}
	if ss, err := rels[0].Spots(ctx, small); err != nil || len(ss) != 3 {
		t.Errorf("Spots of %q: %d spots, %v; want 3", small.Src, len(ss), err)
	}
}
