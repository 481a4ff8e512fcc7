package grammar

import "math/rand/v2"

// Stream is the one source of every choice a derivation makes. A random
// stream draws from a seeded PCG generator; a replayed stream returns
// recorded values. Either way the stream records what it returned, so a
// derivation can be replayed, and shrunk by shrinking its record.
type Stream struct {
	rng    *rand.Rand
	replay []int
	pos    int
	rec    []int
	rotate int // added to every draw (mod n); see deriver.fresh
}

// NewStream returns a random stream determined by seed.
func NewStream(seed uint64) *Stream {
	return &Stream{rng: rand.New(rand.NewPCG(seed, 0x6d637074))}
}

// Replay returns a stream that returns choices in order. A value out of
// range for its draw, and every draw after the last value, gives 0, so any
// sequence of numbers is a valid record: a derivation from it always
// succeeds when the all-zero derivation does.
func Replay(choices []int) *Stream {
	return &Stream{replay: choices}
}

// Draw returns a choice in 0..n-1. A draw with n <= 1 has no choice to make:
// it returns 0 and is not recorded.
func (s *Stream) Draw(n int) int {
	if n <= 1 {
		return 0
	}
	var v int
	if s.rng != nil {
		v = s.rng.IntN(n)
	} else if s.pos < len(s.replay) {
		v = s.replay[s.pos]
		if v < 0 || v >= n {
			v = 0
		}
	}
	s.pos++
	s.rec = append(s.rec, v)
	return (v + s.rotate) % n
}

// Choices returns the record of the draws made so far.
func (s *Stream) Choices() []int { return s.rec }
