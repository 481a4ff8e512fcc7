// Package golden defines the -update flag of the tests that keep golden
// files. Test packages without golden files import it too, so that
// `go test ./... -update` regenerates every golden file of the module
// instead of failing in packages that do not know the flag.
package golden

import "flag"

// Update asks tests to rewrite their golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")
