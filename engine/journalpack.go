package engine

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// JournalPackedName is the journal of a campaign that ran to its end,
// compressed (see PackJournal): a journal is read only to resume a
// campaign, or to report on one killed before its report, and it holds a
// line of some hundred bytes for every test case, most of the output of a
// long campaign. gzip makes it six to eight times smaller.
const JournalPackedName = journalName + ".gz"

// PackJournal compresses the journal of the output directory dir into
// JournalPackedName, once its campaign ran to its end and its report is
// written: the packed journal is written beside, synced and renamed into
// place, and only then is the journal removed, so that a kill leaves one
// of them whole (both, at worst: the plain one is read, see
// UnpackJournal). A directory without a journal is left as it is.
func PackJournal(dir string) error {
	p := filepath.Join(dir, journalName)
	in, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	if err := writeSynced(filepath.Join(dir, JournalPackedName), func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, in); err != nil {
			return err
		}
		return zw.Close()
	}); err != nil {
		return fmt.Errorf("packing the journal: %w", err)
	}
	return os.Remove(p)
}

// UnpackJournal puts the journal of the output directory dir back as it
// was before PackJournal, for a resume: written beside, synced and renamed
// into place, then the packed one removed. When the plain journal is
// there, it is the one read (a kill between the two steps of either
// function left both, alike), and the packed one is removed.
func UnpackJournal(dir string) error {
	packed := filepath.Join(dir, JournalPackedName)
	f, err := os.Open(packed)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	p := filepath.Join(dir, journalName)
	if _, err := os.Lstat(p); err == nil {
		f.Close()
		return os.Remove(packed)
	}
	if err := writeSynced(p, func(w io.Writer) error {
		zr, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return err
		}
		_, err = io.Copy(w, zr)
		return err
	}); err != nil {
		return fmt.Errorf("%s: %w", packed, err)
	}
	f.Close()
	return os.Remove(packed)
}

// OpenJournal opens the journal of the output directory dir for reading,
// plain or packed (see PackJournal), and returns its name.
func OpenJournal(dir string) (io.ReadCloser, string, error) {
	p := filepath.Join(dir, journalName)
	f, err := os.Open(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return f, p, err
	}
	packed := filepath.Join(dir, JournalPackedName)
	if f, err = os.Open(packed); err != nil {
		return nil, p, err
	}
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, packed, fmt.Errorf("%s: %w", packed, err)
	}
	return &packedReader{zr, f}, packed, nil
}

type packedReader struct {
	*gzip.Reader
	f *os.File
}

func (r *packedReader) Close() error {
	r.Reader.Close()
	return r.f.Close()
}

// HasJournal tells whether the output directory dir holds a journal,
// plain or packed.
func HasJournal(dir string) bool {
	for _, name := range []string{journalName, JournalPackedName} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// writeSynced writes the file p through write: a temporary file beside
// it, synced and renamed into place; on failure p is left as it was.
func writeSynced(p string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
