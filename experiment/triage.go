package experiment

import (
	"bytes"
	"context"
	"path"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// triage tells, for each of faults, whether forcing it changes how the
// transpiler does on some seed — its status, or its normalised output —
// compared with the fault-free transpiler. An undetected fault that changes
// nothing on any seed is most likely equivalent to the original program on
// such inputs (an error branch forced to the value it always has), which no
// oracle could reveal; one that changes something is a fault the relations
// missed.
func triage(ctx context.Context, cmd transpiler.Command, seeds []engine.Seed, norm oracle.Normalizer, faults []int, workers int, track func(done int)) (map[int]bool, error) {
	clean := cmd
	clean.Env = append(slices.Clone(cmd.Env), faultinject.EnvLedger+"=", faultinject.EnvForce+"=", faultinject.EnvTrace+"=")
	ref, err := transpiler.NewCommand(clean)
	if err != nil {
		return nil, err
	}
	reqs := make([]transpiler.Request, len(seeds))
	want := make([]*transpiler.Result, len(seeds))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, workers))
	for i, s := range seeds {
		reqs[i] = transpiler.Request{Name: path.Base(s.Name), Src: s.Src, Role: transpiler.Base}
		g.Go(func() (err error) {
			want[i], err = ref.Transpile(gctx, reqs[i])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}

	visible := make([]bool, len(faults))
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(max(1, workers))
	var mu sync.Mutex
	done := 0
	for j, f := range faults {
		g.Go(func() error {
			defer func() {
				mu.Lock()
				done++
				track(done)
				mu.Unlock()
			}()
			tr, err := faultinject.Forced(cmd, f)
			if err != nil {
				return err
			}
			for i := range reqs {
				got, err := tr.Transpile(gctx, reqs[i])
				if err != nil {
					return err
				}
				if !sameOutcome(want[i], got, norm) {
					visible[j] = true
					return nil
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make(map[int]bool, len(faults))
	for j, f := range faults {
		out[f] = visible[j]
	}
	return out, nil
}

// sameOutcome reports whether two runs ended alike: with the same status
// and, when accepted, the same normalised output tree.
func sameOutcome(a, b *transpiler.Result, norm oracle.Normalizer) bool {
	if a.Status != b.Status {
		return false
	}
	if a.Status != transpiler.Accepted {
		return true
	}
	return sameTree(norm.Apply(a.Files), norm.Apply(b.Files))
}

func sameTree(a, b tree.Tree) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		if y, ok := b[name]; !ok || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}
