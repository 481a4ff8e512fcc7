package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// TestArchiveLayout: a bundle is one archive whose first entry is its
// manifest, with the same bytes for the same bundle, that any tar reads
// and whose gzip header says that mcpt wrote it.
func TestArchiveLayout(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "findings", "c000001-r"+Ext)
	if err := Write(p, sample()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Comment != archiveComment {
		t.Errorf("gzip comment %q, want %q", zr.Comment, archiveComment)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, h.Name)
	}
	want := []string{ManifestFile, "base-out/", "followup-out/", "base/a.prog", "followup/a.prog", "base-out/out.txt", "followup-out/out.txt", "base-out/sub/x.txt", "diff.txt", "finding.json", "repro.txt", "recipe.json"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("entries %q, want %q", names, want)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	again := filepath.Join(dir, "again"+Ext)
	if err := Write(again, sample()); err != nil {
		t.Fatal(err)
	}
	if data2, _ := os.ReadFile(again); !bytes.Equal(data, data2) {
		t.Error("the same bundle gave other bytes")
	}
	// Read through an output directory, as the report reads it.
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.Sub("findings/c000001-r" + Ext)
	if err != nil {
		t.Fatal(err)
	}
	if !b.IsArchive() {
		t.Error("Sub of an archive reads no archive")
	}
	if got, err := b.ReadFile("base/a.prog"); err != nil || string(got) != "base\n" {
		t.Errorf("base/a.prog = %q, %v", got, err)
	}
	if got, size, err := b.ReadFilePrefix("followup/a.prog", 3); err != nil || string(got) != "fol" || size != 10 {
		t.Errorf("prefix = %q, %d, %v", got, size, err)
	}
	if _, err := b.ReadFile("nothing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file the archive lacks: %v", err)
	}
	if _, err := b.ReadFile("../secret"); !errors.Is(err, ErrRefused) {
		t.Errorf("a path out of the archive: %v", err)
	}
	if err := b.CheckTree("."); err != nil {
		t.Error(err)
	}
	got, err := r.Load("findings/c000001-r" + Ext)
	if err == nil {
		t.Errorf("Load of an archive as a directory: %+v", got)
	}
}

// hostile is an archive with the entries hs, a file's content its name.
func hostile(t *testing.T, hs ...*tar.Header) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range hs {
		if h.Typeflag == tar.TypeReg && h.Size == 0 {
			h.Size = int64(len(h.Name))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			content := []byte(h.Name)
			if h.Size > int64(len(content)) {
				content = make([]byte, h.Size) // zeros: a few bytes packed
			}
			tw.Write(content[:h.Size])
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestArchiveRefuses: an archive from elsewhere is read in memory and
// refused whole when it holds what no bundle mcpt wrote holds; nothing is
// written or read outside the output directory.
func TestArchiveRefuses(t *testing.T) {
	reg := func(name string) *tar.Header { return &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644} }
	finding := reg(FindingFile)
	finding.Size = 0
	base := reg("base/a.prog")
	defer func(n int64) { maxUnpacked = n }(maxUnpacked)
	maxUnpacked = 1 << 20
	deep := strings.Repeat("d/", maxDepth) + "x"
	cases := map[string]struct {
		data []byte
		want string
	}{
		"dotdot":      {hostile(t, reg("../outside.txt")), "leaves the bundle"},
		"dotdot-deep": {hostile(t, reg("base/../../x")), "leaves the bundle"},
		"absolute":    {hostile(t, reg("/etc/passwd")), "leaves the bundle"},
		"symlink":     {hostile(t, &tar.Header{Typeflag: tar.TypeSymlink, Name: "base/a.prog", Linkname: "/etc/passwd"}), "not a regular file"},
		"hardlink":    {hostile(t, &tar.Header{Typeflag: tar.TypeLink, Name: "base/a.prog", Linkname: "/etc/passwd"}), "not a regular file"},
		"device":      {hostile(t, &tar.Header{Typeflag: tar.TypeChar, Name: "base/a.prog", Devmajor: 1, Devminor: 3}), "not a regular file"},
		"fifo":        {hostile(t, &tar.Header{Typeflag: tar.TypeFifo, Name: "base/a.prog"}), "not a regular file"},
		"twice":       {hostile(t, reg("base/a.prog"), reg("base/a.prog")), "given twice"},
		"below-file":  {hostile(t, reg("base"), reg("base/a.prog")), "below a file"},
		"too-deep":    {hostile(t, reg(deep)), "deeper than"},
		"bomb":        {hostile(t, &tar.Header{Typeflag: tar.TypeReg, Name: "base/a.prog", Size: 2 << 20}), "larger than"},
		"not-gzip":    {[]byte("PK\x03\x04 a zip"), "not a bundle archive"},
		"truncated":   {hostile(t, finding, base)[:40], "not a bundle archive"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			p := filepath.Join(out, Dir, "c000001-r"+Ext)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			_, err = r.Sub(Path("c000001-r"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Sub: %v, want an error saying %q", err, c.want)
			}
			if _, err := Load(p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load: %v, want an error saying %q", err, c.want)
			}
			entries, _ := os.ReadDir(filepath.Dir(p))
			if len(entries) != 1 {
				t.Errorf("%d entries beside the archive, want none: reading wrote", len(entries)-1)
			}
		})
	}
	// The bomb's bytes: a slice of the memory it would take.
	if n := len(cases["bomb"].data); n > 64<<10 {
		t.Errorf("the bomb takes %d bytes packed: not a bomb", n)
	}
}

// TestArchiveRemove: Remove and RemoveTemps delete only archives mcpt
// wrote (its gzip header), and the empty or cut temporary files a kill
// left; a file of the user's, under any name, stays.
func TestArchiveRemove(t *testing.T) {
	findings := filepath.Join(t.TempDir(), Dir)
	ours := filepath.Join(findings, "c000001-r"+Ext)
	if err := Write(ours, sample()); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	zw := gzip.NewWriter(&plain)
	zw.Write([]byte("the user's"))
	zw.Close()
	user := filepath.Join(findings, "c000002-r"+Ext)
	os.WriteFile(user, plain.Bytes(), 0o644)
	text := filepath.Join(findings, "notes.txt")
	os.WriteFile(text, []byte("mine"), 0o644)
	head := archiveHead()
	data, _ := os.ReadFile(ours)
	cut := filepath.Join(findings, TempPrefix+"c000003-r"+Ext+"-1")
	os.WriteFile(cut, data[:len(head)+20], 0o644)
	empty := filepath.Join(findings, TempPrefix+"c000004-r"+Ext+"-2")
	os.WriteFile(empty, nil, 0o644)
	userTemp := filepath.Join(findings, TempPrefix+"mine")
	os.WriteFile(userTemp, []byte("the user's"), 0o644)
	// Empty, and named as no temporary file of an archive is.
	userEmpty := filepath.Join(findings, TempPrefix+"notes")
	os.WriteFile(userEmpty, nil, 0o644)
	// Cut in its gzip header: a file of the user's that starts as an
	// archive of mcpt's is not one when it is not a temporary file.
	short := filepath.Join(findings, "c000005-r"+Ext)
	os.WriteFile(short, head[:5], 0o644)

	for _, p := range []string{ours, user, text, short} {
		if err := Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveTemps(findings); err != nil {
		t.Fatal(err)
	}
	for p, gone := range map[string]bool{ours: true, cut: true, empty: true, user: false, text: false, userTemp: false, userEmpty: false, short: false} {
		_, err := os.Stat(p)
		if gone != os.IsNotExist(err) {
			t.Errorf("%s: removed %v, want %v", filepath.Base(p), os.IsNotExist(err), gone)
		}
	}
	// Write and Replace leave what mcpt did not write.
	if err := Write(user, sample()); err == nil || !strings.Contains(err.Error(), "in the way") {
		t.Errorf("Write over a file of the user's: %v", err)
	}
	if err := Replace(user, sample()); err == nil || !strings.Contains(err.Error(), "in the way") {
		t.Errorf("Replace of a file of the user's: %v", err)
	}
	if got, _ := os.ReadFile(user); !bytes.Equal(got, plain.Bytes()) {
		t.Error("the user's file changed")
	}
}

// TestLinkArchive: merging an archive writes it again with the merged
// repro command, the rest as it was.
func TestLinkArchive(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "shard")
	if err := Write(filepath.Join(src, Path("c000001-r")), sample()); err != nil {
		t.Fatal(err)
	}
	r, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dst := filepath.Join(tmp, "all", Path("c000001-r"))
	if err := r.Link(Path("c000001-r"), dst, "mcpt repro all/findings/c000001-r.tar.gz"); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dst)
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	want.Repro = "mcpt repro all/findings/c000001-r.tar.gz"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged %+v, want %+v", got, want)
	}
	if !ownArchive(dst, false) {
		t.Error("the merged archive is not one mcpt wrote")
	}
	// Placed already: left as it is.
	if err := r.Link(Path("c000001-r"), dst, "other"); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(dst); got.Repro != want.Repro {
		t.Error("a merged bundle was replaced")
	}
}

// TestEvidenceArchive: FillEvidence gives a lean finding its whole
// evidence from its bundle archive; an archive edited by hand (its
// follow-up output changed, unpacked and packed again) or removed leaves
// the finding lean.
func TestEvidenceArchive(t *testing.T) {
	var raw strings.Builder
	for i := range 100 {
		raw.WriteString("  line " + strings.Repeat("x", i%5) + "\n")
	}
	actual := raw.String()
	expected := strings.Replace(actual, "  line xx\n", "  line zqnew\n  line xx\n", 1)
	f := result.Finding{ID: "c1-r", SeedFile: "a.idl", File: "gen/a.cpp", Expected: expected, Actual: actual, Diff: "-x\n+y\n", Bundle: Path("c1-r")}
	out := t.TempDir()
	p := filepath.Join(out, filepath.FromSlash(f.Bundle))
	if err := Write(p, &Bundle{Finding: f, Base: []byte("a\n"), FollowUp: []byte("b\n"), FollowUpOut: tree.Tree{"gen/a.cpp": []byte(actual)}}); err != nil {
		t.Fatal(err)
	}
	rd, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	lean := []result.Finding{f.Lean()}
	if !lean[0].IsLean() {
		t.Fatal("the finding is not lean")
	}
	rd.FillEvidence(lean)
	if lean[0].Expected != expected || lean[0].Actual != actual {
		t.Fatal("FillEvidence did not give the evidence back from the archive")
	}

	// Edited by hand: unpacked, the follow-up's output changed, packed
	// again with the finding.json the campaign wrote.
	a, err := OpenArchive(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	files, dirs, err := b.files()
	if err != nil {
		t.Fatal(err)
	}
	if files[FindingFile], err = a.ReadFile(FindingFile); err != nil {
		t.Fatal(err)
	}
	files[FollowOutDir+"/gen/a.cpp"] = []byte(strings.Replace(actual, "line x\n", "line y\n", 1))
	var buf bytes.Buffer
	if err := packFiles(&buf, files, dirs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lean = []result.Finding{f.Lean()}
	if rd.FillEvidence(lean); !lean[0].IsLean() {
		t.Error("FillEvidence filled from an edited archive")
	}

	// Removed: lean, with its diff.
	os.Remove(p)
	lean = []result.Finding{f.Lean()}
	if rd.FillEvidence(lean); !lean[0].IsLean() || lean[0].Diff != f.Diff {
		t.Error("a removed bundle changed the finding")
	}
}
