//go:build !unix

package bench

import (
	"os"
	"time"
)

// cpuTime is not measured here: CPU ratios come out as zero.
func cpuTime() time.Duration { return 0 }

// maxRSS is not measured here.
func maxRSS(*os.ProcessState) int64 { return 0 }
