package yamlrel

import (
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// rel is a compiled YAML relation.
type rel struct {
	d          *defs
	models     *models // what reads its inputs
	unit       *unit   // what compiling it made, for the resolve pass
	name       string
	pos        yamlpos.Pos
	boundaries *region
	lists      []listSpot
	when       *tmpl   // spots.when: the condition a spot must meet
	except     []*tmpl // spots.except: what the relation leaves out
	// perList tells, for when (index 0) and each except (1…), whether it
	// reads nothing of a boundary spot but its region instance: it is
	// evaluated once for all the spots of an instance.
	perList []bool
	// spotLets tells whether a definitions' let reads a spot: the lets
	// are then evaluated at every spot, as a condition could be.
	spotLets   bool
	fresh      []string
	freshLists []freshList
	freshKeys  []string // the bindings that hold fresh names: fresh, then fresh lists
	choose     []choice
	early      []let // the relation's lets that use no choice, computed before the choices
	late       []let // the others, computed after them
	insert     *tmpl
	clone      *cloneT
	declare    *declareT // a second insertion (logic.go)
	checks     []checkT
}

type listSpot struct {
	kind *kind
	join string
	lets []let
}

type freshList struct {
	name     string
	min, max int
}

type choice struct {
	name    string
	from    *kind
	among   *listRef
	options []*tmpl
}
