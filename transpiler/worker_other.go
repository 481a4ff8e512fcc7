//go:build !unix

package transpiler

import "context"

// WorkerPool runs a Worker; only Unix systems have one.
type WorkerPool struct{}

// NewWorker refuses: persistent workers need a Unix system.
func NewWorker(w Worker) (*WorkerPool, error) { return nil, errCommandUnsupported }

// Transpile is never reached.
func (p *WorkerPool) Transpile(ctx context.Context, req Request) (*Result, error) {
	return nil, errCommandUnsupported
}

// Close does nothing.
func (p *WorkerPool) Close() error { return nil }
