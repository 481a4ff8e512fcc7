package yamlrel

import "math/rand/v2"

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }
