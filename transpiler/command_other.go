//go:build !unix

package transpiler

import (
	"context"
	"errors"
)

const commandSupported = false

var errCommandUnsupported = errors.New("transpiler command: external transpilers need a Unix system (process groups are used to kill them)")

// Transpile is never reached: NewCommand refuses to build a command here.
func (c *command) Transpile(ctx context.Context, req Request) (*Result, error) {
	return nil, errCommandUnsupported
}

// RemoveProcessTempDir does nothing here: run directories are removed
// one by one.
func RemoveProcessTempDir() {}
