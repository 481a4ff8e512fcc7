//go:build unix

package tree

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRefusesFifo(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no fifo:", err)
	}
	if _, err := Read(dir, Limits{}); err == nil || !strings.Contains(err.Error(), "fifo: not a regular file") {
		t.Errorf("fifo: %v", err)
	}
}
