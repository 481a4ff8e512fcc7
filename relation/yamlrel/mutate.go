package yamlrel

// The mutate pass: the follow-up of one spot, its bindings (bindSteps),
// the inserted text and the checkers.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// mutate makes the follow-up of one spot: the bindings (the spot's data,
// lets, fresh names, choices), the inserted text and the checkers.
func (r *rel) mutate(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	fu, err := r.followUp(ctx, in, sp, rng)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err() // cut short, whichever template saw it
	}
	return fu, err
}

// followUp is mutate before the context's error is told apart.
func (r *rel) followUp(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	m := r.models.parse(ctx, in.Src)
	ss, err := r.find(ctx, m, in)
	if err != nil {
		return nil, err
	}
	if sp.Index < 0 || sp.Index >= len(ss) {
		return nil, fmt.Errorf("relation %s: no spot %d in %s (it has %d)", r.name, sp.Index, in.Name, len(ss))
	}
	s := ss[sp.Index]
	data, err := r.bind(ctx, m, s, in, rng)
	if err != nil {
		return nil, err
	}
	ins, err := r.inserted(ctx, s, data, in.Src, rng)
	if err != nil {
		return nil, err
	}
	// (one copy of the seed: a follow-up of a seed of megabytes is made
	// for every test case)
	var src string
	switch text := s.text(ins); {
	case s.tree.List != nil:
		src = m.src[:s.offset] + text + m.src[s.end:]
	case s.offset == len(m.src) && len(m.src) > 0 && !strings.HasSuffix(m.src, "\n"):
		src = m.src + "\n" + text
	default:
		src = m.src[:s.offset] + text + m.src[s.offset:]
	}
	pre, preLen := src, len(src)-len(m.src)+(s.end-s.offset)
	if s.tree.List == nil {
		preLen = len(src) - len(m.src)
	}
	if src, err = r.declare.declared(ctx, m, data, src, s.offset, len(src)-len(m.src)); err != nil {
		return nil, err
	}
	fu := &relation.FollowUp{Src: []byte(src), Bindings: flatten(data), Fresh: r.freshKeys}
	if r.clone != nil && r.clone.inner {
		fu.Fresh = append(slices.Clone(fu.Fresh), "clone.fresh")
	}
	mu := &Mutation{ctx: ctx, name: in.Name, r: r, m: m, s: s, ins: ins, data: data, pre: pre, preLen: preLen, raw: ins, followUp: fu.Src}
	if s.tree.List != nil {
		mu.ins = memberText(ins, s.tree.List.Layout.Sep) // as the kinds of a tree region see members
	}
	for _, c := range r.checks {
		if c.when != nil {
			w, err := c.when.render(ctx, data)
			if err != nil {
				return nil, err
			}
			if !truthy(w) {
				continue
			}
		}
		chk, err := c.instantiate(mu)
		if err != nil {
			return nil, err
		}
		fu.Checks = append(fu.Checks, chk)
	}
	return fu, nil
}

// bind computes the template data of a test case: the steps of
// bindSteps, in order.
func (r *rel) bind(ctx context.Context, m *model, s *spot, in relation.Input, rng *rand.Rand) (map[string]any, error) {
	b := &binding{ctx: ctx, r: r, m: m, s: s, in: in, rng: rng}
	if err := b.evalSteps(bindSteps); err != nil {
		return nil, err
	}
	return b.data, nil
}

// bindFresh draws the fresh names and fresh lists.
func (r *rel) bindFresh(data map[string]any, src []byte, rng *rand.Rand) error {
	taken := map[string]bool{}
	for _, name := range r.fresh {
		n, err := r.d.fresh.Fresh(rng, src, taken)
		if err != nil {
			return err
		}
		data[name] = n
	}
	for _, fl := range r.freshLists {
		k := fl.min + rng.IntN(fl.max-fl.min+1)
		names := make([]string, k)
		for i := range names {
			n, err := r.d.fresh.Fresh(rng, src, taken)
			if err != nil {
				return err
			}
			names[i] = n
		}
		data[fl.name] = names
	}
	return nil
}

// draw makes one choice.
func (r *rel) draw(ctx context.Context, c choice, m *model, data map[string]any, rng *rand.Rand) error {
	switch {
	case c.from != nil:
		ds := m.decls[c.from.name]
		dc := ds[rng.IntN(len(ds))]
		inst := map[string]any{"name": dc.key(), "names": dc.names, "line": dc.line + 1}
		for k, v := range dc.groups {
			if _, taken := inst[k]; !taken {
				inst[k] = v
			}
		}
		data[c.name] = inst
		return nil
	case c.among != nil:
		v, path, err := c.among.resolve(ctx, data)
		if err != nil {
			if ctx.Err() != nil || c.among.pathT != nil && path == "" {
				return err
			}
			return fmt.Errorf("relation %s: choice %s: %v", r.name, c.name, err)
		}
		switch xs := v.(type) {
		case []string:
			if len(xs) > 0 {
				data[c.name] = xs[rng.IntN(len(xs))]
				return nil
			}
		case []map[string]any:
			if len(xs) > 0 {
				data[c.name] = xs[rng.IntN(len(xs))]
				return nil
			}
		case []any:
			if len(xs) > 0 {
				data[c.name] = xs[rng.IntN(len(xs))]
				return nil
			}
		}
		return fmt.Errorf("relation %s: choice %s: %s is not a non-empty list", r.name, c.name, c.among.src)
	}
	o := c.options[rng.IntN(len(c.options))]
	v, err := o.render(ctx, data)
	if err != nil {
		return err
	}
	data[c.name] = v
	return nil
}

// evalLets evaluates the lets into data, within the budget b of the
// evaluation they are part of.
func evalLets(ctx context.Context, ls []let, data map[string]any, b *letBudget) error {
	for _, l := range ls {
		s, err := l.tmpl.render(ctx, data)
		if err == nil {
			err = b.take(l, len(s))
		}
		if err != nil {
			return fmt.Errorf("let %s: %v", l.name, err)
		}
		data[l.name] = s
	}
	return nil
}

// maxLetBytes bounds what the lets of one evaluation take in all: those
// of a spot or a test case (the definitions', the spot's and the
// relation's), or the attributes of the declarations of an input. Each
// value may take maxBytes; a thousand of them would take gigabytes.
const maxLetBytes = 64 << 20

// letBudget counts the bytes the lets of one evaluation take.
type letBudget struct{ used int }

// take counts n more bytes for let l, or says that they are too many.
func (b *letBudget) take(l let, n int) error {
	if b.used += n; b.used > maxLetBytes {
		return yamlpos.Errorf(l.tmpl.pos, "the lets of one evaluation take over %d MiB in all (a spot's or a test case's, or the attributes of an input's declarations)", maxLetBytes>>20)
	}
	return nil
}

// lookup resolves a dotted path such as "E.names" in the data.
func lookup(data map[string]any, path string) (any, error) {
	var cur any = data
	for _, part := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a map", path, part)
		}
		if cur, ok = mm[part]; !ok {
			return nil, fmt.Errorf("%s: no %q", path, part)
		}
	}
	return cur, nil
}

// flatten renders the bindings as strings for findings: nested maps become
// dotted keys, lists are joined with commas.
func flatten(data map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if prefix == "region" && slices.Contains(scopeKeys, k) && k != "index" || prefix == "input" && k == "text" {
					continue // the declarations around the spot, the input: context
				}
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, y)
			}
		case []string:
			out[prefix] = strings.Join(x, ", ")
		case []map[string]any:
			// lists of items (.region.items, tables) are context, not bindings
		case string:
			if x != "" {
				out[prefix] = x
			}
		case int:
			out[prefix] = strconv.Itoa(x)
		default:
			out[prefix] = fmt.Sprint(x)
		}
	}
	// The release and the flags are the test case's, which a finding
	// records apart: no names the mutation drew.
	ctx := map[string]bool{"first": true, "last": true, "next": true, "count": true, "decls": true, "tables": true, "release": true, "flags": true}
	for k, v := range data {
		if !ctx[k] {
			walk(k, v)
		}
	}
	return out
}

// inputData is .input: the name of the input file, that name without its
// extension (code generators name output files after it) and the text of
// the input.
func inputData(name, src string) map[string]any {
	return map[string]any{"name": name, "stem": strings.TrimSuffix(name, path.Ext(name)), "text": src}
}

// memberText is inserted text as a kind of a tree region sees a member:
// without the list's separator at its end, white space collapsed.
func memberText(ins, sep string) string {
	t := strings.TrimSpace(ins)
	if sep != "" {
		t = strings.TrimSuffix(t, sep)
	}
	return collapse(t)
}

// settingData adds what a template sees of the transpiler a test case
// runs: .release, and .flags, dimension → value name, with "" for a
// dimension the pack knows and the campaign does not set.
func settingData(sup *relation.Supports, data map[string]any, in relation.Input) {
	data["release"] = in.Release
	flags := map[string]any{}
	if sup != nil {
		for dim := range sup.Flags {
			flags[dim] = ""
		}
	}
	for dim, v := range in.Flags {
		flags[dim] = v
	}
	data["flags"] = flags
}
