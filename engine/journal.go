package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
)

// The journal is OUT/journal.jsonl: a header line naming the campaign, then
// one line per finished test case, appended as cases finish. A case with a
// finding is synced to disk before Run goes on, so that a finding once
// reported survives kill -9; cases without findings are synced in batches,
// and a case lost with an unsynced batch is simply run again on resume (the
// plan is deterministic, so it gives the same result).
type journal struct {
	f        *os.File
	w        *bufio.Writer
	lastSync time.Time
	pending  int
}

const journalName = "journal.jsonl"

// header identifies the campaign a journal belongs to; resume refuses a
// journal of another campaign.
type header struct {
	Journal   int      `json:"journal"`
	Mode      string   `json:"mode"`
	Seed      uint64   `json:"seed"`
	MaxCases  int      `json:"max_cases"`
	MaxMR     int      `json:"max_mr"`
	MaxSpots  int      `json:"max_spots"`
	Shard     string   `json:"shard,omitempty"`
	Relations []string `json:"relations"`
	Seeds     []string `json:"seeds"`
}

func campaignHeader(opt Options, c *Campaign) header {
	h := header{Journal: 1, Mode: string(opt.Mode), Seed: opt.Seed, MaxCases: opt.MaxCases, MaxMR: opt.MaxMR, MaxSpots: opt.MaxSpots, Shard: opt.Shard.String()}
	for _, r := range c.Relations {
		h.Relations = append(h.Relations, r.Name)
	}
	for _, s := range c.Seeds {
		h.Seeds = append(h.Seeds, s.Name)
	}
	return h
}

// openJournal creates the journal, or, when resuming, reads the cases it
// holds and reopens it for appending.
func openJournal(dir string, opt Options, c *Campaign, resume bool) (*journal, map[int]*CaseResult, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	p := filepath.Join(dir, journalName)
	want := campaignHeader(opt, c)
	done := map[int]*CaseResult{}
	if resume {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot resume: %w", err)
		}
		valid, err := readJournal(f, want, done)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("cannot resume from %s: %w", p, err)
		}
		// Cut a torn last line (a kill in the middle of a write).
		if err := os.Truncate(p, valid); err != nil {
			return nil, nil, err
		}
		if err := removeBundleTemps(dir); err != nil {
			return nil, nil, err
		}
		f, err = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, err
		}
		return &journal{f: f, w: bufio.NewWriter(f), lastSync: time.Now()}, done, nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, nil, err
	}
	j := &journal{f: f, w: bufio.NewWriter(f), lastSync: time.Now()}
	hb, _ := json.Marshal(want)
	j.w.Write(append(hb, '\n'))
	if err := j.sync(); err != nil {
		f.Close()
		return nil, nil, err
	}
	return j, done, nil
}

// removeBundleTemps removes the temporary directories of bundles that a
// kill left half-written (see bundle): only directories of findings/ whose
// name has the prefix the bundle writer gives them.
func removeBundleTemps(dir string) error {
	fd := filepath.Join(dir, bundle.Dir)
	entries, err := os.ReadDir(fd)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), bundle.TempPrefix) {
			if err := os.RemoveAll(filepath.Join(fd, e.Name())); err != nil {
				return fmt.Errorf("removing a half-written bundle: %w", err)
			}
		}
	}
	return nil
}

// readJournal loads the finished cases and returns the length of the valid
// prefix of the file.
func readJournal(r io.Reader, want header, done map[int]*CaseResult) (int64, error) {
	br := bufio.NewReader(r)
	var valid int64
	first := true
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if first {
				var h header
				if json.Unmarshal(line, &h) != nil || h.Journal != 1 {
					return 0, errors.New("not an mcpt journal")
				}
				if !sameHeader(h, want) {
					return 0, errors.New("the journal belongs to another campaign (mode, seed, budget, shard, relations or seeds differ)")
				}
				first = false
			} else {
				var cr CaseResult
				if json.Unmarshal(line, &cr) != nil {
					return valid, nil // a damaged line: keep what precedes it
				}
				done[cr.Index] = &cr
			}
			valid += int64(len(line))
		}
		if err == io.EOF {
			if first {
				return 0, errors.New("empty journal")
			}
			return valid, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

func sameHeader(a, b header) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func (j *journal) append(cr *CaseResult) error {
	b, err := json.Marshal(cr)
	if err != nil {
		return err
	}
	if _, err := j.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.pending++
	if len(cr.Findings) > 0 || time.Since(j.lastSync) > 200*time.Millisecond {
		return j.sync()
	}
	return nil
}

func (j *journal) sync() error {
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.lastSync, j.pending = time.Now(), 0
	return nil
}

func (j *journal) close() error {
	err := j.sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func sortedResults(all []*CaseResult) []*CaseResult {
	out := slices.Clone(all)
	slices.SortFunc(out, func(a, b *CaseResult) int { return a.Index - b.Index })
	return out
}

func sortedInts[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
