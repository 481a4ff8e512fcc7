package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

type validateCmd struct {
	Config string `short:"c" default:"mcpt.yaml" help:"Configuration file."`
}

// Run loads everything and tries each relation on each seed: find the spots,
// mutate at the first and last spot, instantiate the checkers. No
// transpiler runs, so template and pattern mistakes show up at once.
func (c *validateCmd) Run(tools *setup.Tools) error {
	s, err := loadSetup(tools, c.Config, nil)
	if err != nil {
		return err
	}
	var problems []string
	for _, r := range s.Relations {
		total := 0
		for _, sd := range s.Seeds {
			in := relation.Input{Name: path.Base(sd.Name), Src: sd.Src}
			spots, err := r.Spots(in)
			if err != nil {
				problems = append(problems, fmt.Sprintf("relation %s on %s: %v", r.Name, sd.Name, err))
				continue
			}
			total += len(spots)
			for _, i := range distinct(0, len(spots)-1) {
				if _, err := r.Mutate(in, spots[i], rand.New(rand.NewPCG(1, 2))); err != nil {
					problems = append(problems, fmt.Sprintf("relation %s on %s at spot %d: %v", r.Name, sd.Name, i, err))
				}
			}
		}
		fmt.Printf("%-32s %5d spots on %d seeds  %s\n", r.Name, total, len(s.Seeds), r.Summary())
		if total == 0 {
			// Not a mistake: the seeds may lack what it inserts into.
			fmt.Fprintf(os.Stderr, "mcpt: warning: relation %s has no spot on any seed: it makes no test case on these seeds\n", r.Name)
		}
	}
	if len(problems) > 0 {
		return usageErr("%s", strings.Join(problems, "\n"))
	}
	fmt.Printf("ok: %s: %d relations, %d seeds\n", c.Config, len(s.Relations), len(s.Seeds))
	return nil
}

func distinct(a, b int) []int {
	if b < 0 {
		return nil
	}
	if a == b {
		return []int{a}
	}
	return []int{a, b}
}

type spotsCmd struct {
	Config   string `short:"c" default:"mcpt.yaml" help:"Configuration file."`
	Relation string `arg:"" help:"Relation name."`
	File     string `arg:"" help:"Input file."`
	Seed     uint64 `default:"1" help:"Seed of the fresh names and picks."`
	Diff     bool   `default:"true" negatable:"" help:"Show each follow-up as a diff from the input."`
	Check    bool   `default:"true" negatable:"" help:"Run the configured transpiler on the file first and warn when it does not accept it: such a seed makes no test case."`
	Shapes   bool   `help:"Show what the derived checks of each spot see: the new declaration's shape and its sibling (analogy), its neighbours and, running the transpiler on the follow-up, the place of every line that names them (order)."`
}

func (c *spotsCmd) Run(tools *setup.Tools) error {
	s, err := loadSetup(tools, c.Config, nil)
	if err != nil {
		return err
	}
	rel, err := s.FindRelation(c.Relation)
	if err != nil {
		return usageErr("%v", err)
	}
	src, err := os.ReadFile(c.File)
	if err != nil {
		return usageErr("%v", err)
	}
	in := relation.Input{Name: filepath.Base(c.File), Src: src}
	spots, err := rel.Spots(in)
	if err != nil {
		return usageErr("%s does not parse as relation %s expects: %v", c.File, rel.Name, err)
	}
	if c.Check {
		warnUnaccepted(s.Transpiler, c.File, in)
	}
	fmt.Printf("%s: %d spots for %s\n", c.File, len(spots), rel.Name)
	for _, sp := range spots {
		fu, err := rel.Mutate(in, sp, rand.New(rand.NewPCG(c.Seed, uint64(sp.Index))))
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
			showShapes(s.Transpiler, in, fu)
		}
	}
	return nil
}

// showShapes prints what the derived checks of a follow-up see: the shape
// and sibling of analogy, the neighbours of order and the places of the
// lines of o′ that name them.
func showShapes(t transpiler.Transpiler, in relation.Input, fu *relation.FollowUp) {
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
				res, err := t.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp})
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

// warnUnaccepted runs the transpiler on in, as a campaign's base run, and
// warns on stderr when it does not accept it.
func warnUnaccepted(t transpiler.Transpiler, file string, in relation.Input) {
	res, err := t.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base})
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
	s, err := loadSetup(tools, c.Config, nil)
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
