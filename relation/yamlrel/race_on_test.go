//go:build race

package yamlrel

// raceOn: the race detector drops a sync.Pool's items at random, so that
// a pool's reuse is not measured under it.
const raceOn = true
