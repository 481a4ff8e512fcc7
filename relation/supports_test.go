package relation

import (
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/release"
)

func TestSupports(t *testing.T) {
	s := &Supports{Source: "defs.yaml:3:3", Releases: release.MustParseRange(">=3.5.0 <6"), Flags: map[string][]string{"target": {"es2017", "es2022"}, "module": {"esnext"}}}
	for v, want := range map[string]string{
		"5.9.3":  "",
		"v3.5.0": "",
		"3.4.1":  "release 3.4.1 of the transpiler is not supported by the pack, which supports >=3.5.0 <6",
		"6.0.0":  "which supports >=3.5.0 <6",
		"":       "the release of the transpiler is not known: give transpiler.version",
	} {
		err := s.CheckRelease(v)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("release %q: %v, want %q", v, err, want)
		}
	}
	for pair, want := range map[string]string{
		"target=es2022": "",
		"target=es2023": `target=es2023 is not supported by the pack, which knows target es2017, es2022, did you mean "es2022"?`,
		"modules=x":     `flag modules is not supported by the pack, which knows the flags module, target, did you mean "module"?`,
	} {
		dim, val, _ := strings.Cut(pair, "=")
		err := s.CheckFlag(dim, val)
		if want == "" && err != nil || want != "" && (err == nil || err.Error() != want) {
			t.Errorf("%s: %v, want %q", pair, err, want)
		}
	}
	any := &Supports{}
	if any.CheckRelease("") != nil || any.CheckFlag("x", "y") != nil {
		t.Error("a pack that says nothing refuses something")
	}
}
