// Package dtsprobe is a semantic checker for TypeScript declaration
// files: it writes a small TypeScript file that uses the member a
// mutation added as the member's source declaration allows and forbids
// (left out when optional, assigned unless readonly, given undefined,
// called with each number of arguments), type-checks it against the
// follow-up input and then against the .d.ts the transpiler emitted for
// it, and fails where the two disagree. A declaration emitter that drops
// an optional method, or `| undefined` from an optional parameter
// property, keeps the .d.ts consistent with its siblings' lines; a
// consumer's type checker sees the difference.
//
// The source decides what is true, so a probe the worker writes wrongly
// costs nothing: a statement that the source rejects must be rejected by
// the .d.ts as well. A probe that cannot be checked against the source (a
// module it imports is not among the output's declaration files) is
// undecided.
//
// The probes are checked by TypeScript in a persistent node worker
// (probe.js, embedded), in memory, allowed by node's permission model to
// read the TypeScript package only (package internal/nodeproc).
package dtsprobe

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpt-tool/mcpt/internal/nodeproc"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

//go:embed probe.js
var script string

// DefaultOptions are the compiler options of the probes: strict, with
// exactOptionalPropertyTypes, which tells `x?: T` from
// `x?: T | undefined`.
var DefaultOptions = []string{"--strict", "--exactOptionalPropertyTypes", "--target", "es2022", "--lib", "es2022", "--module", "esnext", "--moduleResolution", "bundler"}

// Timeout bounds one check.
const Timeout = 2 * time.Minute

// Check is the dts-probe check of one follow-up.
type Check struct {
	// Name names the check in findings ("dts-probe" when empty).
	Name string
	// File is the declaration file of o′ the probe imports (NAME.d.ts);
	// the source stands beside it as NAME.ts.
	File string
	// Source is the follow-up input, the module's TypeScript.
	Source []byte
	// Member is the added member's name, Of the exported declaration
	// that holds it (an interface, object type, class or enum; a dotted
	// path through namespaces), "" for an exported declaration itself.
	Member, Of string
	// Options are tsc's options for the probes (DefaultOptions when nil).
	Options []string
	// TypeScript is the directory of the TypeScript package; Node the
	// node program ("" finds node on PATH).
	TypeScript, Node string
}

// CheckerName implements relation.Named.
func (c *Check) CheckerName() string {
	if c.Name == "" {
		return "dts-probe"
	}
	return c.Name
}

// Check runs the check; failures only (see DecideContext).
func (c *Check) Check(o, o2 tree.Tree) []oracle.Failure {
	return c.DecideContext(context.Background(), o, o2).Fails
}

// Probe is one probe: its statement, what it asks, and what each side
// said of it ("" when it compiles).
type Probe struct {
	Text   string `json:"text"`
	What   string `json:"what"`
	Source string `json:"source"`
	Decl   string `json:"decl"`
}

type response struct {
	Probes    []Probe `json:"probes"`
	Probe     string  `json:"probe"`
	Undecided string  `json:"undecided"`
	Error     string  `json:"error"`
	// Reused says that the worker's program before this one lent its
	// structure (its library files) to this one's.
	Reused bool `json:"reused"`
}

// DecideContext writes and checks the probes. It cannot decide when node
// or TypeScript cannot run, when the source lacks the member, or when the
// probe cannot be checked against the source.
func (c *Check) DecideContext(ctx context.Context, _, o2 tree.Tree) oracle.Verdict {
	undecided := func(format string, args ...any) oracle.Verdict {
		return oracle.Verdict{Undecided: []string{fmt.Sprintf(format, args...)}}
	}
	if c.TypeScript == "" {
		return undecided("no TypeScript package found (typescript: in the check names its directory)")
	}
	if _, ok := o2[c.File]; !ok {
		return undecided("%s is not in o′", c.File)
	}
	decls := map[string]string{}
	for name, b := range o2 {
		if strings.HasSuffix(name, ".d.ts") {
			decls[name] = string(b)
		}
	}
	opts := c.Options
	if opts == nil {
		opts = DefaultOptions
	}
	req := map[string]any{"module": c.File, "source": string(c.Source), "decls": decls, "name": c.Member, "of": c.Of, "options": opts}
	var resp response
	err := pool(c.Node, c.TypeScript).Call(ctx, req, &resp, Timeout)
	var ce *nodeproc.CallError
	if errors.As(err, &ce) && ce.Timeout {
		err = pool(c.Node, c.TypeScript).Call(ctx, req, &resp, Timeout) // once more: the machine may have been busy
	}
	if err == nil && resp.Reused {
		reusedPrograms.Add(1)
	}
	switch {
	case err != nil:
		return undecided("%v", err)
	case resp.Error != "":
		return undecided("%s", resp.Error)
	case resp.Undecided != "":
		return undecided("%s", resp.Undecided)
	}
	var diffs []string
	for _, p := range resp.Probes {
		switch {
		case p.Source == p.Decl || p.Source != "" && p.Decl != "":
		case p.Source == "":
			diffs = append(diffs, fmt.Sprintf("`%s` (%s) compiles against the source but not against %s: %s", p.Text, p.What, c.File, p.Decl))
		default:
			diffs = append(diffs, fmt.Sprintf("`%s` (%s) compiles against %s but not against the source: %s", p.Text, p.What, c.File, p.Source))
		}
	}
	if len(diffs) == 0 {
		return oracle.Verdict{}
	}
	msg := fmt.Sprintf("%s in o′ describes %s otherwise than the source: %s", c.File, c.what(), diffs[0])
	if len(diffs) > 1 {
		msg += fmt.Sprintf(" (and %d more: %s)", len(diffs)-1, strings.Join(diffs[1:min(len(diffs), 5)], "; "))
	}
	return oracle.Verdict{Fails: []oracle.Failure{{
		Checker: c.CheckerName(), File: c.File, Message: msg,
		Expected: report(resp.Probes, true), Actual: report(resp.Probes, false),
		Diff: oracle.Diff(c.File, report(resp.Probes, true), report(resp.Probes, false)),
		Compared: &result.Compared{Kind: "dts-probe", Differences: diffs,
			Expects:  fmt.Sprintf("Each use of %s (left out, assigned, given undefined, called with each arity), type-checked against the follow-up input i′ and against %s of o′, compiles against both or against neither: the expected column says what the type checker says against i′, the found one against %s.", c.what(), c.File, c.File),
			Expected: report(resp.Probes, true), Found: report(resp.Probes, false)},
	}}}
}

func (c *Check) what() string {
	if c.Of == "" {
		return c.Member
	}
	return c.Of + "." + c.Member
}

// report lists the probes with what the source (or the declaration file)
// said of each: the evidence of a finding.
func report(ps []Probe, source bool) string {
	var b strings.Builder
	for _, p := range ps {
		said := p.Decl
		if source {
			said = p.Source
		}
		if said == "" {
			said = "compiles"
		}
		fmt.Fprintf(&b, "%s\n    %s: %s\n", p.Text, p.What, said)
	}
	return b.String()
}

// FindTypeScript finds the TypeScript package as node would from dir:
// node_modules/typescript in dir or a directory above it. It returns ""
// when there is none.
func FindTypeScript(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "node_modules", "typescript")
		if st, err := os.Stat(filepath.Join(p, "package.json")); err == nil && st.Mode().IsRegular() {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// reusedPrograms counts the checks whose program took the structure of
// the worker's program before (the tests read it).
var reusedPrograms atomic.Int64

// workerCalls is how many checks a worker serves before it is replaced.
// Starting one costs as much as some seventy warm checks (TypeScript
// loaded and its library files parsed: about 1.4 s of processor time
// against about 20 ms a check), and its memory levels off (about 350 MB
// after 1,500 checks, under a heap bounded at 1 GB), so a worker lives
// longer than nodeproc's default.
const workerCalls = 2000

// pools are the worker pools, one per node program and TypeScript
// package, started when a check first needs one.
var (
	poolsMu sync.Mutex
	pools   = map[[2]string]*nodeproc.Pool{}
)

func pool(node, ts string) *nodeproc.Pool {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	k := [2]string{node, ts}
	p := pools[k]
	if p == nil {
		p = nodeproc.New(nodeproc.Config{Name: "dts-probe worker", Node: node, Script: script, Args: []string{ts}, Read: []string{ts}, HeapMB: 1024, DataBytes: 3 << 30, Calls: workerCalls})
		pools[k] = p
	}
	return p
}
