package engine

import (
	"maps"
	"slices"
)

// campaignID hashes a campaign's fingerprint without its shard: every
// shard of one campaign has the same.
func campaignID(fp map[string]string) string {
	var b []byte
	for _, k := range slices.Sorted(maps.Keys(fp)) {
		if k == "shard" {
			continue
		}
		b = append(b, k...)
		b = append(b, 0)
		b = append(b, fp[k]...)
		b = append(b, 0)
	}
	return ContentHash(b)
}
