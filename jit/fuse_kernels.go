package jit

import (
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// fuse is the pipeline pass that cuts the jaxpr into kernels (fuse.go).
// Without Options.Fuse every equation is an OpaqueKernel. Either way
// optimization barriers are resolved into ordering constraints, and
// effectful kernels are ordered as their equations were.
func fuse(c *compilation, p *Program) error {
	j, barriers := resolveBarriers(p.Jaxpr)
	p.Jaxpr = j
	g := newFusionGraph(j, barriers)
	var groups []*group
	if c.opts.Fuse {
		g.decide()
		groups = g.merge(g.groups(), barriers)
		p.Jaxpr = g.withoutDead(j)
	} else {
		groups = g.opaqueGroups()
	}
	var live []*group
	for _, gr := range groups {
		if !gr.gone {
			live = append(live, gr)
		}
	}
	p.Kernels = g.kernels(live)
	writer := map[*trace.Var]int{}
	holders := map[int][]int{}
	for gi, gr := range live {
		for _, r := range gr.roots {
			for _, v := range g.eqns[r].Out {
				writer[v] = gi
			}
		}
		for _, i := range gr.members {
			holders[i] = append(holders[i], gi)
		}
	}
	for _, e := range groupOrderEdges(g, writer, holders, barriers) {
		p.orderEdges = append(p.orderEdges, [2]*Kernel{p.Kernels[e[0]], p.Kernels[e[1]]})
	}
	order, err := topologicalOrder(p, nil)
	if err != nil {
		return err
	}
	p.Kernels = order
	return nil
}

// withoutDead drops the fused equations nothing needs (DCE removes them
// when optimising), so that every equation of the Program's jaxpr is in a
// kernel.
func (g *fusionGraph) withoutDead(j *trace.Jaxpr) *trace.Jaxpr {
	if !slices.Contains(g.dead, true) {
		return j
	}
	out := *j
	out.Eqns = nil
	for i, e := range j.Eqns {
		if !g.dead[i] {
			out.Eqns = append(out.Eqns, e)
		}
	}
	return &out
}

// A group is a kernel being formed: its member equations (by index) and
// roots (members whose results it writes).
type group struct {
	kind    KernelKind
	shape   trace.Shape
	axes    []int
	members []int // sorted, unless merging appended to it (unsorted)
	roots   []int // sorted, likewise
	// merging appended to members and roots: kernels sorts them
	unsorted bool
	// merged into another group (the survivor holds its members)
	gone bool
}

// groups makes one group per root, holding the equations whose users
// include that root.
func (g *fusionGraph) groups() []*group {
	byRoot := map[int]*group{}
	var out []*group
	for i, e := range g.eqns {
		if !g.root[i] {
			continue
		}
		gr := &group{roots: []int{i}}
		switch g.class[i] {
		case classOpaque:
			gr.kind = OpaqueKernel
		case classLargeReduce:
			gr.kind, gr.shape, gr.axes = ReductionKernel, e.In[0].Aval().Shape, e.Params.Ints("axes")
		default:
			gr.kind, gr.shape = LoopKernel, e.Out[0].Aval().Shape
		}
		byRoot[i] = gr
		out = append(out, gr)
	}
	for i := range g.eqns {
		if g.dead[i] {
			continue
		}
		for r := range g.users[i] {
			byRoot[r].members = append(byRoot[r].members, i)
		}
	}
	return out
}

// opaqueGroups puts every equation in an OpaqueKernel of its own.
func (g *fusionGraph) opaqueGroups() []*group {
	out := make([]*group, len(g.eqns))
	for i := range g.eqns {
		out[i] = &group{kind: OpaqueKernel, members: []int{i}, roots: []int{i}}
	}
	return out
}

// kernels builds one Kernel per group, in order.
func (g *fusionGraph) kernels(groups []*group) []*Kernel {
	out := make([]*Kernel, len(groups))
	for gi, gr := range groups {
		slices.Sort(gr.members)
		slices.Sort(gr.roots)
		member := make(map[int]bool, len(gr.members))
		for _, i := range gr.members {
			member[i] = true
		}
		isRoot := map[int]bool{}
		for _, r := range gr.roots {
			isRoot[r] = true
		}
		k := &Kernel{Kind: gr.kind, Shape: gr.shape}
		var tail []*trace.Eqn
		for _, i := range gr.members {
			if gr.kind == ReductionKernel && isRoot[i] {
				tail = append(tail, g.eqns[i]) // roots last (fusion.go)
			} else {
				k.Eqns = append(k.Eqns, g.eqns[i])
			}
		}
		k.Eqns = append(k.Eqns, tail...)
		seen := map[*trace.Var]bool{}
		for _, e := range k.Eqns {
			for _, a := range e.In {
				v, ok := a.(*trace.Var)
				if !ok || seen[v] {
					continue
				}
				if p, ok := g.producer[v]; ok && member[p] {
					continue
				}
				seen[v] = true
				k.In = append(k.In, v)
			}
		}
		for _, r := range gr.roots {
			for _, v := range g.eqns[r].Out {
				if gr.kind == OpaqueKernel || g.neededOutside(v, member) {
					k.Out = append(k.Out, v)
				}
			}
		}
		out[gi] = k
	}
	return out
}

// neededOutside reports whether v must leave a kernel with the given
// members: it is a must value, or an equation outside the kernel reads it.
func (g *fusionGraph) neededOutside(v *trace.Var, members map[int]bool) bool {
	if g.must[v] {
		return true
	}
	for _, r := range g.readers[v] {
		if !members[r] {
			return true
		}
	}
	return false
}
