// Package grammar generates seed programs from a grammar: it parses the
// grammar notation of docs/grammar.md (weighted alternatives, bounded
// repetitions, character classes, rules with parameters, and fresh and
// referenced names of declared kinds carrying tags, so that programs meet a
// language's naming and typing rules by construction), computes every
// rule's shortest derivation so that a depth limit always finds a way out,
// and derives programs by drawing every choice from one recorded Stream,
// which makes a program reproducible from its record and reducible by
// shrinking that record.
package grammar
