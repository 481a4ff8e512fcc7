package bundle

import (
	"errors"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

func sample() *Bundle {
	return &Bundle{
		Finding:     result.Finding{ID: "c000001-r", SeedFile: "seeds/a.prog", Diff: "--- a\n+++ b\n"},
		Recipe:      &Recipe{Config: "mcpt.yaml", Seed: 7, Transpiler: Transpiler{Kind: "command", Process: spec.Process{Argv: []string{"t", "{input}"}}}},
		Base:        []byte("base\n"),
		FollowUp:    []byte("follow-up\n"),
		BaseOut:     tree.Tree{"out.txt": []byte("o\n"), "sub/x.txt": []byte("x\n")},
		FollowUpOut: tree.Tree{"out.txt": []byte("o2\n")},
		Repro:       "mcpt repro out/findings/c000001-r",
	}
}

// TestWriteLoad: a bundle reads back as written; Write leaves a bundle that
// is there, Replace replaces it.
func TestWriteLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "findings", "c000001-r")
	b := sample()
	if err := Write(dir, b); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		t.Errorf("read back %+v, want %+v", got, b)
	}
	b2 := sample()
	b2.Base = []byte("other\n")
	if err := Write(dir, b2); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(dir); string(got.Base) != "base\n" {
		t.Errorf("Write replaced an existing bundle")
	}
	if err := Replace(dir, b2); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(dir); string(got.Base) != "other\n" {
		t.Errorf("Replace kept the old bundle")
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("%d entries beside the bundle, want none (no temporary left)", len(entries))
	}
}

// TestKeptFailingFile: a bundle keeps, of each output tree, the file its
// finding's check failed on (an empty tree where a run did not write it);
// a finding about no one file (a crash) keeps the trees whole, but for
// the base's when the follow-up is what failed.
func TestKeptFailingFile(t *testing.T) {
	outs := func() (tree.Tree, tree.Tree) {
		return tree.Tree{"out.txt": []byte("o\n"), "sub/x.txt": []byte("x\n"), "gone.txt": []byte("g\n")},
			tree.Tree{"out.txt": []byte("o2\n"), "sub/x.txt": []byte("x\n")}
	}
	for _, tc := range []struct {
		file           string
		kind           result.Kind
		role           string
		base, followUp []string
	}{
		{"sub/x.txt", result.Oracle, "", []string{"sub/x.txt"}, []string{"sub/x.txt"}},
		{"gone.txt", result.Oracle, "", []string{"gone.txt"}, nil},
		// The base run crashed: its output is the evidence.
		{"", result.Crash, result.RoleBase, []string{"gone.txt", "out.txt", "sub/x.txt"}, []string{"out.txt", "sub/x.txt"}},
		// The follow-up crashed, timed out or was rejected: its output, not the base's.
		{"", result.Crash, result.RoleFollowUp, nil, []string{"out.txt", "sub/x.txt"}},
		{"", result.Timeout, result.RoleFollowUp, nil, []string{"out.txt", "sub/x.txt"}},
		{"", result.RejectedFollowUp, "", nil, []string{"out.txt", "sub/x.txt"}},
	} {
		b := sample()
		b.Finding.File, b.Finding.Kind, b.Finding.Role = tc.file, tc.kind, tc.role
		b.BaseOut, b.FollowUpOut = outs()
		dir := filepath.Join(t.TempDir(), "c000001-r")
		if err := Write(dir, b); err != nil {
			t.Fatal(err)
		}
		got, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if names := got.BaseOut.Names(); len(names) != len(tc.base) || len(names) > 0 && !reflect.DeepEqual(names, tc.base) {
			t.Errorf("file %q, role %q: base-out holds %q, want %q", tc.file, tc.role, names, tc.base)
		}
		if tc.base == nil && got.BaseOut != nil {
			t.Errorf("file %q, role %q: a base-out directory", tc.file, tc.role)
		}
		if names := got.FollowUpOut.Names(); len(names) != len(tc.followUp) || len(names) > 0 && !reflect.DeepEqual(names, tc.followUp) {
			t.Errorf("file %q: followup-out holds %q, want %q", tc.file, names, tc.followUp)
		}
		if got.FollowUpOut == nil {
			t.Errorf("file %q: followup-out is gone; the run wrote an output, without the file", tc.file)
		}
		if tc.file != "" && string(got.BaseOut[tc.file]) != string(b.BaseOut[tc.file]) {
			t.Errorf("file %q: base-out's copy is %q", tc.file, got.BaseOut[tc.file])
		}
	}
	if Kept(nil, "out.txt") != nil {
		t.Errorf("Kept made an output tree of a run that wrote none")
	}
}

// TestReaderRefuses: no link, on the way or at the end, and no "..".
func TestReaderRefuses(t *testing.T) {
	out := t.TempDir()
	outside := t.TempDir()
	if err := Write(filepath.Join(outside, "b"), sample()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	if err := os.Symlink(outside, filepath.Join(out, Dir)); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(out, "report.json"))
	r, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, name := range []string{"findings/b/finding.json", "report.json", "../secret"} {
		if _, err := r.ReadFile(name); !errors.Is(err, ErrRefused) {
			t.Errorf("ReadFile(%q) = %v, want a refusal", name, err)
		}
	}
	if _, err := r.Load("findings/b"); !errors.Is(err, ErrRefused) {
		t.Errorf("Load through a linked directory = %v, want a refusal", err)
	}
	// A link inside an output tree.
	in := filepath.Join(t.TempDir(), "b")
	if err := writeDir(in, sample()); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(in, BaseOutDir, "link.txt"))
	if _, err := Load(in); !errors.Is(err, ErrRefused) {
		t.Errorf("Load of a tree with a link = %v, want a refusal", err)
	}
}

// TestRemove: Remove deletes the files mcpt wrote in a bundle and nothing
// else; a directory without a manifest is not a bundle of mcpt's, and
// Write does not write over it.
func TestRemove(t *testing.T) {
	findings := filepath.Join(t.TempDir(), "findings")
	dir := filepath.Join(findings, "c000001-r")
	if err := writeDir(dir, sample()); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "base-out", "sub", "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if !reflect.DeepEqual(left, []string{mine}) {
		t.Errorf("left after Remove: %v, want only %s", left, mine)
	}

	user := filepath.Join(findings, "X")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, FindingFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(user); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(user, FindingFile)); err != nil {
		t.Errorf("a directory without a manifest was removed: %v", err)
	}
	b := sample()
	b.Finding.ID = "X"
	if err := Write(user, b); err == nil {
		t.Error("Write over a directory mcpt did not write succeeded")
	}

	// A manifest cannot make Remove leave the bundle.
	evil := filepath.Join(findings, "evil")
	os.MkdirAll(evil, 0o755)
	outside := filepath.Join(findings, "outside.txt")
	os.WriteFile(outside, nil, 0o644)
	os.WriteFile(filepath.Join(evil, ManifestFile), []byte(manifestHead+"\n\"../outside.txt\"\n\"/etc/passwd\"\n"), 0o644)
	if err := Remove(evil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("Remove left the bundle: %v", err)
	}
}

// TestRemoveTornManifest: a half-written bundle whose manifest a kill
// left empty or cut in its first line holds nothing else (the manifest
// is written first): Remove takes it away. Beside other files, the
// manifest is not one mcpt left half-written, and nothing is removed.
func TestRemoveTornManifest(t *testing.T) {
	findings := t.TempDir()
	for _, content := range []string{"", manifestHead[:8]} {
		tmp := filepath.Join(findings, TempPrefix+"c000001-r-42")
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, ManifestFile), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := RemoveTemps(findings); err != nil {
			t.Fatalf("manifest %q: %v", content, err)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Errorf("manifest %q: the half-written bundle stays: %v", content, err)
		}
	}
	other := filepath.Join(findings, TempPrefix+"c000002-r-43")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, ManifestFile), nil, 0o644)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if err := RemoveTemps(findings); err == nil || !strings.Contains(err.Error(), "not a manifest mcpt wrote") {
		t.Errorf("a damaged manifest beside other files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "notes.txt")); err != nil {
		t.Errorf("a file mcpt did not write was removed: %v", err)
	}
	// Not a temporary directory: a bundle in place, whose manifest is
	// damaged, is refused as before.
	placed := filepath.Join(t.TempDir(), "c000003-r")
	os.MkdirAll(placed, 0o755)
	os.WriteFile(filepath.Join(placed, ManifestFile), nil, 0o644)
	if err := Remove(placed); err == nil {
		t.Error("a bundle with an empty manifest was removed")
	}
}
