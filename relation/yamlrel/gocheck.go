package yamlrel

// Checker kinds written in Go: a relation file names one with
// `go: {kind: NAME, args: {KEY: TEMPLATE…}}`, and the kind builds the
// checker of each follow-up from the rendered arguments.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// GoChecker is a checker kind written in Go, usable from relation files.
type GoChecker struct {
	// Kind is the name relation files use (`go: {kind: Kind}`).
	Kind string
	// Doc says what the checker checks; its first line is its help line.
	Doc string
	// Args are the arguments it takes; each is a template rendered for
	// every follow-up.
	Args []string
	// New builds the checker of one follow-up. name is the check's name
	// in findings; args holds every argument of Args ("" when not given).
	New func(name string, args map[string]string) (relation.Checker, error)
}

var (
	goCheckersMu sync.Mutex
	goCheckers   = map[string]GoChecker{}
)

// RegisterChecker makes a checker kind available to the relation files
// loaded after it. Registering a kind twice panics.
func RegisterChecker(k GoChecker) {
	goCheckersMu.Lock()
	defer goCheckersMu.Unlock()
	if _, dup := goCheckers[k.Kind]; dup {
		panic("yamlrel: checker kind " + k.Kind + " registered twice")
	}
	goCheckers[k.Kind] = k
}

type goCheckYAML struct {
	Kind yamlpos.String            `yaml:"kind"`
	Name *yamlpos.String           `yaml:"name"`
	Args map[string]yamlpos.String `yaml:"args"`
}

type goCheckT struct {
	kind GoChecker
	name string
	args map[string]*tmpl
}

func compileGoCheck(g *goCheckYAML) (*goCheckT, error) {
	goCheckersMu.Lock()
	k, ok := goCheckers[g.Kind.Value]
	have := slices.Sorted(maps.Keys(goCheckers))
	goCheckersMu.Unlock()
	if !ok {
		if len(have) == 0 {
			have = []string{"none"}
		}
		return nil, g.Kind.At("no checker kind %q in this mcpt (it has: %s)", g.Kind.Value, strings.Join(have, ", "))
	}
	c := &goCheckT{kind: k, name: k.Kind, args: map[string]*tmpl{}}
	if g.Name != nil {
		c.name = g.Name.Value
	}
	for _, key := range slices.Sorted(maps.Keys(g.Args)) {
		v := g.Args[key]
		if !slices.Contains(k.Args, key) {
			return nil, v.At("checker kind %s has no argument %q (it takes: %s)", k.Kind, key, strings.Join(k.Args, ", "))
		}
		t, err := mkTmpl(v)
		if err != nil {
			return nil, err
		}
		c.args[key] = t
	}
	return c, nil
}

func (c *goCheckT) instantiate(ctx context.Context, data map[string]any) (relation.Checker, error) {
	args := map[string]string{}
	for _, key := range c.kind.Args {
		args[key] = ""
		if t := c.args[key]; t != nil {
			v, err := t.render(ctx, data)
			if err != nil {
				return nil, err
			}
			args[key] = strings.TrimSpace(v)
		}
	}
	chk, err := c.kind.New(c.name, args)
	if err != nil {
		return nil, fmt.Errorf("checker kind %s: %w", c.kind.Kind, err)
	}
	return chk, nil
}
