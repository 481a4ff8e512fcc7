package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestQuoteArg(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"cllc", "cllc"},
		{"{input}", "{input}"},
		{"", `""`},
		{"a b", `"a b"`},
		{"évité", "évité"},
		{"evil\x1b[8m", `"evil\x1b[8m"`},
		{"rtl\u202eexe.txt", `"rtl\u202eexe.txt"`},
		{"bad\xff", `"bad\xff"`},
	} {
		if got := quoteArg(tc.in); got != tc.want {
			t.Errorf("quoteArg(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestOutsideBundle: a configuration is the user's only outside the bundle
// and the output directory that holds it, however the path is written.
func TestOutsideBundle(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	b := filepath.Join(out, "findings", "c1")
	loose := filepath.Join(root, "loose")
	for _, d := range []string{b, filepath.Join(out, "findings", "c2"), loose} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"mine":       filepath.Join(root, "mcpt.yaml"),
		"inside":     filepath.Join(b, "evil.yaml"),
		"sibling":    filepath.Join(out, "findings", "c2", "evil.yaml"),
		"output top": filepath.Join(out, "evil.yaml"),
		"loose":      filepath.Join(loose, "evil.yaml"),
	}
	for _, p := range files {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "link.yaml")
	if err := os.Symlink(files["inside"], link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg, bundle string
		want        bool
	}{
		{files["mine"], b, true},
		{files["inside"], b, false},
		{filepath.Join(b, "..", "c1", "evil.yaml"), b, false},
		{files["sibling"], b, false},
		{files["output top"], b, false},
		{link, b, false},
		{files["loose"], loose, false},
		{files["mine"], loose, true},
		{filepath.Join(root, "missing.yaml"), b, false},
	} {
		if got := outsideBundle(tc.cfg, tc.bundle); got != tc.want {
			t.Errorf("outsideBundle(%s, %s) = %v, want %v", tc.cfg, tc.bundle, got, tc.want)
		}
	}
}
