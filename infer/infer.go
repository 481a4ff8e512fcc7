package infer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing/fstest"
	"unicode/utf8"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// Seed is a seed program to infer from.
type Seed struct {
	Name string
	Src  []byte
}

// Options are what inference needs besides the seeds.
type Options struct {
	// Syntax names the parser as the relation files will: a linked
	// parser's name or a grammar file relative to the relation files.
	Syntax string
	// Parser parses the seeds.
	Parser syntax.Parser
	// Numbers is how the seeds write integers (numlit's form names).
	Numbers string
	// Transpiler runs the transpiler under test, with Flags; Normalize
	// is applied to its outputs, as the campaign applies it.
	Transpiler transpiler.Transpiler
	Flags      []string
	Normalize  oracle.Normalizer
	// Workers is how many transpiler runs go at once (at least 1).
	Workers int
	// MaxSamples bounds the seeds whose outputs the habits are learned
	// from (0: 200); they are spread over the seeds.
	MaxSamples int
	// Log, when set, is told what inference does, a line at a time.
	Log func(string)
}

// Result is an inferred pack with what the inference saw.
type Result struct {
	Pack *Pack
	// Unparsed are the seeds the parser does not read, with the error.
	Unparsed []error
	// Runs is how many times the transpiler ran.
	Runs int
}

// ErrNoList is the error of seeds whose trees hold no list of two
// declarations or more: there is nothing to copy.
var ErrNoList = errors.New("the seeds hold no list of declarations (no node holds two declared names): no relation to make")

// Infer reads the seeds' trees for their lists, runs the transpiler on
// them for the generator's habits, makes the pack, and tries each relation
// on the seeds: a relation whose follow-ups the transpiler rejects is left
// out, and so are the first spots and the middle spots of a kind whose
// numbers the seeds suggest the language fixes or orders, where the
// transpiler rejects a follow-up that breaks that (see docs/zeroconfig.md).
func Infer(ctx context.Context, seeds []Seed, o Options) (*Result, error) {
	form, ok := numlit.Lookup(o.Numbers)
	if !ok {
		form, _ = numlit.Lookup("c")
	}
	res := &Result{}
	var trees []*syntax.Tree
	var parsed []Seed
	for _, s := range seeds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := o.Parser.Parse(s.Name, s.Src)
		if err != nil {
			res.Unparsed = append(res.Unparsed, err)
			continue
		}
		t.Name = s.Name
		trees = append(trees, t)
		parsed = append(parsed, s)
	}
	if len(trees) == 0 {
		return res, fmt.Errorf("no seed parses with %s: %w", o.Parser.Lang(), errors.Join(res.Unparsed...))
	}
	lists := Structure(trees, form)
	if len(lists) == 0 {
		return res, ErrNoList
	}
	p := &Pack{Syntax: o.Syntax, parser: o.Parser, Numbers: o.Numbers, Lists: lists, Seeds: len(trees), Left: map[string]string{}, notes: map[string][]string{}}
	r := &runner{o: o}
	// The habits, from the outputs of a sample of the seeds.
	idx := spread(len(trees), cmpOr(o.MaxSamples, 200))
	outs := r.runAll(ctx, parsed, idx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var samples []Sample
	for k, i := range idx {
		if outs[k] != nil {
			samples = append(samples, Sample{Tree: trees[i], Output: outs[k]})
		}
	}
	p.Habits = Learn(samples, lists, form)
	h := p.Habits
	places, byNum := 0, 0
	for _, l := range lists {
		places += len(l.Places)
		byNum += len(l.NumberPlaces)
	}
	cols := ""
	if len(h.Columns) > 0 {
		cols = "; columns aligned in " + strings.Join(h.Columns, ", ")
	}
	o.logf("learned from the outputs of %d seeds: name forms %s; %d generic words, %d table shapes, %d counters, %d places in the input's order, %d by number%s",
		len(samples), strings.Join(h.Forms, ", "), len(h.Generic), len(h.Tables), len(h.Counters), places, byNum, cols)
	if err := r.probe(ctx, p, parsed); err != nil {
		return nil, err
	}
	res.Pack, res.Runs = p, r.runs
	return res, nil
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}

// spread picks at most k of n indices, evenly spread, in order.
func spread(n, k int) []int {
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, k)
	for i := range out {
		out[i] = i * n / k
	}
	return out
}

type runner struct {
	o     Options
	mu    sync.Mutex
	runs  int
	bases map[string]map[string][]byte // the seeds' outputs, by name (nil: not accepted)
}

// base is the output of seed s, run once; nil when the transpiler does not
// accept it.
func (r *runner) base(ctx context.Context, s Seed) map[string][]byte {
	r.mu.Lock()
	out, ok := r.bases[s.Name]
	r.mu.Unlock()
	if ok {
		return out
	}
	res, err := r.run(ctx, s.Name, s.Src, transpiler.Base)
	if err == nil && res.Status == transpiler.Accepted {
		out = res.Files
	}
	r.mu.Lock()
	if r.bases == nil {
		r.bases = map[string]map[string][]byte{}
	}
	r.bases[s.Name] = out
	r.mu.Unlock()
	return out
}

// run transpiles one input; the output tree is nil unless it was accepted.
func (r *runner) run(ctx context.Context, name string, src []byte, role transpiler.Role) (*transpiler.Result, error) {
	res, err := r.o.Transpiler.Transpile(ctx, transpiler.Request{Name: path.Base(name), Src: src, Role: role, Flags: r.o.Flags})
	r.mu.Lock()
	r.runs++
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if res.Status == transpiler.Accepted && len(r.o.Normalize) > 0 {
		res.Files = r.o.Normalize.Apply(res.Files)
	}
	return res, nil
}

// runAll transpiles the seeds at idx, Workers at a time; an output is nil
// where the run failed or was not accepted.
func (r *runner) runAll(ctx context.Context, seeds []Seed, idx []int) []map[string][]byte {
	outs := make([]map[string][]byte, len(idx))
	sem := make(chan struct{}, max(r.o.Workers, 1))
	var wg sync.WaitGroup
	for k, i := range idx {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res, err := r.run(ctx, seeds[i].Name, seeds[i].Src, transpiler.Base)
			if err == nil && res.Status == transpiler.Accepted {
				outs[k] = res.Files
			}
			if err == nil {
				r.mu.Lock()
				if r.bases == nil {
					r.bases = map[string]map[string][]byte{}
				}
				r.bases[seeds[i].Name] = outs[k]
				r.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return outs
}

// Load compiles the pack's relations as a campaign loads relation files,
// with the generic words of its habits and the parser its seeds were read
// with.
func (p *Pack) Load(extra ...yamlrel.CheckerKind) ([]*relation.Relation, error) {
	names, files := p.Files()
	var parsers syntax.Parsers
	switch {
	case p.parser != nil && p.parser.Lang() == p.Syntax:
		if err := parsers.Add(p.parser); err != nil {
			return nil, err
		}
	case p.parser != nil && strings.HasSuffix(p.Syntax, ".grammar"):
		// A grammar file of the user's is not among the pack's files: the
		// parser compiled from it stands in for it, under a name that no
		// file or parser has.
		q := *p
		q.Syntax = grammarStandIn
		names, files = q.Files()
		if err := parsers.Add(standIn{p.parser}); err != nil {
			return nil, err
		}
	}
	fsys := fstest.MapFS{}
	for n, b := range files {
		fsys[n] = &fstest.MapFile{Data: b}
	}
	return yamlrel.LoadWith(yamlrel.Options{Generic: p.Habits.Generic, CheckerKinds: extra, Parsers: &parsers}, fsys, names...)
}

// grammarStandIn names, in the files Load compiles, the parser of a
// grammar file the pack's syntax names.
const grammarStandIn = "inferred-from-grammar"

// standIn is a parser under the name grammarStandIn.
type standIn struct{ syntax.Parser }

func (standIn) Lang() string { return grammarStandIn }

func (s standIn) ParseContext(ctx context.Context, name string, src []byte) (*syntax.Tree, error) {
	return syntax.ParseContext(ctx, s.Parser, name, src)
}

// probes is how many seeds a relation is tried on, at most.
const probes = 4

// probe tries the relations on the seeds: each on a few seeds, at its
// first spot and at a middle spot of a list, and each hypothesis on the
// kinds' numbers (the first of a list fixed, ascending) with a follow-up
// that breaks it. A relation whose follow-ups the transpiler rejects on
// two seeds is left out; a hypothesis the transpiler holds to stays (its
// spots are left out), one it does not hold to is dropped.
func (r *runner) probe(ctx context.Context, p *Pack, seeds []Seed) error {
	// Try the hypotheses first, without them.
	type hyp struct {
		k          *Kind
		first, asc bool
		rel        string
	}
	var hyps []*hyp
	for _, rel := range p.Relations() {
		k := rel.Kind
		if k.KeepFirst || k.Ascending {
			hyps = append(hyps, &hyp{k: k, first: k.KeepFirst, asc: k.Ascending, rel: rel.Name})
		}
	}
	saved := map[*Kind][2]bool{}
	for _, h := range hyps {
		saved[h.k] = [2]bool{h.k.KeepFirst, h.k.Ascending}
		h.k.KeepFirst, h.k.Ascending = false, false
	}
	rels, err := p.Load()
	if err != nil {
		return fmt.Errorf("the inferred relations do not load (a bug of mcpt): %w", err)
	}
	byName := map[string]*relation.Relation{}
	for _, rl := range rels {
		byName[rl.Name] = rl
	}
	for _, h := range hyps {
		rl := byName[h.rel]
		if rl == nil {
			continue
		}
		for _, which := range []string{"first", "middle"} {
			if which == "first" && !saved[h.k][0] || which == "middle" && !saved[h.k][1] {
				continue
			}
			tried, rejected, err := r.tryAt(ctx, rl, seeds, which)
			if err != nil {
				return err
			}
			kept := rejected > 0
			if which == "first" {
				h.k.KeepFirst = kept
				for i := range h.k.Numbers {
					h.k.Numbers[i].KeepFirst = h.k.Numbers[i].KeepFirst && kept
				}
			} else {
				h.k.Ascending = kept
				for i := range h.k.Numbers {
					h.k.Numbers[i].Ascending = h.k.Numbers[i].Ascending && kept
				}
			}
			if kept {
				note := map[string]string{"first": "Left out: the first spot of a list (the first's number is fixed: the transpiler rejected %d of %d follow-ups there).",
					"middle": "Left out: spots but after the last (numbers ascend: the transpiler rejected %d of %d follow-ups with a number out of order)."}[which]
				p.notes[h.rel] = append(p.notes[h.rel], fmt.Sprintf(note, rejected, tried))
			}
			r.o.logf("%s: %s spot: %d of %d follow-ups rejected", h.rel, which, rejected, tried)
		}
	}
	// Then every relation as it will run.
	if rels, err = p.Load(); err != nil {
		return fmt.Errorf("the inferred relations do not load (a bug of mcpt): %w", err)
	}
	// The same relations with a step of numbers, where a copy takes no
	// fresh number (one that does changes numbered lines by what the
	// number chosen is).
	kinds := map[string]*Kind{}
	for _, rel := range p.Relations() {
		if len(p.numbersOf(rel.Kind)) == 0 {
			kinds[rel.Name] = rel.Kind
			rel.Kind.Step = 1
		}
	}
	withStep, err := p.Load()
	for _, k := range kinds {
		k.Step = 0
	}
	if err != nil {
		return fmt.Errorf("the inferred relations do not load (a bug of mcpt): %w", err)
	}
	stepped := map[string]*relation.Relation{}
	for _, rl := range withStep {
		if kinds[rl.Name] != nil {
			stepped[rl.Name] = rl
		}
	}
	inferred := map[string]Relation{}
	for _, ir := range p.Relations() {
		inferred[ir.Name] = ir
	}
	for _, rl := range rels {
		pr, err := r.tryAtSteps(ctx, rl, stepped[rl.Name], seeds, "any", true)
		if err != nil {
			return err
		}
		tried, rejected := pr.tried, pr.rejected
		// A count that two follow-ups or more grew by one, no number by
		// another amount, and the checks with the step failing no more
		// than without: the locality check holds every number to that
		// (a count that grows by two is a fault). Nothing seen, or
		// other amounts: any renumbering.
		if k := kinds[rl.Name]; k != nil && len(pr.steps) == 1 && pr.steps[1] > 0 && pr.changed >= 2 && pr.worse == 0 {
			k.Step = 1
			r.o.logf("%s: the numbers its follow-ups change grow by 1 (%d lines)", rl.Name, pr.steps[1])
		}
		// An order that follow-ups between two members break on two
		// seeds (or on every seed tried) is the transpiler's way with a
		// new declaration, not a fault of one seed. (Tried where a
		// follow-up above broke it, or where fewer than two were
		// accepted: the others cost no run.)
		if ir, ok := inferred[rl.Name]; ok && (pr.disordered > 0 || tried-rejected < 2) && len(ir.List.Places) > 0 {
			mid, err := r.tryAtSteps(ctx, rl, nil, seeds, "middle", true)
			if err != nil {
				return err
			}
			if d := mid.disordered; d >= 2 || d > 0 && d == mid.tried-mid.rejected {
				ir.Kind.Unordered = true
				p.notes[rl.Name] = append(p.notes[rl.Name], fmt.Sprintf("Not checked: the order (the transpiler put the copy out of its neighbours' order in %d of %d follow-ups between two of them).", d, mid.tried-mid.rejected))
				r.o.logf("%s: the copy out of its neighbours' order in %d of %d follow-ups: no order check", rl.Name, d, mid.tried-mid.rejected)
			}
		}
		r.o.logf("%s: %d of %d follow-ups rejected", rl.Name, rejected, tried)
		if rejected >= 2 || rejected > 0 && rejected == tried {
			p.Left[rl.Name] = fmt.Sprintf("the transpiler rejected %d of %d of its follow-ups on the seeds", rejected, tried)
			continue
		}
		// Then the relation kept on every seed, once each: a seed whose
		// follow-up the transpiler rejects constrains the list (an object
		// literal that must have every property of its type, a name
		// destructured from an object), and the relation is not run there.
		if ir, ok := inferred[rl.Name]; ok {
			on, why, err := r.sweep(ctx, rl, seeds)
			if err != nil {
				return err
			}
			ir.Kind.RejectedOn, ir.Kind.RejectedBy = on, why
			if len(on) > 0 {
				r.o.logf("%s: not run on %s, whose follow-up the transpiler rejected (%s)", rl.Name, strings.Join(on, ", "), why)
			}
		}
	}
	return nil
}

// sweepMax bounds the seeds a relation is tried on one by one, and
// sweepTries the spots tried on each (a second where the first is
// accepted: a list of zod-doc's class Doc takes a copy of a field with an
// initializer, not of one without).
const (
	sweepMax   = 200
	sweepTries = 2
)

// sweep runs the relation's follow-ups at sweepTries spots of each seed
// whose base the transpiler accepts (at most sweepMax seeds), Workers
// seeds at a time, and gives the base names of the seeds where it
// rejected one, sorted, with the first line of its message on the first.
func (r *runner) sweep(ctx context.Context, rl *relation.Relation, seeds []Seed) ([]string, string, error) {
	type outcome struct {
		rejected bool
		msg      string
		err      error
	}
	idx := spread(len(seeds), sweepMax)
	outs := make([]outcome, len(idx))
	sem := make(chan struct{}, max(r.o.Workers, 1))
	var wg sync.WaitGroup
	for k, i := range idx {
		s := seeds[i]
		in := relation.Input{Name: s.Name, Src: s.Src}
		spots, err := rl.Spots(ctx, in)
		if err != nil || len(spots) == 0 {
			continue
		}
		// (the spot and the fresh names drawn from the relation and the
		// seed only: the same whatever the workers)
		rng := rand.New(rand.NewPCG(uint64(i), uint64(len(rl.Name))))
		var fus [][]byte
		for _, j := range rng.Perm(len(spots))[:min(sweepTries, len(spots))] {
			if fu, err := rl.Mutate(ctx, in, spots[j], rng); err == nil {
				fus = append(fus, fu.Src)
			}
		}
		if len(fus) == 0 {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if r.base(ctx, s) == nil {
				return
			}
			for _, fu := range fus {
				res, err := r.run(ctx, s.Name, fu, transpiler.FollowUp)
				switch {
				case err != nil:
					outs[k].err = err
					return
				case res.Status == transpiler.Rejected:
					outs[k] = outcome{rejected: true, msg: firstLine(res.Stderr, path.Base(s.Name))}
					return
				}
			}
		}()
	}
	wg.Wait()
	var on []string
	why := ""
	for k, o := range outs {
		if o.err != nil {
			return nil, "", o.err
		}
		if o.rejected {
			if len(on) == 0 {
				why = o.msg
			}
			on = append(on, path.Base(seeds[idx[k]].Name))
		}
	}
	slices.Sort(on)
	return slices.Compact(on), why, ctx.Err()
}

// firstLine is the first line of a transpiler's message that names a
// place in the input (else that says "error", else that says something:
// protoc warns first of a file without a syntax statement), from the input's
// name on where it holds it (not the directory the run had), at most 160
// bytes.
func firstLine(msg []byte, name string) string {
	var lines []string
	for l := range strings.Lines(string(msg)) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "no message"
	}
	l := lines[0]
	at := regexp.MustCompile(regexp.QuoteMeta(name) + `[:(]\d`)
	if i := slices.IndexFunc(lines, at.MatchString); i >= 0 {
		l = lines[i]
	} else if i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(strings.ToLower(l), "error") }); i >= 0 {
		l = lines[i]
	}
	if i := strings.Index(l, name); i >= 0 {
		l = l[i:]
	}
	if len(l) > 160 {
		cut := 160
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		l = l[:cut] + "…"
	}
	return l
}

// tryAt runs the relation's follow-ups at one spot of each of a few seeds
// (the first spot of a list, a middle one, or one drawn) and counts those
// tried and those the transpiler rejected. A seed whose base it does not
// accept is passed over.
func (r *runner) tryAt(ctx context.Context, rl *relation.Relation, seeds []Seed, which string) (tried, rejected int, err error) {
	p, err := r.tryAtSteps(ctx, rl, nil, seeds, which, false)
	return p.tried, p.rejected, err
}

// probed is what the follow-ups of a relation tried on the seeds showed.
type probed struct {
	tried, rejected int
	// steps counts by how much the numbers of lines changed only in
	// their numbers changed (numberSteps), over the follow-ups accepted;
	// changed is how many of those changed some.
	steps   map[int64]int
	changed int
	// worse is how many follow-ups the checks of the relation with a
	// step of numbers failed more than those without.
	worse int
	// disordered is how many follow-ups failed the relation's order
	// check (counted when asked for).
	disordered int
}

// tryAtSteps is tryAt that, with stepped (the same relation whose
// locality check holds numbers to a step), also runs the base of each seed
// tried and compares it with the follow-up: the numbers changed, and the
// failures of the checks of both relations. With order, it counts the
// follow-ups that fail the relation's order check.
func (r *runner) tryAtSteps(ctx context.Context, rl, stepped *relation.Relation, seeds []Seed, which string, order bool) (probed, error) {
	p := probed{steps: map[int64]int{}}
	rng := rand.New(rand.NewPCG(7, uint64(len(rl.Name))))
	for _, s := range seeds {
		if p.tried >= probes {
			break
		}
		if err := ctx.Err(); err != nil {
			return p, err
		}
		in := relation.Input{Name: s.Name, Src: s.Src}
		spots, err := rl.Spots(ctx, in)
		if err != nil || len(spots) == 0 {
			continue
		}
		sp, ok := pickSpot(spots, which, rng)
		if !ok {
			continue
		}
		// (both relations make the same follow-up from the same seed)
		ms := rng.Uint64()
		fu, err := rl.Mutate(ctx, in, sp, rand.New(rand.NewPCG(ms, 1)))
		if err != nil {
			continue
		}
		res, err := r.run(ctx, s.Name, fu.Src, transpiler.FollowUp)
		if err != nil {
			return p, err
		}
		switch res.Status {
		case transpiler.Rejected:
			p.rejected++
			p.tried++
		case transpiler.Accepted:
			p.tried++
			if stepped == nil && !order {
				continue
			}
			base := r.base(ctx, s)
			if base == nil {
				continue
			}
			if order && failures(fu.Checks, base, res.Files, "order") > 0 {
				p.disordered++
			}
			if stepped == nil {
				continue
			}
			st := numberSteps(base, res.Files)
			for d, n := range st {
				p.steps[d] += n
			}
			if len(st) > 0 {
				p.changed++
			}
			fu2, err := stepped.Mutate(ctx, in, sp, rand.New(rand.NewPCG(ms, 1)))
			if err != nil || string(fu2.Src) != string(fu.Src) {
				p.worse++ // (cannot tell: the step is not kept)
				continue
			}
			if failures(fu2.Checks, base, res.Files) > failures(fu.Checks, base, res.Files) {
				p.worse++
			}
		}
	}
	return p, nil
}

// failures counts the failures of checks on a base and follow-up output,
// those of the checkers named only when names are given.
func failures(checks []relation.Checker, o, o2 tree.Tree, names ...string) int {
	n := 0
	for _, c := range checks {
		for _, f := range c.Check(o, o2) {
			if len(names) == 0 || slices.Contains(names, f.Checker) {
				n++
			}
		}
	}
	return n
}

// pickSpot picks a spot: the first of a list (one described "before …"),
// one between two members (a middle one: "between … and …"), or any.
func pickSpot(spots []relation.Spot, which string, rng *rand.Rand) (relation.Spot, bool) {
	var cand []relation.Spot
	for _, s := range spots {
		switch which {
		case "first":
			if strings.Contains(s.Desc, ", before ") {
				cand = append(cand, s)
			}
		case "middle":
			if strings.Contains(s.Desc, ", between ") {
				cand = append(cand, s)
			}
		default:
			cand = append(cand, s)
		}
	}
	if len(cand) == 0 {
		return relation.Spot{}, false
	}
	return cand[rng.IntN(len(cand))], true
}

// WriteDir is how Files land on disk: each file's path under dir.
func WriteDir(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = path.Join(dir, n)
	}
	return out
}

var _ fs.FS = fstest.MapFS{}

// Kinds lists the kinds by name, for tests.
func (p *Pack) Kinds() []string {
	var out []string
	for _, l := range p.Lists {
		for _, k := range l.Kinds {
			out = append(out, k.Name)
		}
	}
	slices.Sort(out)
	return out
}
