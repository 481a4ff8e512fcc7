package mcptfault

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// The ledger is a text file shared by all the runs of a testing session and
// by the tester. After an optional header comment it holds one record a
// line, only ever appended under an exclusive lock (flock) of the file:
//
//	x 17            fault 17 is excluded (it crashed the preparatory run)
//	a 42 run-0007   the run with token run-0007 activated fault 42
//
// Lines starting with # are comments.

// Kinds of ledger records.
const (
	Activated = 'a'
	Excluded  = 'x'
)

// Header is the first line of a ledger created by the tester.
const Header = "# mcpt fault ledger v1\n"

// Record is one line of the ledger.
type Record struct {
	Kind  byte   // Activated or Excluded
	Fault int    // the fault id
	Run   string // the run token, for Activated records
}

// FormatRecord renders r as one ledger line, newline included.
func FormatRecord(r Record) string {
	s := string(r.Kind) + " " + strconv.Itoa(r.Fault)
	if r.Kind == Activated {
		s += " " + Token(r.Run)
	}
	return s + "\n"
}

// ParseRecords decodes the complete lines of data and returns the records
// and the number of bytes consumed; a trailing line without its newline is
// left for a later read. Lines that are not records are skipped.
func ParseRecords(data []byte) (recs []Record, used int) {
	for {
		i := bytes.IndexByte(data[used:], '\n')
		if i < 0 {
			return recs, used
		}
		line := string(data[used : used+i])
		used += i + 1
		f := strings.Fields(line)
		if len(f) < 2 || len(f[0]) != 1 || (f[0][0] != Activated && f[0][0] != Excluded) {
			continue
		}
		id, err := strconv.Atoi(f[1])
		if err != nil || id < 0 {
			continue
		}
		r := Record{Kind: f[0][0], Fault: id}
		if r.Kind == Activated && len(f) > 2 {
			r.Run = f[2]
		}
		recs = append(recs, r)
	}
}

// Token turns a run token into one that fits a ledger field: blanks and
// control characters become underscores.
func Token(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, s)
}

// WithLock runs fn while holding a lock of the open ledger f: exclusive
// when writing, shared otherwise.
func WithLock(f *os.File, exclusive bool, fn func(*os.File) error) error {
	return withLock(f, exclusive, fn)
}

func withLock(f *os.File, exclusive bool, fn func(*os.File) error) error {
	if err := lock(f, exclusive); err != nil {
		return err
	}
	err := fn(f)
	if uerr := unlock(f); err == nil {
		err = uerr
	}
	return err
}
