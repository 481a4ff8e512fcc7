package grammar

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Options control Generate.
type Options struct {
	// N is the number of distinct programs wanted.
	N int
	// Seed determines the whole batch: program i is derived from a stream
	// seeded with ProgramSeed(Seed, i).
	Seed uint64
	// Accept, when set, keeps only the programs it returns true for (for
	// example, those a reference transpiler accepts). With Workers > 1 it
	// must be safe for concurrent use.
	Accept func(src []byte) bool
	// MaxAttempts bounds the derivations tried; 0 means 10*N + 100.
	MaxAttempts int
	// Depth overrides the grammar's depth limit when > 0.
	Depth int
	// Workers is the number of derivations run at once; 0 means 1. The
	// batch does not depend on it.
	Workers int
	// Progress, when set, is called now and then with the number of
	// programs kept so far.
	Progress func(programs int)
}

// Program is one generated program.
type Program struct {
	Source []byte
	// Attempt is the index of the derivation that produced the program,
	// and Seed the seed of its stream: NewStream(Seed) derives it again.
	Attempt int
	Seed    uint64
	// Choices is the record of its stream: Replay(Choices) derives it
	// again, and Shrink reduces it.
	Choices []int
}

// Lines is the number of lines of the program.
func (p *Program) Lines() int {
	n := bytes.Count(p.Source, []byte("\n"))
	if len(p.Source) > 0 && p.Source[len(p.Source)-1] != '\n' {
		n++
	}
	return n
}

// Batch is the result of Generate.
type Batch struct {
	Programs []Program
	// Generated counts the derivations attempted; Failed those that could
	// not complete; Duplicates those that repeated an earlier program;
	// Rejected those Accept refused; Accepted the programs kept.
	Generated, Failed, Duplicates, Rejected, Accepted int
	Coverage                                          Coverage
	// FirstFailure is why the first failed derivation failed (nil when
	// none did).
	FirstFailure error
}

// Shortfall says why the batch holds no program, from its counts; it is
// "" when it holds one.
func (b *Batch) Shortfall() string {
	if len(b.Programs) > 0 {
		return ""
	}
	switch {
	case b.Generated == 0:
		return "no derivation was attempted"
	case b.Failed == b.Generated:
		return fmt.Sprintf("all %d derivations failed (%v)", b.Generated, b.FirstFailure)
	}
	msg := fmt.Sprintf("%d derivations: %d failed, %d duplicates, %d rejected by the transpiler", b.Generated, b.Failed, b.Duplicates, b.Rejected)
	if b.FirstFailure != nil {
		msg += fmt.Sprintf(" (first failure: %v)", b.FirstFailure)
	}
	return msg
}

// Coverage tells which alternatives of the grammar the accepted programs'
// derivations used.
type Coverage struct {
	Used, Total int
	// Unused lists the alternatives never used, as "file:line:col: rule
	// alternative k", in grammar order.
	Unused []string
}

// ProgramSeed is the seed of the stream of derivation attempt i of a batch
// with seed seed.
func ProgramSeed(seed uint64, i int) uint64 {
	// SplitMix64 of the pair, so that neighbouring seeds and attempts give
	// unrelated streams.
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

type attempt struct {
	src     []byte
	alts    []int
	choices []int
	err     error
	ok      bool // accepted
}

// Generate derives programs until it has opt.N distinct accepted ones or
// has made opt.MaxAttempts attempts. The batch depends only on the grammar
// and the options (not on Workers or scheduling). Fewer than N programs is
// not an error; the counts tell why.
func Generate(g *Grammar, opt Options) (*Batch, error) {
	if opt.N < 0 {
		return nil, errors.New("grammar: negative number of programs")
	}
	maxAttempts := opt.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = 10*opt.N + 100
	}
	limit := g.depth
	if opt.Depth > 0 {
		limit = opt.Depth
	}
	workers := max(opt.Workers, 1)
	b := &Batch{}
	seen := map[string]bool{}
	covered := make([]bool, len(g.alts))
	window := 4 * workers
	for next := 0; len(b.Programs) < opt.N && next < maxAttempts; {
		n := min(window, maxAttempts-next)
		res := make([]attempt, n)
		// In parallel, each worker also runs Accept (on a duplicate too,
		// which is rare); results are counted in attempt order.
		parallel(n, workers, func(k int) {
			s := NewStream(ProgramSeed(opt.Seed, next+k))
			src, alts, err := g.derive(s, limit)
			res[k] = attempt{src: src, alts: alts, choices: s.Choices(), err: err}
			if err == nil && opt.Accept != nil && workers > 1 {
				res[k].ok = opt.Accept(src)
			}
		})
		for k := range res {
			if len(b.Programs) == opt.N {
				break
			}
			r := &res[k]
			b.Generated++
			if r.err != nil {
				b.Failed++
				if b.FirstFailure == nil {
					b.FirstFailure = r.err
				}
				continue
			}
			if seen[string(r.src)] {
				b.Duplicates++
				continue
			}
			seen[string(r.src)] = true
			if opt.Accept != nil {
				ok := r.ok
				if workers == 1 {
					ok = opt.Accept(r.src)
				}
				if !ok {
					b.Rejected++
					continue
				}
			}
			b.Accepted++
			for _, id := range r.alts {
				covered[id] = true
			}
			b.Programs = append(b.Programs, Program{Source: r.src, Attempt: next + k, Seed: ProgramSeed(opt.Seed, next+k), Choices: r.choices})
		}
		next += n
		if opt.Progress != nil {
			opt.Progress(len(b.Programs))
		}
	}
	b.Coverage.Total = len(g.alts)
	for id, c := range covered {
		if c {
			b.Coverage.Used++
		} else {
			b.Coverage.Unused = append(b.Coverage.Unused, g.alts[id].label)
		}
	}
	return b, nil
}

// parallel runs f(0) … f(n-1) on up to workers goroutines.
func parallel(n, workers int, f func(k int)) {
	if workers == 1 {
		for k := range n {
			f(k)
		}
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for k := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(k)
		}()
	}
	wg.Wait()
}

// WriteDir writes the programs into dir (created if missing) as
// seed-0001.EXT, seed-0002.EXT, … in batch order, each atomically (a
// temporary file renamed into place), and returns the paths written.
func (b *Batch) WriteDir(dir, ext string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	width := max(4, len(strconv.Itoa(len(b.Programs))))
	var paths []string
	for i, p := range b.Programs {
		path := filepath.Join(dir, fmt.Sprintf("seed-%0*d.%s", width, i+1, ext))
		if err := writeAtomic(path, p.Source); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
