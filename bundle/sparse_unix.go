//go:build unix

package bundle

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// copyFile copies the size bytes of src to dst, keeping holes: only the
// data regions src reports (SEEK_DATA, SEEK_HOLE) are read and written, so
// that a sparse file is not written out as bytes. Where the file system
// cannot tell, the whole file is copied.
func copyFile(dst, src *os.File, size int64) error {
	fd := int(src.Fd())
	for off := int64(0); off < size; {
		data, err := unix.Seek(fd, off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			break // a hole up to the end
		}
		if err != nil {
			return copyRange(dst, src, off, size-off)
		}
		hole, err := unix.Seek(fd, data, unix.SEEK_HOLE)
		if err != nil {
			return copyRange(dst, src, data, size-data)
		}
		hole = min(hole, size)
		if err := copyRange(dst, src, data, hole-data); err != nil {
			return err
		}
		off = hole
	}
	return dst.Truncate(size)
}

// copyRange copies n bytes at off of src to the same place in dst.
func copyRange(dst, src *os.File, off, n int64) error {
	if n <= 0 {
		return nil
	}
	_, err := io.Copy(io.NewOffsetWriter(dst, off), io.NewSectionReader(src, off, n))
	return err
}
