package realbugs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Cache is where installed releases are kept, one directory per package
// and version, so that each is installed once.
type Cache struct {
	Dir string
	// Log, when set, receives a line per installation.
	Log func(format string, args ...any)
}

// DefaultCacheDir is $MCPT_REALBUGS_CACHE, else mcpt/realbugs in the
// user's cache directory.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("MCPT_REALBUGS_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set MCPT_REALBUGS_CACHE): %w", err)
	}
	return filepath.Join(d, "mcpt", "realbugs"), nil
}

// Install installs p at version (p.Version when set) unless the cache has
// it, and returns the directory of its programs.
func (c *Cache) Install(ctx context.Context, p Package, version string) (string, error) {
	if p.Version != "" {
		version = p.Version
	}
	if version == "" {
		return "", fmt.Errorf("%s: no version", p)
	}
	p.Version = version
	return c.install(ctx, []Package{p})
}

// install installs pkgs, all of one registry and each with its version,
// into one directory unless the cache has it, and returns the directory of
// their programs. npm packages installed together see each other: a CLI
// finds the core it drives and a configuration the presets it names, at
// the versions given rather than at whatever the CLI's own dependencies
// would pull in.
func (c *Cache) install(ctx context.Context, pkgs []Package) (string, error) {
	p := pkgs[0]
	var keys, specs []string
	for _, q := range pkgs {
		if q.Registry != p.Registry {
			return "", fmt.Errorf("%s and %s: not of one registry", p, q)
		}
		keys = append(keys, strings.NewReplacer("/", "~", "@", "").Replace(q.Name)+"@"+q.Version)
		specs = append(specs, q.Name+"@"+q.Version)
	}
	key := p.Registry + "/" + strings.Join(keys, "+")
	dir := filepath.Join(c.Dir, filepath.FromSlash(key))
	bin := binDir(p, dir)
	if fi, err := os.Stat(bin); err == nil && fi.IsDir() {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	// Installed into a directory of its own, then renamed: an installation
	// cut short leaves nothing in the cache.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".installing-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	what := strings.Join(specs, " ")
	if c.Log != nil {
		c.Log("installing %s", what)
	}
	var cmd *exec.Cmd
	switch p.Registry {
	case "npm":
		args := append([]string{"install", "--prefix", tmp, "--no-audit", "--no-fund",
			"--no-package-lock", "--loglevel=error"}, specs...)
		cmd = exec.CommandContext(ctx, "npm", args...)
	case "go":
		if len(pkgs) > 1 {
			return "", fmt.Errorf("%s: Go commands are installed one at a time", what)
		}
		cmd = exec.CommandContext(ctx, "go", "install", specs[0])
		cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(tmp, "bin"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		cmd.Dir = tmp // outside any module
	default:
		return "", fmt.Errorf("%s: unknown registry", p)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("installing %s: %w\n%s", what, err, bytes.TrimSpace(out.Bytes()))
	}
	if fi, err := os.Stat(binDir(p, tmp)); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("installing %s: it installed no program", what)
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, os.ErrExist) {
		// Another process may have installed it meanwhile.
		if _, serr := os.Stat(bin); serr != nil {
			return "", err
		}
	}
	return bin, nil
}

// binDir is where the programs of p installed in dir are.
func binDir(p Package, dir string) string {
	if p.Registry == "npm" {
		return filepath.Join(dir, "node_modules", ".bin")
	}
	return filepath.Join(dir, "bin")
}

// InstallRelease installs the bug's packages, the first at release, and
// returns the directories of their programs in the order of Packages: one
// for all the npm packages, installed together (see install), one per Go
// command.
func (c *Cache) InstallRelease(ctx context.Context, b *Bug, release string) ([]string, error) {
	var npm []Package
	var bins []string
	npmAt := 0 // where the npm packages' directory goes among bins
	for i, s := range b.Packages {
		p, err := ParsePackage(s)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			p.Version = release
		}
		if p.Version == "" {
			return nil, fmt.Errorf("%s: no version", p)
		}
		if p.Registry == "npm" {
			if len(npm) == 0 {
				npmAt = len(bins)
			}
			npm = append(npm, p)
			continue
		}
		bin, err := c.install(ctx, []Package{p})
		if err != nil {
			return nil, err
		}
		bins = append(bins, bin)
	}
	if len(npm) > 0 {
		bin, err := c.install(ctx, npm)
		if err != nil {
			return nil, err
		}
		bins = slices.Insert(bins, npmAt, bin)
	}
	return bins, nil
}
