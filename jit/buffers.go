package jit

import (
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// arenaAlignment is the alignment of every temporary in the arena: a cache
// line, so kernels never share one across their outputs.
const arenaAlignment = 64

// assignBuffers gives every value that crosses a kernel boundary its place
// in memory (Program.Slices), for the scheduled kernel order:
//
//   - Arguments live in the caller's buffers, embedded constants in their
//     own; results in result buffers, one per distinct output value.
//   - In place: a LoopKernel writes an output over an input it reads
//     element for element (elementwiseReads) when that input dies there and
//     has the output's size and element size. Such values form a chain in
//     one allocation. A chain that ends in a result lives in the result
//     buffer from its start (XLA's trick in the study's barrier example:
//     the first kernel writes into the output, the second works in place,
//     and no temporary is needed). A chain may start in a donated
//     argument; if it ends in a result, that result aliases the argument.
//   - The remaining chains are temporaries, packed into one arena: each
//     is live from the kernel that writes its first value to the last
//     kernel that reads its last, and two may overlap in the arena only if
//     they are never live at once. Packing is greedy, largest first, each at
//     the lowest offset that fits (XLA's heap simulator does likewise).
func assignBuffers(c *compilation, p *Program) error {
	a := newAssignment(p)
	a.chainInPlace()
	scratch := a.controlScratch()
	a.packTemps()
	a.record()
	placeControlScratch(scratch)
	return nil
}

// A chain is a sequence of values sharing one allocation, each written
// over the previous by a kernel that reads it element for element.
type chain struct {
	kind       SliceKind // ArgSlice, OutputSlice or TempSlice
	index      int       // argument or output index
	size       int
	start, end int // kernel positions: first write, last read
	offset     int
	values     []*trace.Var
}

type assignment struct {
	p        *Program
	argIndex map[*trace.Var]int
	outIndex map[*trace.Var]int
	def      map[*trace.Var]int
	lastUse  map[*trace.Var]int
	chainOf  map[*trace.Var]*chain
	chains   []*chain
}

func newAssignment(p *Program) *assignment {
	a := &assignment{
		p: p, argIndex: map[*trace.Var]int{}, outIndex: map[*trace.Var]int{},
		def: map[*trace.Var]int{}, lastUse: map[*trace.Var]int{}, chainOf: map[*trace.Var]*chain{},
	}
	for i, v := range p.Args {
		a.argIndex[v] = i
		a.def[v] = -1
	}
	for _, e := range p.Embedded {
		a.def[e.Var] = -1
	}
	end := len(p.Kernels)
	for i, o := range p.Jaxpr.OutVars {
		if v, ok := o.(*trace.Var); ok {
			if _, dup := a.outIndex[v]; !dup {
				a.outIndex[v] = i
			}
			a.lastUse[v] = end
		}
	}
	for t, k := range p.Kernels {
		for _, v := range k.In {
			a.lastUse[v] = max(a.lastUse[v], t)
		}
		for _, v := range k.Out {
			a.def[v] = t
			if _, ok := a.lastUse[v]; !ok {
				a.lastUse[v] = t
			}
		}
	}
	// Every argument starts a chain of its own; donated ones may grow.
	for i, v := range p.Args {
		c := &chain{kind: ArgSlice, index: i, size: bytesOf(v.Aval()), start: -1, end: a.lastUse[v], values: []*trace.Var{v}}
		a.chainOf[v] = c
	}
	return a
}

// chainInPlace links each kernel output to an input it may overwrite.
func (a *assignment) chainInPlace() {
	for t, k := range a.p.Kernels {
		var positional map[*trace.Var]bool
		if k.Kind == LoopKernel {
			positional = elementwiseReads(k.Eqns, k.Out, k.Shape.Size())
		}
		taken := map[*trace.Var]bool{}
		for _, o := range k.Out {
			if _, isArg := a.argIndex[o]; isArg {
				continue
			}
			var host *chain
			if k.Kind == ControlKernel {
				host = a.controlHost(k, o, t, taken)
			}
			for _, in := range k.In {
				if host == nil && positional[in] && !taken[in] && a.canHost(in, o, t) {
					host, taken[in] = a.chainOf[in], true
					break
				}
			}
			if host == nil {
				host = &chain{kind: TempSlice, size: bytesOf(o.Aval()), start: t}
				a.chains = append(a.chains, host)
			}
			if out, ok := a.outIndex[o]; ok && host.kind == TempSlice {
				host.kind, host.index = OutputSlice, out
			}
			host.values = append(host.values, o)
			host.end = a.lastUse[o]
			a.chainOf[o] = host
		}
	}
}

// canHost reports whether o, written at kernel t, may take in's memory: in
// dies at t, is not a result, has o's size and element size, and lives in
// a temporary or a donated argument.
func (a *assignment) canHost(in, o *trace.Var, t int) bool {
	c := a.chainOf[in]
	switch {
	case c == nil || a.lastUse[in] != t:
		return false
	case bytesOf(in.Aval()) != bytesOf(o.Aval()) || in.Aval().DType.Size() != o.Aval().DType.Size():
		return false
	case c.kind == ArgSlice:
		_, isResult := a.outIndex[in]
		return a.p.Donated[c.index] && !isResult
	}
	return c.kind == TempSlice
}

// packTemps places the temporary chains in the arena.
func (a *assignment) packTemps() {
	var temps []*chain
	for _, c := range a.chains {
		if c.kind == TempSlice && c.size > 0 {
			temps = append(temps, c)
		}
	}
	slices.SortStableFunc(temps, func(x, y *chain) int {
		if x.size != y.size {
			return y.size - x.size
		}
		return x.start - y.start
	})
	var placed []*chain
	for _, c := range temps {
		// The chains live at the same time, by offset; take the lowest
		// aligned gap that holds c.
		var busy []*chain
		for _, q := range placed {
			if q.start <= c.end && c.start <= q.end {
				busy = append(busy, q)
			}
		}
		slices.SortFunc(busy, func(x, y *chain) int { return x.offset - y.offset })
		off := 0
		for _, q := range busy {
			if off+c.size <= q.offset {
				break
			}
			off = max(off, alignUp(q.offset+q.size))
		}
		c.offset = off
		placed = append(placed, c)
		a.p.TempSize = max(a.p.TempSize, c.offset+c.size)
	}
}

func alignUp(n int) int { return (n + arenaAlignment - 1) / arenaAlignment * arenaAlignment }

// record writes the plan into the Program.
func (a *assignment) record() {
	p := a.p
	p.Slices = map[*trace.Var]Slice{}
	for i, e := range p.Embedded {
		p.Slices[e.Var] = Slice{Kind: ConstSlice, Index: i, Size: bytesOf(e.Var.Aval())}
	}
	for _, v := range p.Args {
		c := a.chainOf[v]
		for _, m := range c.values {
			p.Slices[m] = Slice{Kind: ArgSlice, Index: c.index, Size: bytesOf(m.Aval())}
		}
	}
	for _, c := range a.chains {
		for _, m := range c.values {
			s := Slice{Kind: c.kind, Index: c.index, Size: bytesOf(m.Aval())}
			if c.kind == TempSlice {
				s.Index, s.Offset = 0, c.offset
			}
			p.Slices[m] = s
		}
	}
	p.OutAliases = make([]int, len(p.Jaxpr.OutVars))
	for i, o := range p.Jaxpr.OutVars {
		p.OutAliases[i] = -1
		if v, ok := o.(*trace.Var); ok {
			if s, ok := p.Slices[v]; ok && s.Kind == ArgSlice {
				p.OutAliases[i] = s.Index
			}
		}
	}
}
