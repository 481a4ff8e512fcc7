package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlags: the flags section keeps the order of the file, each value's
// arguments (none for null or []), and where each was written.
func TestFlags(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.cll", "r.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tail := "seeds: {files: [a.cll]}\nrelations: {files: [r.yaml]}\n"
	c, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(`transpiler:
  command: [tsc, '{flags}', '{input}']
  version: [tsc, --version]
flags:
  target: {es2022: [--target, es2022], es2017: [--target, es2017]}
  strict:
    on: [--strict, true]
    off:
    default: []
`+tail))
	if err != nil {
		t.Fatal(err)
	}
	m := c.Flags.Matrix
	var got []string
	for _, cb := range m.Combinations() {
		got = append(got, cb.String()+" "+strings.Join(cb.Args(), " "))
	}
	want := []string{
		"target=es2022,strict=on --target es2022 --strict true", "target=es2022,strict=off --target es2022", "target=es2022,strict=default --target es2022",
		"target=es2017,strict=on --target es2017 --strict true", "target=es2017,strict=off --target es2017", "target=es2017,strict=default --target es2017",
	}
	if !slices.Equal(got, want) {
		t.Errorf("combinations\n%q\nwant\n%q", got, want)
	}
	if p := c.FlagPos("strict", "off"); p.Line != 8 || p.Col != 5 {
		t.Errorf("strict=off at %v, want 8:5", p)
	}
	if p := c.FlagPos("target", ""); p.Line != 5 || p.Col != 3 {
		t.Errorf("target at %v, want 5:3", p)
	}
	if !slices.Equal(c.Transpiler.Version, []string{"tsc", "--version"}) {
		t.Errorf("version %q", c.Transpiler.Version)
	}

	for src, w := range map[string]string{
		"transpiler: {command: [t, '{input}']}\nflags: {target: {es5: [--target, es5]}}":                    "mcpt.yaml:1:23: transpiler: command has no {flags} argument",
		"transpiler: {worker: [w], arguments: ['{input}']}\nflags: {t: {a: [x]}}":                           "mcpt.yaml:1:38: transpiler: arguments has no {flags} argument",
		"transpiler: {worker: [w]}\nflags: {t: {a: [x]}}":                                                   "transpiler: arguments has no {flags} argument",
		"transpiler: {command: [t, '--x={flags}']}\nflags: {t: {a: [x]}}":                                   `mcpt.yaml:1:27: transpiler: {flags} stands for several arguments: write it as an argument of its own, not within "--x={flags}"`,
		"transpiler: {command: [t, '{flags}']}\nflags: {2x: {a: [x]}}":                                      `mcpt.yaml:2:9: flags: flag dimension "2x" is not an identifier`,
		"transpiler: {command: [t, '{flags}']}\nflags: {t: {'a=b': [x]}}":                                   `mcpt.yaml:2:13: flags: t: flag value "a=b"`,
		"transpiler: {command: [t, '{flags}']}\nflags: {t: {}}":                                             "mcpt.yaml:2:9: flags: t has no value",
		"transpiler: {command: [t, '{flags}']}\nflags: {t: [a, b]}":                                         "mcpt.yaml:2:12: flags: t: want a mapping of values",
		"transpiler: {command: [t, '{flags}']}\nflags: {t: {a: --x}}":                                       "mcpt.yaml:2:16: flags: t: a: want the list of arguments",
		"transpiler: {command: [t, '{flags}']}\nflags: [t]":                                                 "mcpt.yaml:2:8: flags: want a mapping of dimensions",
		"transpiler: {command: [t, '{flags}']}\nflags:\n  t: {a: []}\n  t: {b: []}":                         "mcpt.yaml:4:3:",
		"transpiler: {command: [t], version: []}":                                                           "version: want the command line that prints the release",
		"transpiler: {builtin: cllc, version: [v]}":                                                         "transpiler: version is for a command or a worker only, not for a builtin",
		"transpiler: {builtin: cllc}\nflags: {fault: {none: [], reversed: [--fault, reverse-enums]}}\nx: 1": `unknown field "x"`,
	} {
		_, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(src+"\n"+tail))
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("%s:\nerror %v\nwant %s", src, err, w)
		}
	}
	// A builtin and a service take the flags with each run: no {flags}.
	for _, src := range []string{"transpiler: {builtin: cllc}", "transpiler: {url: 'http://localhost:1/'}"} {
		if _, err := Parse(filepath.Join(dir, "mcpt.yaml"), []byte(src+"\nflags: {t: {a: [x]}}\n"+tail)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}
