package bundle

import (
	"os"
	"path/filepath"
)

// writeDir saves b as a bundle directory as mcpt wrote them before bundles
// were archives (the manifest first, then the files of the layout), for
// the tests of the readers of such output directories.
func writeDir(dir string, b *Bundle) error {
	files, dirs, err := b.files()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), manifestOf(files.Names()), 0o644); err != nil {
		return err
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	for _, name := range files.Names() {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
