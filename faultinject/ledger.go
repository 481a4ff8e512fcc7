package faultinject

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/faultinject/mcptfault"
)

// A Ledger is the file through which the runs of a testing session agree
// on which faults have been executed. Follow-up runs of the instrumented
// transpiler read it once at start under a shared lock and append an
// activation record under the exclusive lock, after checking again that no
// other run took the fault meanwhile; the tester adds exclusions and reads
// the activations. Every access locks the file (flock), so a Ledger may be
// used while transpiler runs are going on, from several goroutines and
// processes.
type Ledger struct {
	path string
}

// An Activation records that a run activated a fault.
type Activation struct {
	Fault int
	Run   string // the run token
}

// OpenLedger opens the ledger at path, creating it if it does not exist.
func OpenLedger(path string) (*Ledger, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	l := &Ledger{path: abs}
	err = l.update(func(f *os.File, size int64) error {
		if size == 0 {
			_, err := f.WriteString(mcptfault.Header)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("fault ledger: %w", err)
	}
	return l, nil
}

// Path is the absolute path of the ledger.
func (l *Ledger) Path() string { return l.path }

// Env is the environment that makes a follow-up run of the instrumented
// transpiler use the ledger and record its activation under run.
func (l *Ledger) Env(run string) []string {
	return []string{EnvLedger + "=" + l.path, EnvRun + "=" + mcptfault.Token(run), EnvForce + "=", EnvTrace + "="}
}

// Executed lists, in increasing order, the faults activated by some run.
func (l *Ledger) Executed() ([]int, error) {
	return l.ids(mcptfault.Activated)
}

// Excluded lists, in increasing order, the excluded faults.
func (l *Ledger) Excluded() ([]int, error) {
	return l.ids(mcptfault.Excluded)
}

// Activations lists the activations in the order the runs made them.
func (l *Ledger) Activations() ([]Activation, error) {
	recs, err := l.records()
	if err != nil {
		return nil, err
	}
	var as []Activation
	for _, r := range recs {
		if r.Kind == mcptfault.Activated {
			as = append(as, Activation{Fault: r.Fault, Run: r.Run})
		}
	}
	return as, nil
}

// ActiveFor returns the fault that the run with token run activated; ok is
// false when it activated none (or has not run).
func (l *Ledger) ActiveFor(run string) (fault int, ok bool, err error) {
	recs, err := l.records()
	if err != nil {
		return NoFault, false, err
	}
	run = mcptfault.Token(run)
	for _, r := range recs {
		if r.Kind == mcptfault.Activated && r.Run == run {
			return r.Fault, true, nil
		}
	}
	return NoFault, false, nil
}

// Exclude records that the faults ids must never be activated; faults
// already excluded are not recorded again.
func (l *Ledger) Exclude(ids []int) error {
	err := l.update(func(f *os.File, size int64) error {
		recs, err := readRecords(f, size)
		if err != nil {
			return err
		}
		have := map[int]bool{}
		for _, r := range recs {
			if r.Kind == mcptfault.Excluded {
				have[r.Fault] = true
			}
		}
		var buf []byte
		for _, id := range ids {
			if id < 0 {
				return fmt.Errorf("invalid fault id %d", id)
			}
			if !have[id] {
				have[id] = true
				buf = append(buf, mcptfault.FormatRecord(mcptfault.Record{Kind: mcptfault.Excluded, Fault: id})...)
			}
		}
		_, err = f.Write(buf)
		return err
	})
	if err != nil {
		return fmt.Errorf("fault ledger %s: %w", l.path, err)
	}
	return nil
}

// Reset empties the ledger, exclusions included, for a new session. No
// transpiler run may be going on.
func (l *Ledger) Reset() error {
	err := l.update(func(f *os.File, size int64) error {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.WriteString(mcptfault.Header)
		return err
	})
	if err != nil {
		return fmt.Errorf("fault ledger %s: %w", l.path, err)
	}
	return nil
}

func (l *Ledger) ids(kind byte) ([]int, error) {
	recs, err := l.records()
	if err != nil {
		return nil, err
	}
	set := map[int]bool{}
	for _, r := range recs {
		if r.Kind == kind {
			set[r.Fault] = true
		}
	}
	return sortedKeys(set), nil
}

// records reads the whole ledger under a shared lock.
func (l *Ledger) records() ([]mcptfault.Record, error) {
	f, err := os.Open(l.path)
	if err != nil {
		return nil, fmt.Errorf("fault ledger: %w", err)
	}
	defer f.Close()
	var recs []mcptfault.Record
	err = mcptfault.WithLock(f, false, func(f *os.File) error {
		info, err := f.Stat()
		if err != nil {
			return err
		}
		recs, err = readRecords(f, info.Size())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("fault ledger %s: %w", l.path, err)
	}
	return recs, nil
}

// update runs fn on the ledger, opened for appending, under the exclusive
// lock; size is the ledger's size when the lock was taken.
func (l *Ledger) update(fn func(f *os.File, size int64) error) error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	err = mcptfault.WithLock(f, true, func(f *os.File) error {
		info, err := f.Stat()
		if err != nil {
			return err
		}
		return fn(f, info.Size())
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func readRecords(f *os.File, size int64) ([]mcptfault.Record, error) {
	buf := make([]byte, size)
	if _, err := f.ReadAt(buf, 0); err != nil && err != io.EOF {
		return nil, err
	}
	recs, _ := mcptfault.ParseRecords(buf)
	return recs, nil
}
