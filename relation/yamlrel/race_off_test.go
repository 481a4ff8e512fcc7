//go:build !race

package yamlrel

const raceOn = false
