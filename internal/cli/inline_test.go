package cli

import (
	"slices"
	"strings"
	"testing"
)

// splitCommand splits as a POSIX shell does, expanding nothing.
func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "thrift --gen cpp -out {outdir} {input}", want: []string{"thrift", "--gen", "cpp", "-out", "{outdir}", "{input}"}},
		{in: `  gen  'a b'  "c \"d\" \\ $HOME" e\ f `, want: []string{"gen", "a b", `c "d" \ $HOME`, "e f"}},
		{in: `x ''`, want: []string{"x", ""}},
		{in: `x 'open`, err: "single quote"},
		{in: `x "open`, err: "double quote"},
		{in: "   ", err: "empty"},
	} {
		got, err := splitCommand(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("splitCommand(%q) = %q, %v; want an error about %s", tc.in, got, err, tc.err)
			}
		case err != nil || !slices.Equal(got, tc.want):
			t.Errorf("splitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// The configuration the command-line flags make: one line per flag, the
// placeholders required, -c and --transpiler not both.
func TestInlineConfig(t *testing.T) {
	f := inlineFlags{Transpiler: "gen --out {outdir} '{input}'", Seeds: []string{"a/*.x", "b.x"}, Syntax: "x.grammar"}
	got, err := f.configYAML(defaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	want := "transpiler:\n  command: [gen, --out, \"{outdir}\", \"{input}\"]\n  reject: [1, 2]\nseeds:\n  files: [a/*.x, b.x]\nsyntax: \"x.grammar\"\n"
	if string(got) != want {
		t.Errorf("configYAML:\n%s\nwant:\n%s", got, want)
	}
	for _, tc := range []struct {
		f   inlineFlags
		cfg string
		err string
	}{
		{inlineFlags{Transpiler: "gen {outdir} {input}", Seeds: []string{"*.x"}}, "other.yaml", "not both"},
		{inlineFlags{Seeds: []string{"*.x"}}, defaultConfig, "go with --transpiler"},
		{inlineFlags{Transpiler: "gen {outdir} {input}"}, defaultConfig, "needs --seeds"},
		{inlineFlags{Transpiler: "gen {outdir}", Seeds: []string{"*.x"}}, defaultConfig, "no {input}"},
		{inlineFlags{Transpiler: "gen {input}", Seeds: []string{"*.x"}}, defaultConfig, "no {outdir}"},
		{inlineFlags{Transpiler: "gen '{input}", Seeds: []string{"*.x"}}, defaultConfig, "quote"},
	} {
		if _, err := tc.f.configYAML(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("configYAML(%+v, %s) = %v, want an error about %s", tc.f, tc.cfg, err, tc.err)
		}
	}
}
