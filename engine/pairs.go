package engine

// pairSeed is the seed of pair p as it is transpiled: under the pair's
// combination of flags.
func (r *runner) pairSeed(p int) Seed {
	pr := r.pairs[p]
	s := r.seeds[pr.seed]
	s.Flags = r.combos[pr.combo]
	return s
}

// pairName names pair p for people: the seed's name, and its combination
// of flags in parentheses when the campaign has flags.
func (r *runner) pairName(p int) string {
	return pairName(r.pairSeed(p))
}

// pairName names a seed under its combination of flags for people:
// "a.ts (target=es2022)"; the seed's name alone without flags.
func pairName(s Seed) string {
	if f := s.Flags.String(); f != "" {
		return s.Name + " (" + f + ")"
	}
	return s.Name
}
