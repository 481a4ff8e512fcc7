//go:build !linux

package bundle

// checkTree walks the directory at the slash-separated path rel for
// CheckTree.
func (r *Reader) checkTree(rel string) error { return r.walkTree(rel) }
