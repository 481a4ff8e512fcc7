// Package yamlrel compiles relations declared in YAML into relation.Relation
// values. A relation file declares where spots are (the boundaries of the
// members of a list of the input's syntax tree, or the gaps of a
// declaration's list), which declaration kinds the input has (so that a
// relation can speak of "the preceding timer"), the text to insert with
// fresh names and choices among the input's names, and the consistency
// checks, whose expected lines and anchors are text/template templates over
// those bindings. docs/relations.md documents the language.
//
// Loading and running relations is five passes, each with its files and
// types:
//
//   - decode (decode.go, schema.go): a loader reads each relation file and
//     the files it includes into the structs of schema.go, positions kept
//     and old key names warned of, and finds the parser they name.
//   - resolve (defs.go, compile.go, templates.go, bindings.go, resolve.go):
//     what the files define (regions, kinds, captures, lets, tables) goes
//     into defs, the symbol table; a compiler compiles each relation
//     against it into a rel, every template made and registered by the
//     unit of the relation; then each template is checked against what is
//     bound where it is evaluated (a shape), so that a misspelt name is an
//     error at its line and column before any seed is read. bindSteps is
//     the one list of the steps that bind a test case's names: the resolve
//     pass takes their shapes, the evaluation their values.
//   - instantiate (instantiate.go, instantiatetree.go): models reads an
//     input into a model: its lines and captures, the instances of the
//     regions (lists of its syntax tree, or lines between two patterns) and
//     the declarations of the kinds in them with their attributes, once per
//     input.
//   - spots (spots.go): the spots of a relation in a model, the boundaries
//     of a region's instances or the gaps of a kind's lists, kept or left
//     out by the relation's conditions on spots.
//   - mutate (mutate.go): the follow-up of one spot: the bindings
//     (bindSteps, in order), the inserted text (clone.go for a copy of a
//     sibling, logic.go for a second declaration) and the checkers of the
//     relation's checks (a Mutation is what they see of it).
//
// What several passes share is kept by what it is: relation.go holds the
// compiled relation; among.go, foreach.go and reads.go the list bindings
// of choices and edits and the values read from the output; lets.go what
// a template reads; funcs.go, numbers.go, values.go and groups.go the
// templates' functions, bounds.go the limits of an evaluation, tmplerr.go
// their errors.
//
// A checker kind is a value (checkerkind.go): each built-in kind is a
// CheckerKind in a file of its own (equivalence.go, difference.go,
// created.go, locality.go, order.go, analogy.go, blocks.go, confined.go,
// the derived checks' shared part in derived.go) holding its spec's
// decoding, its compilation and its checker, and a kind written in Go
// elsewhere (relation/protorel) uses the same API.
package yamlrel
