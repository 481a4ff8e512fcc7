package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// loadFinding reads the bundle in dir and loads what running its test
// case again needs: the configuration given (config), else the bundle's
// recipe. The bundle's base stands in for the configured seeds. A bundle
// without a recipe needs config: the configuration its finding records is
// the sender's word, and is never read.
//
// A recipe's command is the sender's: it is run only when trust is set or
// when it is the command of the configuration the recipe names, as found
// here outside the bundle.
func loadFinding(tools *setup.Tools, dir, config string, trust bool) (*bundle.Bundle, *setup.Setup, error) {
	bd, err := bundle.Load(dir)
	if err != nil {
		if fi, serr := os.Stat(dir + bundle.Ext); errors.Is(err, fs.ErrNotExist) && serr == nil && fi.Mode().IsRegular() {
			// The path of an earlier mcpt's bundle directory, or the
			// archive's without its extension.
			return nil, nil, usageErr("%s: no such bundle: a bundle is one archive, %s", dir, quoteArg(dir+bundle.Ext))
		}
		return nil, nil, usageErr("%s: %v", dir, err)
	}
	f := bd.Finding
	// The bundle's base, by its path in the bundle (an archive is read
	// in memory, never unpacked).
	seeds := []engine.Seed{{Name: filepath.ToSlash(filepath.Join(dir, bundle.BaseDir, bd.InputName())), Src: bd.Base}}
	var s *setup.Setup
	switch {
	case config != "":
		s, err = setup.Load(config, setup.Options{Seeds: seeds, Tools: tools})
	case bd.Recipe != nil:
		if cmd := bd.Recipe.Transpiler.Runs(); len(cmd) > 0 && !trust && !ownCommand(bd.Recipe, dir) {
			if bd.Recipe.Transpiler.Kind == spec.HTTP {
				return nil, nil, usageErr("the bundle's transpiler is the service %s: mcpt sends inputs to a service from a bundle only with --trust, or pass -c with a configuration of yours", quoteArgs(cmd))
			}
			also := ""
			if v := bd.Recipe.Transpiler.Version; len(v) > 0 {
				also = ", with the version command " + quoteArgs(v)
			}
			return nil, nil, usageErr("the bundle's transpiler is the command %s (in %s%s): mcpt runs a command from a bundle only with --trust, or pass -c with a configuration of yours",
				quoteArgs(cmd), quoteArg(bd.Recipe.Transpiler.Dir), also)
		}
		recipe := *bd.Recipe
		if d := recipe.Transpiler.Dir; len(recipe.Transpiler.Runs()) > 0 && recipe.Transpiler.Kind != spec.HTTP && !isDir(d) {
			// Another machine: the command runs where mcpt is started.
			fmt.Fprintf(os.Stderr, "mcpt: the transpiler's directory %s is not here: running %s in the current directory\n", quoteArg(d), quoteArgs(recipe.Transpiler.Runs()))
			if recipe.Transpiler.Dir, err = os.Getwd(); err != nil {
				return nil, nil, err
			}
		}
		if s, err = tools.FromRecipeSeeds(&recipe, seeds); err != nil {
			// What the recipe says is the bundle's: named by its file.
			var ce *setup.ConfigError
			if errors.As(err, &ce) {
				err = ce.Err
			}
			return nil, nil, usageErr("%s: %v", filepath.Join(dir, bundle.RecipeFile), err)
		}
	default:
		recorded := ""
		if f.Config != "" {
			recorded = fmt.Sprintf(" (the finding names %s, which mcpt does not read on its word)", quoteArg(f.Config))
		}
		return nil, nil, usageErr("%s has no %s: pass -c with the configuration to run its test case with%s", quoteArg(dir), bundle.RecipeFile, recorded)
	}
	if err != nil {
		return nil, nil, err
	}
	if f.Relation != "-" && s.Relation(f.Relation) == nil {
		s.Close()
		return nil, nil, usageErr("relation %s is not in %s", f.Relation, s.Config.File)
	}
	return bd, s, nil
}

// ownCommand tells whether the recipe's command is that of the
// configuration it names, as that file is here. A configuration inside the
// bundle, or inside the output directory that holds it, came with the
// bundle: it is never the user's.
func ownCommand(r *bundle.Recipe, bundleDir string) bool {
	if r.Config == "" || !outsideBundle(r.Config, bundleDir) {
		return false
	}
	cfg, err := config.Load(r.Config)
	if err != nil {
		return false
	}
	own, err := (&setup.Setup{Config: cfg}).Spec()
	return err == nil && own.Equal(r.Transpiler)
}

// outsideBundle tells whether the file cfg lies outside the bundle
// directory dir and outside the output directory that holds dir (its
// grandparent, when dir is in a findings directory), links resolved.
func outsideBundle(cfg, dir string) bool {
	c, err1 := realPath(cfg)
	d, err2 := realPath(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	if filepath.Base(filepath.Dir(d)) == bundle.Dir {
		d = filepath.Dir(filepath.Dir(d))
	}
	rel, err := filepath.Rel(d, c)
	return err == nil && !filepath.IsLocal(rel)
}

// realPath is the absolute path of p with its links resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// quoteArgs shows a command line, each argument as quoteArg shows it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quoteArg(a)
	}
	return strings.Join(q, " ")
}

// quoteArg shows an argument or a path as it is, or, when it is empty or
// holds a space, a quote, a shell character or anything that is not
// printable (a control character could hide part of it on a terminal), as a
// Go string literal with every such character escaped.
func quoteArg(a string) string {
	if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") || strconv.Quote(a) != `"`+a+`"` {
		return strconv.Quote(a)
	}
	return a
}
