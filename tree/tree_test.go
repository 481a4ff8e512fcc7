package tree

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	want := Tree{"a.c": []byte("int a;\n"), "inc/b.h": []byte("#pragma once\n"), "empty": nil}
	if err := want.Write(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Names(), []string{"a.c", "empty", "inc/b.h"}) || got.Size() != want.Size() {
		t.Fatalf("read %v (%d bytes), want %v (%d)", got.Names(), got.Size(), want.Names(), want.Size())
	}
	for name, b := range want {
		if string(got[name]) != string(b) {
			t.Errorf("%s = %q, want %q", name, got[name], b)
		}
	}
}

func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	if err := (Tree{"a": make([]byte, 100), "b": make([]byte, 100), "c/d": make([]byte, 100)}).Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lim  Limits
		want string // "" for no error
	}{
		{Limits{MaxFiles: 3, MaxBytes: 300}, ""},
		{Limits{MaxFiles: 2}, "more than 2 files"},
		{Limits{MaxBytes: 299}, "more than 299 bytes"},
		{Limits{MaxBytes: 1}, "more than 1 bytes"},
	} {
		tr, err := Read(dir, tc.lim)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.lim, err)
		case tc.want == "" && len(tr) != 3:
			t.Errorf("%+v: read %v", tc.lim, tr.Names())
		case tc.want != "" && (!errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tc.want) || tr != nil):
			t.Errorf("%+v: %v, %v; want ErrLimit saying %q", tc.lim, tr, err, tc.want)
		}
	}
}

func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir, Limits{}); err == nil || !strings.Contains(err.Error(), "link: a symbolic link") {
		t.Errorf("symlink: %v", err)
	}

	dir = t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "dirlink")); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir, Limits{}); err == nil || !strings.Contains(err.Error(), "dirlink: a symbolic link") {
		t.Errorf("symlink to a directory: %v", err)
	}
}

func TestWriteRefusesEscapes(t *testing.T) {
	for _, name := range []string{"../x", "/etc/x", "a//b", "a/./b", `a\b`, ""} {
		if Clean(name) {
			t.Errorf("Clean(%q) = true", name)
		}
		if err := (Tree{name: nil}).Write(t.TempDir()); err == nil {
			t.Errorf("Write accepted %q", name)
		}
	}
	for _, name := range []string{"a", "a/b.c", ".hidden", "a..b"} {
		if !Clean(name) {
			t.Errorf("Clean(%q) = false", name)
		}
	}
}
