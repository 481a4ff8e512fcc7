//go:build !unix

package bundle

import (
	"io"
	"os"
)

// copyFile copies the size bytes of src to dst.
func copyFile(dst, src *os.File, size int64) error {
	_, err := io.Copy(dst, io.LimitReader(src, size))
	return err
}
