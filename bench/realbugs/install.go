package realbugs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	key := p.Registry + "/" + strings.NewReplacer("/", "~", "@", "").Replace(p.Name) + "@" + version
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
	if c.Log != nil {
		c.Log("installing %s@%s", p.Name, version)
	}
	var cmd *exec.Cmd
	switch p.Registry {
	case "npm":
		cmd = exec.CommandContext(ctx, "npm", "install", "--prefix", tmp, "--no-audit", "--no-fund",
			"--no-package-lock", "--loglevel=error", p.Name+"@"+version)
	case "go":
		cmd = exec.CommandContext(ctx, "go", "install", p.Name+"@"+version)
		cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(tmp, "bin"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		cmd.Dir = tmp // outside any module
	default:
		return "", fmt.Errorf("%s: unknown registry", p)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("installing %s@%s: %w\n%s", p.Name, version, err, bytes.TrimSpace(out.Bytes()))
	}
	if fi, err := os.Stat(binDir(p, tmp)); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("installing %s@%s: it installed no program", p.Name, version)
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
// returns their program directories in the order of Packages.
func (c *Cache) InstallRelease(ctx context.Context, b *Bug, release string) ([]string, error) {
	var bins []string
	for i, s := range b.Packages {
		p, err := ParsePackage(s)
		if err != nil {
			return nil, err
		}
		v := ""
		if i == 0 {
			v = release
		}
		bin, err := c.Install(ctx, p, v)
		if err != nil {
			return nil, err
		}
		bins = append(bins, bin)
	}
	return bins, nil
}
