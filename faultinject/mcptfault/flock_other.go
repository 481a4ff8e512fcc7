//go:build !unix

package mcptfault

import "os"

// Without flock, parallel runs may activate the same fault; a single run at
// a time is still correct.

func lock(*os.File, bool) error { return nil }

func unlock(*os.File) error { return nil }
