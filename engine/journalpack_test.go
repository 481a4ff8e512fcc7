package engine_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
)

// TestPackJournal: a packed journal unpacks to the same bytes, reads as
// the journal does (OpenJournal, JournalShard) and is a fraction of its
// size; with both there (a kill between the steps), the plain one is kept.
func TestPackJournal(t *testing.T) {
	opt, _ := journalLines(t, engine.Options{Seed: 3, MaxCases: 60})
	dir := opt.OutDir
	plain := filepath.Join(dir, engine.JournalName)
	packed := filepath.Join(dir, engine.JournalPackedName)
	want, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.PackJournal(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(plain); !os.IsNotExist(err) {
		t.Errorf("the plain journal stays after packing: %v", err)
	}
	fi, err := os.Stat(packed)
	if err != nil || fi.Size()*3 > int64(len(want)) {
		t.Fatalf("packed journal: %v, %d bytes of %d", err, fi.Size(), len(want))
	}
	rc, name, err := engine.OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || name != packed || !bytes.Equal(got, want) {
		t.Errorf("OpenJournal of the packed journal (%s): %v, %d bytes, want %d", name, err, len(got), len(want))
	}
	if sh, err := engine.JournalShard(dir); err != nil || sh != opt.Shard {
		t.Errorf("JournalShard of the packed journal: %v, %v", sh, err)
	}
	if !engine.HasJournal(dir) {
		t.Error("HasJournal: no journal")
	}
	if err := engine.UnpackJournal(dir); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(plain); err != nil || !bytes.Equal(got, want) {
		t.Errorf("unpacked: %v, %d bytes, want %d", err, len(got), len(want))
	}
	if _, err := os.Stat(packed); !os.IsNotExist(err) {
		t.Errorf("the packed journal stays after unpacking: %v", err)
	}
	// Both: a kill after the packed one was renamed into place.
	if err := engine.PackJournal(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := engine.UnpackJournal(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(packed); !os.IsNotExist(err) || !engine.HasJournal(dir) {
		t.Errorf("with both, the packed one stays: %v", err)
	}
	// Nothing to pack or unpack: nothing done.
	empty := t.TempDir()
	if err := engine.PackJournal(empty); err != nil || engine.UnpackJournal(empty) != nil || engine.HasJournal(empty) {
		t.Errorf("an empty directory: %v", err)
	}
}
