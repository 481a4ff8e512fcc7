package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/internal/setup"
)

// loadFinding reads the bundle in dir and loads what running its test
// case again needs: the configuration given (config), else the bundle's
// recipe, else (a bundle without one) the configuration the finding
// records. The bundle's base stands in for the configured seeds.
//
// A recipe's command is the sender's: it is run only when trust is set or
// when it is the command of the configuration the recipe names, as found
// here.
func loadFinding(tools *setup.Tools, dir, config string, trust bool) (*bundle.Bundle, *setup.Setup, error) {
	bd, err := bundle.Load(dir)
	if err != nil {
		return nil, nil, usageErr("%s: %v", dir, err)
	}
	f := bd.Finding
	seedFiles := []string{filepath.Join(dir, bundle.BaseDir, bd.InputName())}
	var s *setup.Setup
	switch {
	case config != "":
		s, err = setup.Load(config, setup.Options{SeedFiles: seedFiles, Tools: tools})
	case bd.Recipe != nil:
		if cmd := bd.Recipe.Transpiler.Runs(); len(cmd) > 0 && !trust && !ownCommand(bd.Recipe) {
			return nil, nil, usageErr("the bundle's transpiler is the command %s (in %s): mcpt runs a command from a bundle only with --trust, or pass -c with a configuration of yours",
				quoteArgs(cmd), bd.Recipe.Transpiler.Dir)
		}
		recipe := *bd.Recipe
		if d := recipe.Transpiler.Dir; len(recipe.Transpiler.Runs()) > 0 && !isDir(d) {
			// Another machine: the command runs where mcpt is started.
			fmt.Fprintf(os.Stderr, "mcpt: the transpiler's directory %s is not here: running %s in the current directory\n", d, quoteArgs(recipe.Transpiler.Runs()))
			if recipe.Transpiler.Dir, err = os.Getwd(); err != nil {
				return nil, nil, err
			}
		}
		s, err = tools.FromRecipe(&recipe, seedFiles)
	default:
		config = f.Config
		if config == "" {
			return nil, nil, usageErr("the finding records no configuration: pass -c")
		}
		if _, err := os.Stat(config); err != nil {
			return nil, nil, usageErr("the configuration recorded in the finding: %v (pass -c)", err)
		}
		s, err = setup.Load(config, setup.Options{SeedFiles: seedFiles, Faults: f.Faults, Tools: tools})
	}
	if err != nil {
		return nil, nil, err
	}
	if f.Relation != "-" && s.Relation(f.Relation) == nil {
		return nil, nil, usageErr("relation %s is not in %s", f.Relation, s.Config.File)
	}
	return bd, s, nil
}

// ownCommand tells whether the recipe's command is that of the
// configuration it names, as that file is here.
func ownCommand(r *bundle.Recipe) bool {
	if r.Config == "" {
		return false
	}
	cfg, err := config.Load(r.Config)
	if err != nil {
		return false
	}
	dir, err := filepath.Abs(cfg.Transpiler.WorkDir)
	return err == nil && dir == r.Transpiler.Dir && slices.Equal(cfg.Transpiler.Command, r.Transpiler.Command) &&
		slices.Equal(cfg.Transpiler.Worker, r.Transpiler.Worker) &&
		slices.Equal(cfg.Transpiler.Env, r.Transpiler.Env)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") {
			q[i] = strconv.Quote(a)
		}
	}
	return strings.Join(q, " ")
}
