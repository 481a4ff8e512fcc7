package inputfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(ok); err != nil || string(b) != "a: 1\n" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		limit int64
		want  string
	}{
		{fifo, MaxSize, "not a regular file (a named pipe)"},
		{"/dev/zero", MaxSize, "not a regular file (a character device)"},
		{dir, MaxSize, "not a regular file (a directory)"},
		{big, 100, "larger than the 100 bytes limit"},
		{filepath.Join(dir, "missing"), MaxSize, "no such file"},
	} {
		_, err := ReadLimit(tc.path, tc.limit)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("ReadLimit(%s) = %v, want an error naming it and saying %q", tc.path, err, tc.want)
		}
	}
	if err := os.WriteFile(big, make([]byte, MaxSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "16 MiB") {
		t.Errorf("Read of MaxSize+1 bytes = %v, want the 16 MiB limit", err)
	}
}
