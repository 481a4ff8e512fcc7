package realbugs

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
)

// RunTimeout bounds one run of a transpiler on a bug's minimal input.
var RunTimeout = 5 * time.Minute

// Outputs runs the bug's command on its minimal input with the programs of
// bins first on PATH (and their node_modules on NODE_PATH) and returns the output tree: file names (slash
// separated, relative to the output directory) and contents.
func (b *Bug) Outputs(ctx context.Context, bins []string) (map[string][]byte, error) {
	if len(b.ignore) != len(b.Ignore) {
		return nil, fmt.Errorf("%s: the ignore expressions are not compiled (a bug is read with Load)", b.ID)
	}
	work, err := os.MkdirTemp("", "mcpt-realbug-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	in, out := filepath.Join(work, "in"), filepath.Join(work, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	for _, f := range b.Input {
		data, err := os.ReadFile(filepath.Join(b.Dir, f))
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(in, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
	}
	r := strings.NewReplacer("{input}", b.Input[0], "{outdir}", out)
	args := make([]string, len(b.Run))
	for i, a := range b.Run {
		args[i] = r.Replace(a)
	}
	ctx, cancel := context.WithTimeout(ctx, RunTimeout)
	defer cancel()
	path := strings.Join(append(slices.Clone(bins), os.Getenv("PATH")), string(os.PathListSeparator))
	exe, err := lookPath(args[0], path)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, args[1:]...)
	cmd.Dir = in
	cmd.Env = append(os.Environ(), "PATH="+path, "NODE_PATH="+nodePath(bins))
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %s: %w\n%s", b.ID, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	tree := map[string][]byte{}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: the output holds %s, which is not a regular file", b.ID, p)
		}
		rel, _ := filepath.Rel(out, p)
		data, err := os.ReadFile(p)
		tree[filepath.ToSlash(rel)] = b.dropIgnored(data)
		return err
	})
	return tree, err
}

// nodePath lists the node_modules directories of the npm packages among
// bins, for NODE_PATH: a configuration in the input directory (a Babel
// preset, a plugin) names packages that node then finds there, as it would
// in a project that installed them. The user's own NODE_PATH is left out,
// so that nothing installed elsewhere takes part.
func nodePath(bins []string) string {
	var dirs []string
	for _, b := range bins {
		if filepath.Base(b) == ".bin" && filepath.Base(filepath.Dir(b)) == "node_modules" {
			dirs = append(dirs, filepath.Dir(b))
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// lookPath finds the program name on path (a list of directories), as
// exec.LookPath does on PATH.
func lookPath(name, path string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		return name, nil
	}
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in the installed packages nor on PATH", name)
}

// Diff is the unified difference from the fixed release's output tree to
// the buggy release's, file by file in the order of their names; empty when
// the trees are equal.
func Diff(fixed, buggy map[string][]byte) string {
	names := map[string]bool{}
	for n := range fixed {
		names[n] = true
	}
	for n := range buggy {
		names[n] = true
	}
	var b strings.Builder
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	}) {
		f, g := fixed[n], buggy[n]
		if bytes.Equal(f, g) {
			continue
		}
		b.WriteString(udiff.Unified("fixed/"+n, "buggy/"+n, string(f), string(g)))
	}
	return b.String()
}

// Verify installs the bug's buggy and fixed releases, runs both on the
// minimal input and returns the difference of their outputs (see Diff).
func (c *Cache) Verify(ctx context.Context, b *Bug) (string, error) {
	trees := make([]map[string][]byte, 2)
	for i, rel := range []string{b.Fixed, b.Buggy} {
		bins, err := c.InstallRelease(ctx, b, rel)
		if err != nil {
			return "", err
		}
		if trees[i], err = b.Outputs(ctx, bins); err != nil {
			return "", fmt.Errorf("release %s: %w", rel, err)
		}
	}
	return Diff(trees[0], trees[1]), nil
}

// dropIgnored leaves out the lines of data that one of the bug's ignore
// expressions matches.
func (b *Bug) dropIgnored(data []byte) []byte {
	if len(b.ignore) == 0 {
		return data
	}
	var out []byte
	for line := range bytes.Lines(data) {
		text := bytes.TrimRight(line, "\r\n")
		if slices.ContainsFunc(b.ignore, func(re *regexp.Regexp) bool { return re.Match(text) }) {
			continue
		}
		out = append(out, line...)
	}
	return out
}
