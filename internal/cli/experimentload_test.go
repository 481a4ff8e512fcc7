package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
)

// TestExperimentLoad: the experiment reads its configuration through
// setup.Load, as mcpt run does: the seeds are named by their path in the
// snapshot, the normalisation rules are the configuration's, --sample is
// read with its files, and the configured program need not be installed
// (an instrumented build takes its place); a builtin transpiler is a
// usage error, and the mistakes of the configuration and of the relation
// files are told together.
func TestExperimentLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/t\n")
	write("seeds/a.prog", "x\n")
	write("rel.yaml", "relations: []\n")
	write("exec.yaml", "transpiler: {command: [not-installed-transpiler, '{input}']}\nseeds: {files: ['seeds/*.prog']}\nrelations: {files: [rel.yaml]}\nnormalize: [{match: '^// at'}]\n")
	write("builtin.yaml", "transpiler: {builtin: cllc}\nseeds: {files: ['seeds/*.prog']}\nrelations: {files: [rel.yaml]}\n")
	write("bad.yaml", "transpiler: {command: [x], timeout: soon}\nseeds: {files: ['seeds/*.prog']}\nrelations: {files: [broken.yaml]}\n")
	write("broken.yaml", "relations: [{name: broken\n")

	c := &experimentCmd{Config: filepath.Join(dir, "exec.yaml")}
	ec, err := c.load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ec.Seeds) != 1 || ec.Seeds[0].Name != "seeds/a.prog" {
		t.Errorf("seeds %+v, want seeds/a.prog as the snapshot names it", ec.Seeds)
	}
	if len(ec.Normalize) != 1 || ec.Normalize[0].Match.String() != "^// at" {
		t.Errorf("normalisation %+v", ec.Normalize)
	}
	if ec.Command.Argv[0] != "not-installed-transpiler" || ec.Module != dir {
		t.Errorf("command %q, module %s", ec.Command.Argv, ec.Module)
	}
	if ec.Sample != "" || ec.SampleSrc != nil {
		t.Errorf("no --sample: sample %q", ec.Sample)
	}

	// --sample is read with the configuration's files, once: a seed
	// given as the sample is the seed as the campaigns read it.
	c.Sample = filepath.Join(dir, "seeds", "a.prog")
	ec, err = c.load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(ec.SampleSrc) != "x\n" || ec.Sample != c.Sample {
		t.Errorf("--sample: %q, %q", ec.Sample, ec.SampleSrc)
	}
	c.Sample = ""

	c.Config = filepath.Join(dir, "builtin.yaml")
	_, err = c.load(nil)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), "needs a transpiler run as an external command") {
		t.Errorf("a builtin transpiler: %v", err)
	}

	c.Config = filepath.Join(dir, "bad.yaml")
	_, err = c.load(nil)
	var ce *setup.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "bad.yaml:1:37: timeout") || !strings.Contains(err.Error(), "broken.yaml:") {
		t.Errorf("a configuration and a relation file in error: %v", err)
	}
}
