package bench

import (
	"slices"
	"sync/atomic"

	"github.com/mcpt-tool/mcpt/internal/nodeproc"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/oracle/goprobe"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/tree"
)

// SemanticKinds name the semantic checker kinds: those that run or
// type-check what the follow-up's new declaration became (semrel.Kinds:
// js-shape, dts-probe, go-probe) or judge what a probe saw when it ran it
// (protobuf-js), rather than read the output's text.
var SemanticKinds = func() []string {
	var names []string
	for _, k := range semrel.Kinds {
		names = append(names, k.Name)
	}
	return append(names, protorel.ProtoJS.Name)
}()

// WithoutSemantic returns tools whose semantic checker kinds (those of
// SemanticKinds) still compile each check, so that the relations load as
// they do with them, but make checkers that check nothing: the same
// campaign, the same picks and transpiler runs, with the semantic checks
// left out. left counts the checks compiled so.
func WithoutSemantic(t *setup.Tools, left *atomic.Int64) *setup.Tools {
	if t == nil {
		return nil
	}
	semantic := map[string]bool{}
	for _, k := range SemanticKinds {
		semantic[k] = true
	}
	out := *t
	out.CheckerKinds = slices.Clone(t.CheckerKinds)
	for i, k := range out.CheckerKinds {
		if !semantic[k.Name] {
			continue
		}
		newCheck := k.New
		k.New = func(spec *yamlrel.Spec) (yamlrel.Check, error) {
			c, err := newCheck(spec)
			if err != nil {
				return nil, err
			}
			left.Add(1)
			return leftOut{name: checkerName(c, k.Name)}, nil
		}
		out.CheckerKinds[i] = k
	}
	return &out
}

func checkerName(c yamlrel.Check, kind string) string {
	if n, ok := c.(relation.Named); ok {
		return n.CheckerName()
	}
	return kind
}

// leftOut is a semantic check left out: its checkers pass everything.
type leftOut struct{ name string }

func (l leftOut) Checker(*yamlrel.Mutation) (relation.Checker, error) { return l, nil }
func (l leftOut) CheckerName() string                                 { return l.name }
func (leftOut) Check(o, o2 tree.Tree) []oracle.Failure                { return nil }

// workerCounts are what the semantic checkers of this process did so far:
// node and go processes started, go-probe's checks and those of them that
// built the probe.
type workerCounts struct {
	processes, goChecks, goBuilt int64
}

func semanticCounts() workerCounts {
	g := goprobe.ReadStats()
	return workerCounts{processes: nodeproc.Started() + g.Processes, goChecks: g.Checks, goBuilt: g.Built}
}

func (a workerCounts) sub(b workerCounts) workerCounts {
	return workerCounts{a.processes - b.processes, a.goChecks - b.goChecks, a.goBuilt - b.goBuilt}
}
