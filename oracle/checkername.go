package oracle

// The names of the checkers, as their failures carry them, known before
// they fail: counts of checked test cases are kept per checker.

// CheckerName is the name of the equivalence check.
func (e *Equivalence) CheckerName() string { return nameOr(e.Name, "equivalence") }

// CheckerName is the name of the difference check.
func (d *Difference) CheckerName() string { return nameOr(d.Name, "difference:"+d.File) }

// CheckerName is the name of the order check.
func (c *Order) CheckerName() string { return nameOr(c.Name, "order") }

// CheckerName is the name of the analogy check.
func (c *Analogy) CheckerName() string { return nameOr(c.Name, "analogy") }

// CheckerName is the name of the locality check.
func (l *Locality) CheckerName() string { return nameOr(l.Name, "locality") }

// CheckerName is the name of the blocks check.
func (b *Blocks) CheckerName() string { return nameOr(b.Name, "blocks:"+b.File) }

// CheckerName is the name of the creation check.
func (c *Creation) CheckerName() string { return nameOr(c.Name, "created:"+c.File) }

func nameOr(name, def string) string {
	if name != "" {
		return name
	}
	return def
}
