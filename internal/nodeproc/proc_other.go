//go:build !unix

package nodeproc

import (
	"context"
	"fmt"
	"time"
)

// Call cannot run node here: mcpt bounds its processes with process
// groups, which this system lacks.
func (p *Pool) Call(ctx context.Context, req map[string]any, resp any, timeout time.Duration) error {
	return fmt.Errorf("%w: %s needs a Unix system", ErrUnavailable, p.cfg.Name)
}

// Close does nothing.
func (p *Pool) Close() error { return nil }

// proc is a process, which this system never starts.
type proc struct{}
