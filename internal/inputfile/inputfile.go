// Package inputfile reads the files a user hands to mcpt (configuration,
// relations, grammars, seeds) with two guards: only regular files are read
// (a named pipe would block for ever, a device such as /dev/zero would never
// end), and no file larger than MaxSize is read into memory.
package inputfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSize is the largest input file mcpt reads: 16 MiB, far above any
// configuration, relation file, grammar or seed, and small enough that a
// wrong file given by mistake costs no more than that much memory.
const MaxSize = 16 << 20

// Read returns the content of the regular file at path. A path that names
// anything else, or a file over MaxSize, is an error saying so.
func Read(path string) ([]byte, error) {
	return ReadLimit(path, MaxSize)
}

// ReadLimit is Read with a limit of its own.
func ReadLimit(path string, limit int64) ([]byte, error) {
	// Stat before opening: opening a named pipe blocks until a writer comes.
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, info, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced between Stat and Open.
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, info, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

func check(path string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s)", kind(info.Mode()))}
	}
	if info.Size() > limit {
		return tooLarge(path, limit)
	}
	return nil
}

func tooLarge(path string, limit int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than the %s limit for input files", size(limit))}
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
