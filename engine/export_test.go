package engine

import (
	"bytes"
	"strings"
)

// Reseal returns journal lines (each with its newline) with the checksums
// of the records made again, as a consistent edit would leave them: the
// tests of the checks behind the checksums use it.
func Reseal(lines []string) []string {
	out := append([]string(nil), lines...)
	var chain []byte
	for i, l := range out {
		line := []byte(strings.TrimSuffix(l, "\n"))
		if i == 0 {
			chain = headerSum(line)
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			continue // a torn last line stays as it is
		}
		if n := len(line) - len(sumKey) - sumHex - 2; n > 0 && bytes.HasPrefix(line[n:], []byte(sumKey)) {
			line = append(line[:n:n], '}')
		}
		sealed, sum := seal(chain, line)
		chain = sum
		out[i] = string(sealed) + "\n"
	}
	return out
}
