//go:build !linux

package bundle

import (
	"errors"
	"fmt"
)

// checkTree walks the directory at the slash-separated path rel for
// CheckTree.
func (r *Reader) checkTree(rel string) error { return r.walkTree(rel) }

func (r *Reader) scan([]string, string, int64) (map[string]bool, map[string]*Scanned, error) {
	return nil, nil, fmt.Errorf("scanning %s: %w", r.dir, errors.ErrUnsupported)
}
