//go:build !unix

package bench

import "time"

// cpuTime is not measured here: CPU ratios come out as zero.
func cpuTime() time.Duration { return 0 }
