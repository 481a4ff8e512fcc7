package grammar

import "sort"

// analyse numbers the repetitions of the rule instances (their keys in the
// memo follow the instances') and finds, for each instance, what the
// recogniser needs to leave out a call that cannot match: whether every
// alternative starts with a skip of white space and comments, and, read
// from where that skip ends and no white space follows (so that every
// skip inside reads nothing), whether it can match empty, the bytes a
// match can start with and what a failure there expects. Both are fixed
// points over the calls: a rule is lead until one of its alternatives is
// found not to be (the greatest), and the rest grows from nothing (the
// least), which left recursion needs.
func analyse(insts []*pinst) {
	next := len(insts)
	seen := map[*pnode]bool{}
	var number func(n *pnode)
	number = func(n *pnode) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.kind == pRep {
			n.id = next
			next++
		}
		for _, it := range n.items {
			number(it)
		}
		number(n.item)
	}
	for _, in := range insts {
		number(in.body)
		in.lead = true
	}
	for changed := true; changed; {
		changed = false
		for _, in := range insts {
			if in.lead && !leads(in.body) {
				in.lead, changed = false, true
			}
		}
	}
	whats := make([]map[string]bool, len(insts))
	for i := range whats {
		whats[i] = map[string]bool{}
	}
	for changed := true; changed; {
		changed = false
		for _, in := range insts {
			f := starts(in.body, whats)
			if f.nullable != in.nullable || f.first != in.first || len(f.whats) != len(whats[in.id]) {
				changed = true
			}
			in.nullable, in.first = f.nullable, f.first
			for w := range f.whats {
				whats[in.id][w] = true
			}
		}
	}
	for _, in := range insts {
		in.whats = in.whats[:0]
		for w := range whats[in.id] {
			in.whats = append(in.whats, w)
		}
		sort.Strings(in.whats)
	}
}

// leads reports whether every way of reading n starts with a skip.
func leads(n *pnode) bool {
	switch n.kind {
	case pSkip:
		return true
	case pSeq:
		return leads(n.items[0])
	case pAlt:
		for _, a := range n.items {
			if !leads(a) {
				return false
			}
		}
		return true
	case pRep:
		return n.min > 0 && leads(n.item)
	case pCall:
		return n.inst.lead
	}
	return false
}

// start is what starts tells of an expression.
type start struct {
	nullable bool
	first    byteSet
	whats    map[string]bool
}

// starts tells whether n, read at an offset where no white space or
// comment starts, can match empty, the bytes a match can start with, and
// what the items that would be tried first there expect; the instances'
// whats so far are in whats, by id.
func starts(n *pnode, whats []map[string]bool) start {
	one := func(what string) start { return start{whats: map[string]bool{what: true}} }
	switch n.kind {
	case pEmpty, pSkip, pWS:
		return start{nullable: true}
	case pText:
		s := one(n.what)
		s.first.add(n.text[0])
		return s
	case pClass:
		s := one(n.what)
		for b := range 256 {
			if n.set[b] {
				s.first.add(byte(b))
			}
		}
		return s
	case pName:
		if n.inst != nil {
			s := start{nullable: n.inst.nullable, first: n.inst.first, whats: map[string]bool{}}
			for w := range whats[n.inst.id] {
				s.whats[w] = true
			}
			if !s.nullable {
				s.whats["a name"] = true
			}
			return s
		}
		s := one("a name")
		for b := range 256 {
			if isWord(byte(b)) && !isDigit(b) {
				s.first.add(byte(b))
			}
		}
		return s
	case pSeq:
		s := start{nullable: true, whats: map[string]bool{}}
		for _, it := range n.items {
			f := starts(it, whats)
			s.first.addAll(f.first)
			for w := range f.whats {
				s.whats[w] = true
			}
			if !f.nullable {
				s.nullable = false
				break
			}
		}
		return s
	case pAlt:
		s := start{whats: map[string]bool{}}
		for _, a := range n.items {
			f := starts(a, whats)
			s.nullable = s.nullable || f.nullable
			s.first.addAll(f.first)
			for w := range f.whats {
				s.whats[w] = true
			}
		}
		return s
	case pRep:
		f := starts(n.item, whats)
		f.nullable = f.nullable || n.min == 0
		return f
	case pCall:
		s := start{nullable: n.inst.nullable, first: n.inst.first, whats: map[string]bool{}}
		for w := range whats[n.inst.id] {
			s.whats[w] = true
		}
		return s
	}
	return start{nullable: true}
}
