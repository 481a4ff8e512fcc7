//go:build unix

package bundle

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLinkKeepsHoles: a sparse file copied across file systems stays
// sparse, with the same content.
func TestLinkKeepsHoles(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "shard")
	if err := writeDir(filepath.Join(src, "findings", "c000001-r"), sample()); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(src, "findings", "c000001-r", BaseOutDir, "big.bin")
	const size = 40 << 20
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("head"), 0)
	f.WriteAt([]byte("middle"), 20<<20)
	f.Truncate(size)
	f.Close()
	if st, _ := os.Stat(big); st.Sys().(*syscall.Stat_t).Blocks*512 >= size {
		t.Skip("this file system makes no sparse file")
	}
	hardLink = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EXDEV} }
	defer func() { hardLink = os.Link }()
	r, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dst := filepath.Join(tmp, "all", "findings", "c000001-r")
	if err := r.Link("findings/c000001-r", dst, ""); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dst, BaseOutDir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(big)
	if !bytes.Equal(got, want) {
		t.Fatal("the copy differs")
	}
	st, _ := os.Stat(filepath.Join(dst, BaseOutDir, "big.bin"))
	if used := st.Sys().(*syscall.Stat_t).Blocks * 512; used > 8<<20 {
		t.Errorf("the copy of a sparse file of 40 MiB takes %d bytes", used)
	}
}
