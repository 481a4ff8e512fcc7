package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

type validateCmd struct {
	Config string `short:"c" default:"mcpt.yaml" help:"Configuration file."`
	inlineFlags
	NoRun bool     `name:"no-run" help:"Do not run the transpiler (nor its version command): check the relations' spots and mutations only."`
	Flags []string `placeholder:"DIMENSION=VALUE" help:"Keep only this value of a dimension of the configuration's flags (repeatable); the relations are tried under the first combination left."`
}

// Run loads everything and tries each relation on each seed: find the
// spots, mutate at every spot (or, when that would take over
// validateBudget, at the first and last spot of each seed and as many
// others as the budget allows), instantiate the checkers, so that template
// and pattern mistakes show up at once; each mistake is told once, with
// how many spots it was met at. Then, unless --no-run, it runs the
// transpiler on one follow-up per relation and seed (at the first spot)
// and reports each follow-up the transpiler does not accept, with what the
// transpiler said: a relation that inserts text the transpiler rejects
// makes no test case, only findings.
func (c *validateCmd) Run(tools *setup.Tools) error {
	s, err := loadSetupInline(tools, c.Config, &c.inlineFlags, nil, setup.Options{Flags: c.Flags, NoRelease: c.NoRun})
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	flags := underFlags(s)
	tester := &engine.Tester{Release: s.Release}
	var problems []string
	var failed seedFailures
	var trials []*trial
	for _, r := range s.Relations {
		total, withSpots := 0, 0
		// blind are the seeds that hold the relation's kind of node
		// where it finds no spot: what it misses, not what the seeds lack.
		var blind []string
		for _, sd := range s.Seeds {
			sd.Flags = flags
			in := tester.Input(sd)
			spots, err := r.Spots(ctx, in)
			if ctx.Err() != nil {
				return errInterrupted
			}
			if err != nil {
				failed.add(r.Name, sd.Name, err)
				continue
			}
			total += len(spots)
			if len(spots) > 0 {
				withSpots++
			} else if r.Holds != nil {
				if node, err := r.Holds(ctx, in); err != nil {
					failed.add(r.Name, sd.Name, err)
				} else if node != "" {
					blind = append(blind, sd.Name+" ("+node+")")
				}
			}
			// (one allocation for the trials of a seed: a seed of megabytes
			// has millions of spots)
			set := &trialSet{rel: r, seed: sd.Name, in: in, spots: spots}
			ts := make([]trial, len(spots))
			for i := range spots {
				ts[i] = trial{trialSet: set, i: i, always: i == 0 || i == len(spots)-1}
				trials = append(trials, &ts[i])
			}
		}
		fmt.Printf("%-32s %5d spots on %d seeds, %d with spots", r.Name, total, len(s.Seeds), withSpots)
		if r.Holds != nil {
			fmt.Printf(", %d holding its nodes with none", len(blind))
		}
		fmt.Printf("  %s\n", r.Summary())
		if len(blind) > 0 {
			fmt.Fprintf(os.Stderr, "mcpt: warning: relation %s has no spot on %d seed%s that hold%s its kind of node: %s\n",
				r.Name, len(blind), map[bool]string{true: "s"}[len(blind) > 1], map[bool]string{false: "s"}[len(blind) > 1], strings.Join(blind, ", "))
		}
		if total == 0 {
			// Not a mistake: the seeds may lack what it inserts into.
			fmt.Fprintf(os.Stderr, "mcpt: warning: relation %s has no spot on any seed: it makes no test case on these seeds\n", r.Name)
		}
	}
	problems = append(problems, failed.lines(len(s.Relations))...)
	tried, all := mutateAll(ctx, trials, time.Now().Add(validateBudget))
	if ctx.Err() != nil {
		return errInterrupted
	}
	if all {
		fmt.Printf("mutated every spot: %d\n", tried)
	} else {
		fmt.Printf("mutated %d of %d spots: the first and last of every seed, then others in turn until %s had passed\n", tried, len(trials), validateBudget)
	}
	problems = append(problems, mutationProblems(trials)...)
	var probes []*probe
	for _, t := range trials {
		if t.probed() && t.fu != nil {
			probes = append(probes, &probe{rel: t.rel.Name, seed: t.seed, spot: t.spot().Desc, line: t.spot().Line, in: t.in, followup: t.fu.Src})
		}
	}
	if !c.NoRun {
		problems = append(problems, runProbes(s.Transpiler, flags.Args(), probes)...)
	}
	if len(problems) > 0 {
		return usageErr("%s", strings.Join(problems, "\n"))
	}
	ran := ""
	if !c.NoRun {
		ran = fmt.Sprintf(", %d follow-ups accepted by the transpiler", len(probes))
	}
	fmt.Printf("ok: %s: %d relations, %d seeds%s\n", c.Config, len(s.Relations), len(s.Seeds), ran)
	return nil
}

// validateBudget is how long validate mutates spots beyond the first and
// last of each seed: every spot of the shipped packs takes less.
const validateBudget = 3 * time.Second

// trialSet is what the trials of a relation on a seed share.
type trialSet struct {
	rel   *relation.Relation
	seed  string
	in    relation.Input
	spots []relation.Spot
}

// trial is the mutation of one spot that validate tries: spots[i] of its
// set.
type trial struct {
	*trialSet
	i      int
	always bool // the first or last spot of its seed: tried whatever the time
	done   bool
	fu     *relation.FollowUp
	err    error
}

func (t *trial) spot() relation.Spot { return t.spots[t.i] }

// probed reports whether the transpiler is run on the trial's follow-up
// (unless --no-run): the first spot of each relation and seed.
func (t *trial) probed() bool { return t.always && t.spot().Index == 0 }

// mutateAll mutates at the spots of the trials, a few at a time: those
// always tried, then the others in order until the deadline. It returns
// how many it tried, and whether that is all of them.
func mutateAll(ctx context.Context, trials []*trial, deadline time.Time) (int, bool) {
	order := make([]*trial, 0, len(trials))
	for _, t := range trials {
		if t.always {
			order = append(order, t)
		}
	}
	for _, t := range trials {
		if !t.always {
			order = append(order, t)
		}
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, t := range order {
		if ctx.Err() != nil || !t.always && time.Now().After(deadline) {
			break
		}
		g.Go(func() error {
			t.fu, t.err = t.rel.Mutate(ctx, t.in, t.spot(), rand.New(rand.NewPCG(1, 2)))
			if !t.probed() {
				// (only the probes' follow-ups are run: keeping every
				// follow-up, a copy of its seed, took gigabytes on a
				// seed of megabytes)
				t.fu = nil
			}
			t.done = true
			return nil
		})
	}
	_ = g.Wait()
	n := 0
	for _, t := range trials {
		if t.done {
			n++
		}
	}
	return n, n == len(trials)
}

// mutationProblems tells each error of the trials once, at the first spot
// it was met at (in the order of relations, seeds and spots), with how
// many more spots met it.
func mutationProblems(trials []*trial) []string {
	type seen struct {
		at    int // index in problems
		first string
		more  int
		seeds map[string]bool
	}
	var problems []string
	byMsg := map[string]*seen{}
	var order []*seen
	for _, t := range trials {
		if !t.done || t.err == nil {
			continue
		}
		key := t.rel.Name + "\x00" + t.err.Error()
		if x := byMsg[key]; x != nil {
			x.more++
			x.seeds[t.seed] = true
			continue
		}
		x := &seen{at: len(problems), first: fmt.Sprintf("relation %s on %s at spot %d: %v", t.rel.Name, t.seed, t.spot().Index, t.err), seeds: map[string]bool{t.seed: true}}
		byMsg[key] = x
		order = append(order, x)
		problems = append(problems, x.first)
	}
	for _, x := range order {
		if x.more > 0 {
			problems[x.at] += fmt.Sprintf(" (met at %d spots, on %d seed%s)", x.more+1, len(x.seeds), plural(len(x.seeds)))
		}
	}
	return problems
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// probe is one follow-up that validate runs the transpiler on.
type probe struct {
	rel, seed, spot string
	line            int
	in              relation.Input
	followup        []byte
	res             *transpiler.Result
	err             error
}

// runProbes runs the transpiler on every probe's follow-up, a few at a
// time, and describes those it did not accept, in the probes' order. A
// follow-up whose base is not accepted either is the seed's problem, which
// a campaign skips: it is reported as such.
func runProbes(t transpiler.Transpiler, flags []string, probes []*probe) []string {
	ctx := context.Background()
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range probes {
		g.Go(func() error {
			p.res, p.err = t.Transpile(ctx, transpiler.Request{Name: p.in.Name, Src: p.followup, Role: transpiler.FollowUp, Flags: flags})
			return nil
		})
	}
	_ = g.Wait()
	var problems []string
	baseOK := map[string]bool{}
	for _, p := range probes {
		where := fmt.Sprintf("relation %s on %s at line %d (%s)", p.rel, p.seed, p.line, p.spot)
		switch {
		case p.err != nil:
			problems = append(problems, fmt.Sprintf("%s: cannot run the transpiler on the follow-up: %v", where, p.err))
			continue
		case p.res.Status == transpiler.Accepted:
			continue
		}
		ok, seen := baseOK[p.seed]
		if !seen {
			res, err := t.Transpile(ctx, transpiler.Request{Name: p.in.Name, Src: p.in.Src, Role: transpiler.Base, Flags: flags})
			ok = err == nil && res.Status == transpiler.Accepted
			baseOK[p.seed] = ok
		}
		why := firstLine(p.res.Stderr)
		if p.res.Status == transpiler.Rejected {
			why = p.res.Diagnostic()
		}
		if why == "" {
			why = "(nothing on stderr)"
		}
		if !ok {
			problems = append(problems, printable.Line(fmt.Sprintf("%s: the transpiler does not accept the seed itself either (a campaign skips it): %s", where, why)))
			continue
		}
		problems = append(problems, printable.Line(fmt.Sprintf("%s: the transpiler %s the follow-up: %s", where, verbOf(p.res.Status), why)))
	}
	return problems
}

// verbOf says what a transpiler did to an input it did not accept.
func verbOf(s transpiler.Status) string {
	switch s {
	case transpiler.Rejected:
		return "rejects"
	case transpiler.TimedOut:
		return "times out on"
	}
	return "crashes on"
}

type spotsCmd struct {
	Config   string   `short:"c" default:"mcpt.yaml" help:"Configuration file."`
	Relation string   `arg:"" help:"Relation name."`
	File     string   `arg:"" help:"Input file."`
	Seed     uint64   `default:"1" help:"Seed of the fresh names and picks."`
	Diff     bool     `default:"true" negatable:"" help:"Show each follow-up as a diff from the input."`
	Check    bool     `default:"true" negatable:"" help:"Run the configured transpiler on the file first and warn when it does not accept it: such a seed makes no test case."`
	Shapes   bool     `help:"Show what the derived checks of each spot see: the new declaration's shape and its sibling (analogy), its neighbours and, running the transpiler on the follow-up, the place of every line that names them (order)."`
	Flags    []string `placeholder:"DIMENSION=VALUE" help:"Keep only this value of a dimension of the configuration's flags (repeatable); the spots are those of the first combination left."`
}

func (c *spotsCmd) Run(tools *setup.Tools) error {
	s, err := loadSetup(tools, c.Config, nil, setup.Options{Flags: c.Flags})
	if err != nil {
		return err
	}
	flags := underFlags(s)
	rel, err := s.FindRelation(c.Relation)
	if err != nil {
		return usageErr("%v", err)
	}
	src, err := os.ReadFile(c.File)
	if err != nil {
		return usageErr("%v", err)
	}
	ctx, stop := interruptible()
	defer stop()
	in := (&engine.Tester{Release: s.Release}).Input(engine.Seed{Name: filepath.Base(c.File), Src: src, Flags: flags})
	spots, err := rel.Spots(ctx, in)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return usageErr("%s does not parse as relation %s expects: %v", c.File, rel.Name, err)
	}
	if c.Check {
		warnUnaccepted(s.Transpiler, c.File, in, flags.Args())
	}
	fmt.Printf("%s: %d spots for %s\n", c.File, len(spots), rel.Name)
	for _, sp := range spots {
		fu, err := rel.Mutate(ctx, in, sp, rand.New(rand.NewPCG(c.Seed, uint64(sp.Index))))
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			return err
		}
		fmt.Printf("\nspot %d at %s:%d:%d: %s\n", sp.Index, c.File, sp.Line, sp.Col, sp.Desc)
		if c.Diff {
			fmt.Print(indent(oracle.DiffInputs(in.Name, string(src), string(fu.Src))))
		}
		var keys []string
		for k := range fu.Bindings {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Printf("  %s = %s\n", k, fu.Bindings[k])
		}
		if c.Shapes {
			showShapes(s.Transpiler, in, fu, flags.Args())
		}
	}
	return nil
}

// showShapes prints what the derived checks of a follow-up see: the shape
// and sibling of analogy, the neighbours of order and the places of the
// lines of o′ that name them.
func showShapes(t transpiler.Transpiler, in relation.Input, fu *relation.FollowUp, flags []string) {
	var o2 tree.Tree
	transpiled := false
	for _, chk := range fu.Checks {
		switch c := chk.(type) {
		case *oracle.Analogy:
			sib := "none of the same shape that the input mentions once"
			if len(c.Renames) > 0 && !c.Renames[0].From.Empty() {
				sib = c.Renames[0].From.String()
			}
			fmt.Printf("  %s: shape %q, sibling %s\n", c.Name, displayShape(c.Shape), sib)
		case *oracle.Order:
			fmt.Printf("  %s: %s between %s and %s\n", c.Name, c.New, orNone(c.Prev), orNone(c.Next))
			if !transpiled {
				transpiled = true
				res, err := t.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp, Flags: flags})
				switch {
				case err != nil:
					fmt.Printf("    (no places: cannot run the transpiler: %v)\n", err)
				case res.Status != transpiler.Accepted:
					fmt.Printf("    (no places: the transpiler does not accept the follow-up: %s)\n", res.Status)
				default:
					o2 = res.Files
				}
			}
			for _, p := range c.ListPlaces(o2) {
				left := ""
				if !p.Checked {
					left = " (left out)"
				}
				fmt.Printf("    %s:%d: %-8s %q%s\n", p.File, p.Line, p.Role, p.Shape, left)
			}
		}
	}
}

// displayShape writes the masked names of a shape as @ (the declaration's
// own name) and @@ (a name of its list).
func displayShape(s string) string {
	return strings.NewReplacer("\x00", "@", "\x01", "@@").Replace(s)
}

func orNone(n oracle.Name) string {
	if n.Empty() {
		return "(none)"
	}
	return n.String()
}

// underFlags is the combination of flags validate and spots try the
// relations under: the first of the configuration's (as --flags keeps
// them), said on standard output with the release when there are some.
func underFlags(s *setup.Setup) matrix.Combination {
	all := s.Combinations()
	var parts []string
	if s.Release != "" {
		parts = append(parts, "release "+s.Release)
	}
	if f := all[0].String(); f != "" {
		what := "flags " + f
		if len(all) > 1 {
			what += fmt.Sprintf(" (the first of %d combinations; --flags picks others)", len(all))
		}
		parts = append(parts, what)
	}
	if len(parts) > 0 {
		fmt.Printf("transpiler: %s\n", strings.Join(parts, ", "))
	}
	return all[0]
}

// warnUnaccepted runs the transpiler on in, as a campaign's base run, and
// warns on stderr when it does not accept it.
func warnUnaccepted(t transpiler.Transpiler, file string, in relation.Input, flags []string) {
	res, err := t.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base, Flags: flags})
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "mcpt: warning: cannot run the transpiler on %s: %v\n", file, err)
	case res.Status != transpiler.Accepted:
		why := firstLine(res.Stderr)
		if why != "" {
			why = ": " + why
		}
		fmt.Fprintf(os.Stderr, "mcpt: warning: the transpiler does not accept %s (%s%s); as a seed it makes no test case\n", file, res.Status, why)
	}
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

type relationsCmd struct {
	Config string `short:"c" default:"mcpt.yaml" help:"Configuration file."`
}

func (c *relationsCmd) Run(tools *setup.Tools) error {
	s, err := loadSetup(tools, c.Config, nil, setup.Options{NoRelease: true})
	if err != nil {
		return err
	}
	for _, r := range s.Relations {
		fmt.Printf("%-32s %s\n", r.Name, r.Summary())
	}
	return nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// seedFailures are the relations that failed on a seed, by seed and
// message: a seed every relation refuses (too large, unreadable) is named
// once, with the relations, not once per relation.
type seedFailures struct {
	order []string            // seed and message, in the order first seen
	rels  map[string][]string // their relations
	seed  map[string]string
	msg   map[string]string
}

func (f *seedFailures) add(rel, seed string, err error) {
	k := seed + "\x00" + err.Error()
	if f.rels == nil {
		f.rels, f.seed, f.msg = map[string][]string{}, map[string]string{}, map[string]string{}
	}
	if _, ok := f.rels[k]; !ok {
		f.order = append(f.order, k)
		f.seed[k], f.msg[k] = seed, err.Error()
	}
	if rs := f.rels[k]; len(rs) == 0 || rs[len(rs)-1] != rel {
		f.rels[k] = append(rs, rel)
	}
}

// lines say, for each seed and message, which relations failed: "every
// relation" when all of the n did.
func (f *seedFailures) lines(n int) []string {
	var out []string
	for _, k := range f.order {
		rs := f.rels[k]
		who := "relation " + rs[0]
		switch {
		case len(rs) == n && n > 1:
			who = fmt.Sprintf("every relation (%d)", n)
		case len(rs) > 1:
			who = "relations " + strings.Join(rs, ", ")
		}
		out = append(out, fmt.Sprintf("%s on %s: %s", who, f.seed[k], f.msg[k]))
	}
	return out
}
