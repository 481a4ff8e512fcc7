package cli

import (
	"errors"
	"io/fs"
	"os"
)

// defaultConfig is the configuration read when -c is not given.
const defaultConfig = "mcpt.yaml"

// configExists checks that the configuration file is there before it is
// read, so that a user who ran mcpt in the wrong directory learns what -c
// is for rather than reading an open error.
func configExists(path string) error {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if path == defaultConfig {
		return usageErr("no %s in this directory: name the configuration with -c, such as -c examples/cll/mcpt.yaml", defaultConfig)
	}
	return usageErr("configuration %s does not exist: -c names the configuration file", path)
}
