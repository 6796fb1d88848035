package jit

import (
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// maxMergeCandidates bounds the kernels each kernel tries to merge with,
// and maxPathSearch the kernels one legality check visits, keeping fusion
// near-linear on large programs (a check that gives up refuses the merge).
const (
	maxMergeCandidates = 16
	maxPathSearch      = 4096
)

// A merger joins groups into multi-output kernels (fuse.go, step 3). Groups
// are numbered by their position in groups; a merged group is absorbed by
// the survivor, which find returns.
type merger struct {
	g      *fusionGraph
	groups []*group
	parent []int
	// succ and pred are the edges between surviving groups: data (a value
	// one writes, the other reads) and order (barriers, effects).
	succ, pred []map[int]bool
	// barrierEdge holds the edges that carry a barrier's order, between
	// surviving groups: the groups at either end must stay apart.
	barrierEdge map[[2]int]bool
	writer      map[*trace.Var]int
	readersOf   map[*trace.Var][]int
	holders     map[int][]int // equation index -> groups holding it
	// reaches' search state, reused: seen[g] == stamp marks a visit.
	seen  []int
	stamp int
	stack []int
	// candidates' marks, the same way.
	picked    []int
	pickStamp int
}

func (g *fusionGraph) merge(groups []*group, barriers []*barrier) []*group {
	m := &merger{
		g: g, groups: groups, parent: make([]int, len(groups)),
		succ: make([]map[int]bool, len(groups)), pred: make([]map[int]bool, len(groups)),
		barrierEdge: map[[2]int]bool{}, writer: map[*trace.Var]int{},
		readersOf: map[*trace.Var][]int{}, holders: map[int][]int{},
	}
	for gi, gr := range groups {
		m.parent[gi] = gi
		m.succ[gi], m.pred[gi] = map[int]bool{}, map[int]bool{}
		for _, r := range gr.roots {
			for _, v := range g.eqns[r].Out {
				m.writer[v] = gi
			}
		}
		for _, i := range gr.members {
			m.holders[i] = append(m.holders[i], gi)
		}
	}
	for gi, gr := range groups {
		for _, v := range m.reads(gr) {
			m.readersOf[v] = append(m.readersOf[v], gi)
			if w, ok := m.writer[v]; ok && w != gi {
				m.link(w, gi)
			}
		}
	}
	for _, edge := range groupOrderEdges(g, m.writer, m.holders, barriers) {
		m.link(edge[0], edge[1])
		if edge[2] == 1 {
			m.barrierEdge[[2]int{edge[0], edge[1]}] = true
		}
	}
	for b := range groups {
		if groups[b].kind == OpaqueKernel {
			continue
		}
		for _, a := range m.candidates(b) {
			if m.tryMerge(a, m.find(b)) {
				break
			}
		}
	}
	return groups
}

func (m *merger) find(i int) int {
	for m.parent[i] != i {
		m.parent[i] = m.parent[m.parent[i]]
		i = m.parent[i]
	}
	return i
}

func (m *merger) link(a, b int) {
	m.succ[a][b] = true
	m.pred[b][a] = true
}

// reads lists the values a group reads from memory.
func (m *merger) reads(gr *group) []*trace.Var {
	member := make(map[int]bool, len(gr.members))
	for _, i := range gr.members {
		member[i] = true
	}
	var out []*trace.Var
	seen := map[*trace.Var]bool{}
	for _, i := range gr.members {
		for _, a := range m.g.eqns[i].In {
			v, ok := a.(*trace.Var)
			if !ok || seen[v] {
				continue
			}
			if p, ok := m.g.producer[v]; ok && member[p] {
				continue
			}
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// candidates lists surviving groups b might merge with: writers of what b
// reads, other readers of it, and groups sharing b's equations, earliest
// first.
//
// A value read by many groups (an input every step of a long chain reads)
// offers only its first readers, so that each call costs what it finds,
// not what the program holds (a function returning all of its N
// intermediates merges N times).
func (m *merger) candidates(b int) []int {
	set := map[int]bool{}
	gb := m.groups[b]
	for _, v := range m.reads(gb) {
		if w, ok := m.writer[v]; ok {
			set[m.find(w)] = true
		}
		for _, r := range m.firstReaders(v) {
			set[r] = true
		}
	}
	for _, i := range gb.members {
		for _, h := range m.holders[i] {
			set[m.find(h)] = true
		}
	}
	delete(set, m.find(b))
	var out []int
	for a := range set {
		ga := m.groups[a]
		if ga.kind == gb.kind && ga.shape.Equal(gb.shape) && slices.Equal(ga.axes, gb.axes) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	if len(out) > maxMergeCandidates {
		out = out[:maxMergeCandidates]
	}
	return out
}

// maxReadersOffered is how many surviving readers of one value
// candidates considers.
const maxReadersOffered = 4 * maxMergeCandidates

// firstReaders returns up to maxReadersOffered distinct surviving groups
// reading v, earliest reader first. The readers it passes over (absorbed
// into a survivor already listed) are dropped from readersOf for good, so
// the total work over a compilation is linear in the readers recorded.
func (m *merger) firstReaders(v *trace.Var) []int {
	list := m.readersOf[v]
	if m.picked == nil {
		m.picked = make([]int, len(m.groups))
	}
	m.pickStamp++
	var out [maxReadersOffered]int
	n, i := 0, 0
	for ; i < len(list) && n < maxReadersOffered; i++ {
		r := m.find(list[i])
		if m.picked[r] != m.pickStamp {
			m.picked[r] = m.pickStamp
			out[n] = r
			n++
		}
	}
	// The survivors found fill the end of the part read (n <= i), which
	// becomes the list's new start.
	copy(list[i-n:i], out[:n])
	m.readersOf[v] = list[i-n:]
	return list[i-n : i]
}

// tryMerge merges b into a when that is legal; it reports whether it did.
func (m *merger) tryMerge(a, b int) bool {
	switch {
	case m.succ[a][b]:
		if !m.producerConsumerOK(a, b) {
			return false
		}
	case m.succ[b][a]:
		if !m.producerConsumerOK(b, a) {
			return false
		}
	default:
		if m.reaches(a, b, false) || m.reaches(b, a, false) {
			return false
		}
	}
	ga, gb := m.groups[a], m.groups[b]
	ga.members = m.absorb(a, b, ga.members, gb.members)
	ga.roots = append(ga.roots, gb.roots...) // a value has one writer: no duplicates
	ga.unsorted = true
	gb.gone = true
	m.parent[b] = a
	for s := range m.succ[b] {
		delete(m.pred[s], b)
		if s != a {
			m.link(a, s)
		}
	}
	for p := range m.pred[b] {
		delete(m.succ[p], b)
		if p != a {
			m.link(p, a)
		}
	}
	delete(m.succ[a], b)
	delete(m.pred[a], b)
	m.succ[b], m.pred[b] = nil, nil
	for e := range m.barrierEdge {
		if e[0] == b || e[1] == b {
			delete(m.barrierEdge, e)
			for i := range e {
				if e[i] == b {
					e[i] = a
				}
			}
			m.barrierEdge[e] = true
		}
	}
	return true
}

// producerConsumerOK: loop kernels only, no barrier between them, no other
// path from producer p to consumer c, and c reads everything p writes
// element for element, so the merged loop computes each once.
func (m *merger) producerConsumerOK(p, c int) bool {
	if m.groups[p].kind != LoopKernel || m.barrierEdge[[2]int{p, c}] || m.reaches(p, c, true) {
		return false
	}
	gc := m.groups[c]
	if gc.unsorted { // elementwiseReads wants program order
		slices.Sort(gc.members)
		gc.unsorted = false
	}
	var outs []*trace.Var
	var eqns []*trace.Eqn
	for _, i := range gc.members {
		eqns = append(eqns, m.g.eqns[i])
	}
	for _, r := range gc.roots {
		outs = append(outs, m.g.eqns[r].Out...)
	}
	positional := elementwiseReads(eqns, outs, gc.shape.Size())
	for _, v := range m.reads(gc) {
		if w, ok := m.writer[v]; ok && m.find(w) == p && !positional[v] {
			return false
		}
	}
	return true
}

// reaches reports whether a path leads from x to y (or the search grew too
// long to tell); with skipDirect, the edge x→y itself does not count.
func (m *merger) reaches(x, y int, skipDirect bool) bool {
	m.stamp++
	if m.seen == nil {
		m.seen = make([]int, len(m.groups))
	}
	m.stack = m.stack[:0]
	for s := range m.succ[x] {
		if !(skipDirect && s == y) {
			m.stack = append(m.stack, s)
		}
	}
	for visits := 0; len(m.stack) > 0; visits++ {
		n := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if n == y || visits > maxPathSearch {
			return true
		}
		if m.seen[n] == m.stamp {
			continue
		}
		m.seen[n] = m.stamp
		for s := range m.succ[n] {
			m.stack = append(m.stack, s)
		}
	}
	return false
}

// absorb returns the members of groups a and b together (b merging into
// a; neither merged yet), each equation once: the smaller list is checked
// against the larger through holders and appended to it, so a group that
// grows by many merges costs time in proportion to what joins it, not to
// its size. The result is in no particular order; kernels sorts it.
func (m *merger) absorb(a, b int, am, bm []int) []int {
	big, small, other := am, bm, a // other: the group holding big
	if len(bm) > len(am) {
		big, small, other = bm, am, b
	}
	for _, i := range small {
		shared := false
		for _, h := range m.holders[i] {
			if m.find(h) == other {
				shared = true
				break
			}
		}
		if !shared {
			big = append(big, i)
		}
	}
	return big
}

// groupOrderEdges are the ordering constraints between groups beyond data:
// each barrier's operands are written before any group reading its results
// runs (third element 1), and effectful equations keep their order (0).
func groupOrderEdges(g *fusionGraph, writer map[*trace.Var]int, holders map[int][]int, barriers []*barrier) [][3]int {
	index := make(map[*trace.Eqn]int, len(g.eqns))
	for i, e := range g.eqns {
		index[e] = i
	}
	var edges [][3]int
	for _, b := range barriers {
		for _, v := range b.ins {
			w, ok := writer[v]
			if !ok {
				continue // an argument or constant: nothing to wait for
			}
			for _, e := range b.readers {
				for _, h := range holders[index[e]] {
					if h != w {
						edges = append(edges, [3]int{w, h, 1})
					}
				}
			}
		}
	}
	// Ordered effects are ordered by their compiler tokens (the tokens
	// pass), which are data. The other effectful equations (taps, unordered
	// prints and calls) keep their program order through these edges, so
	// that what a program sends the host arrives as written.
	last := -1
	for i, e := range g.eqns {
		if !isEffectful(e) || hasTokenOperand(e) || (e.Prim.Name == "create_token") {
			continue
		}
		for _, h := range holders[i] {
			if last >= 0 && last != h {
				edges = append(edges, [3]int{last, h, 0})
			}
			last = h
		}
	}
	return edges
}

// hasTokenOperand reports an equation threaded by the tokens pass.
func hasTokenOperand(e *trace.Eqn) bool {
	for _, a := range e.In {
		if a.Aval().IsToken() {
			return true
		}
	}
	return len(e.Out) > 0 && e.Out[0].Aval().IsToken() && len(e.Effects.Ordered()) > 0
}
