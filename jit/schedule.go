package jit

import (
	"fmt"
	"math/rand/v2"

	"github.com/jaxsh/jaxsh/trace"
)

// schedule orders the kernels to keep peak memory low, as a list scheduler:
// among the kernels whose dependencies have run (data, barriers, effect
// order), it runs next the one that grows live memory least — the bytes it
// writes minus the bytes of temporaries it reads last. A big temporary is
// thus consumed and freed before unrelated work allocates more, the study's
// point about parallel branches (each branch runs to its end before the
// next starts). Ties keep the earlier kernel, so the order is deterministic.
//
// Effectful kernels stay in program order relative to each other (order
// edges; tokens will carry that order later). With Options.ShuffleSeed the
// choice among ready kernels is random instead, which tests use to show
// that every order the dependencies allow computes the same results.
func schedule(c *compilation, p *Program) error {
	outputs := map[*trace.Var]bool{}
	for _, a := range p.Jaxpr.OutVars {
		if v, ok := a.(*trace.Var); ok {
			outputs[v] = true
		}
	}
	readers := map[*trace.Var]int{}
	written := map[*trace.Var]bool{}
	for _, k := range p.Kernels {
		for _, v := range k.In {
			readers[v]++
		}
		for _, v := range k.Out {
			written[v] = true
		}
	}
	growth := func(k *Kernel) int {
		n := 0
		for _, v := range k.Out {
			n += bytesOf(v.Aval())
		}
		for _, v := range k.In {
			if written[v] && !outputs[v] && readers[v] == 1 {
				n -= bytesOf(v.Aval())
			}
		}
		return n
	}
	var pick func(ready []*Kernel) int
	if c.opts.ShuffleSeed != 0 {
		rng := rand.New(rand.NewPCG(uint64(c.opts.ShuffleSeed), 0x6a78))
		pick = func(ready []*Kernel) int { return rng.IntN(len(ready)) }
	} else {
		pick = func(ready []*Kernel) int {
			best, bestGrowth := 0, growth(ready[0])
			for i, k := range ready[1:] {
				if g := growth(k); g < bestGrowth {
					best, bestGrowth = i+1, g
				}
			}
			return best
		}
	}
	order, err := topologicalOrder(p, func(ready []*Kernel) int {
		i := pick(ready)
		for _, v := range ready[i].In {
			readers[v]--
		}
		return i
	})
	if err != nil {
		return err
	}
	p.Kernels = order
	return nil
}

// topologicalOrder returns p's kernels in an order that respects data
// dependencies and p.orderEdges. pick chooses among the ready kernels
// (listed in their current order); nil picks the first, keeping the
// current order wherever it is valid.
func topologicalOrder(p *Program, pick func(ready []*Kernel) int) ([]*Kernel, error) {
	pos := make(map[*Kernel]int, len(p.Kernels))
	for i, k := range p.Kernels {
		pos[k] = i
	}
	writer := map[*trace.Var]*Kernel{}
	for _, k := range p.Kernels {
		for _, v := range k.Out {
			writer[v] = k
		}
	}
	succs := make(map[*Kernel][]*Kernel, len(p.Kernels))
	waiting := make(map[*Kernel]int, len(p.Kernels))
	addEdge := func(a, b *Kernel) {
		succs[a] = append(succs[a], b)
		waiting[b]++
	}
	for _, k := range p.Kernels {
		seen := map[*Kernel]bool{}
		for _, v := range k.In {
			if w := writer[v]; w != nil && w != k && !seen[w] {
				seen[w] = true
				addEdge(w, k)
			}
		}
	}
	for _, e := range p.orderEdges {
		addEdge(e[0], e[1])
	}
	var ready []*Kernel
	for _, k := range p.Kernels {
		if waiting[k] == 0 {
			ready = append(ready, k)
		}
	}
	order := make([]*Kernel, 0, len(p.Kernels))
	for len(ready) > 0 {
		i := 0
		if pick != nil {
			i = pick(ready)
		}
		k := ready[i]
		ready = append(ready[:i], ready[i+1:]...)
		order = append(order, k)
		for _, s := range succs[k] {
			if waiting[s]--; waiting[s] == 0 {
				// Keep ready sorted by current position.
				j := len(ready)
				for j > 0 && pos[ready[j-1]] > pos[s] {
					j--
				}
				ready = append(ready, nil)
				copy(ready[j+1:], ready[j:])
				ready[j] = s
			}
		}
	}
	if len(order) != len(p.Kernels) {
		return nil, fmt.Errorf("kernel dependencies form a cycle (%d of %d kernels ordered)", len(order), len(p.Kernels))
	}
	return order, nil
}
