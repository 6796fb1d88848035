package cuda

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Reduction kernels. The kernel's roots (its last len(Out) equations) are
// reductions over the same axes of operands of shape k.Shape; the
// equations before them compute the operands on the fly.
//
// With a long reduced extent R, one block of reduceThreads threads
// reduces one result at a time (grid-stride over the results): each thread
// accumulates a strided share of the R elements in a register, then the
// block combines the partial results in shared memory (a tree of halving
// strides). With a short R, each thread reduces whole results on its own.

const (
	reduceThreads = 256
	// shortReduction is the largest R reduced one result per thread.
	shortReduction = 64
)

// reduceGeometry is what the executor needs to launch a reduction.
type reduceGeometry struct {
	outputs, extent int
	perBlock        bool // one block per result (else one thread)
}

// accDType is the dtype a reduction of dt accumulates in: float32 for the
// 16-bit floats (rounded once at the end), dt itself otherwise.
func accDType(dt trace.DType) trace.DType {
	if isHalf(dt) {
		return trace.Float32
	}
	return dt
}

func reductionKernel(name string, k *jit.Kernel) (string, reduceGeometry, error) {
	var geo reduceGeometry
	nroot := len(k.Out)
	if nroot == 0 || len(k.Eqns) < nroot {
		return "", geo, fmt.Errorf("cuda: reduction kernel without roots")
	}
	roots := k.Eqns[len(k.Eqns)-nroot:]
	for _, e := range roots {
		switch e.Prim.Name {
		case "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or":
		default:
			return "", geo, unsupported("%s as a reduction root", e.Prim.Name)
		}
		if _, err := ctype(e.Out[0].Aval().DType); err != nil {
			return "", geo, unsupported("%s on %s", e.Prim.Name, e.Out[0].Aval().DType)
		}
	}
	shape := k.Shape
	if shape == nil {
		shape = roots[0].In[0].Aval().Shape
	}
	axes := roots[0].Params.Ints("axes")
	var outShape, redShape trace.Shape
	for d, n := range shape {
		if slices.Contains(axes, d) {
			redShape = append(redShape, n)
		} else {
			outShape = append(outShape, n)
		}
	}
	if outShape == nil {
		outShape = trace.Shape{}
	}
	geo.outputs, geo.extent = outShape.Size(), redShape.Size()
	geo.perBlock = geo.extent > shortReduction
	wide := needsWide(k, shape.Size())

	b := newBuilder(name)
	g := newExprGen(b, k.Eqns[:len(k.Eqns)-nroot], wide)
	inParams := make([]string, len(k.In))
	for i := range k.In {
		inParams[i] = b.param()
	}
	outParams := make([]string, nroot)
	for i := range outParams {
		outParams[i] = b.param()
	}
	b.comment("reduce %s over axes %v: %d results of %d elements", shape, axes, geo.outputs, geo.extent)
	for i, v := range k.In {
		g.inPtr[v] = b.globalParam(inParams[i])
	}
	outPtr := make([]string, nroot)
	for i := range outPtr {
		outPtr[i] = b.globalParam(outParams[i])
	}
	if geo.outputs == 0 {
		return b.text(), geo, nil
	}
	it, ik := g.it(), g.ik()
	tid, t0, t1 := b.reg(rB32), b.reg(rB32), b.reg(rB32)
	b.op("mov.u32 %s, %%tid.x", tid)
	b.op("mov.u32 %s, %%ctaid.x", t0)
	b.op("mov.u32 %s, %%nctaid.x", t1)
	m, mstride := b.reg(ik), b.reg(ik)
	if geo.perBlock {
		g.widen(m, t0)
		g.widen(mstride, t1)
	} else {
		t2 := b.reg(rB32)
		b.op("mov.u32 %s, %%ntid.x", t2)
		if wide {
			b.op("mul.wide.u32 %s, %s, %s", m, t0, t2)
			b.op("mul.wide.u32 %s, %s, %s", mstride, t1, t2)
			t3 := b.reg(rB64)
			b.op("cvt.u64.u32 %s, %s", t3, tid)
			b.op("add.u64 %s, %s, %s", m, m, t3)
		} else {
			b.op("mad.lo.u32 %s, %s, %s, %s", m, t0, t2, tid)
			b.op("mul.lo.u32 %s, %s, %s", mstride, t1, t2)
		}
	}
	var smem []string
	if geo.perBlock {
		for range roots {
			smem = append(smem, b.sharedArray(reduceThreads*8, 8))
		}
	}
	p := b.reg(rPred)
	outerDone, outer := b.newLabel(), b.newLabel()
	b.op("setp.ge.%s %s, %s, %d", it, p, m, geo.outputs)
	b.op("@%s bra %s", p, outerDone)
	b.label(outer)
	g.memo, g.regMemo = map[string]val{}, map[string]string{}
	oc := g.coordsOf(&index{shape: outShape, lin: m})
	// Accumulators start at the identities.
	accs := make([]val, nroot)
	for i, e := range roots {
		dt := accDType(e.Out[0].Aval().DType)
		v, err := b.constant(reductionIdentity(e.Prim.Name, dt), dt)
		if err != nil {
			return "", geo, err
		}
		accs[i] = v
	}
	// The inner loop over the reduced positions r.
	r, rstride := b.reg(ik), b.reg(ik)
	if geo.perBlock {
		g.widen(r, tid)
		b.op("mov.%s %s, %d", it, rstride, reduceThreads)
	} else {
		b.op("mov.%s %s, 0", it, r)
		b.op("mov.%s %s, 1", it, rstride)
	}
	q := b.reg(rPred)
	innerDone, inner := b.newLabel(), b.newLabel()
	b.op("setp.ge.%s %s, %s, %d", it, q, r, geo.extent)
	b.op("@%s bra %s", q, innerDone)
	b.label(inner)
	saved := g.regMemo
	g.memo, g.regMemo = map[string]val{}, map[string]string{}
	for k, v := range saved { // index arithmetic on m stays valid
		g.regMemo[k] = v
	}
	rc := g.coordsOf(&index{shape: redShape, lin: r})
	sc := make([]string, len(shape))
	io, ir := 0, 0
	for d := range shape {
		if slices.Contains(axes, d) {
			sc[d] = "0"
			if len(redShape) > 0 {
				sc[d] = rc[ir]
			}
			ir++
		} else {
			sc[d] = "0"
			if len(outShape) > 0 {
				sc[d] = oc[io]
			}
			io++
		}
	}
	at := &index{shape: shape, coords: sc}
	for i, e := range roots {
		x, err := g.value(e.In[0], at)
		if err != nil {
			return "", geo, err
		}
		if accs[i].dt != x.dt {
			x, err = b.convert(x, accs[i].dt)
			if err != nil {
				return "", geo, err
			}
		}
		if _, err := b.combine(e.Prim.Name, accs[i], x); err != nil {
			return "", geo, err
		}
	}
	b.op("add.%s %s, %s, %s", it, r, r, rstride)
	b.op("setp.lt.%s %s, %s, %d", it, q, r, geo.extent)
	b.op("@%s bra %s", q, inner)
	b.label(innerDone)
	if geo.perBlock {
		// Combine the block's partial results in shared memory.
		sa := b.reg(rB32)
		b.op("mul.lo.u32 %s, %s, 8", sa, tid)
		addrs := make([]string, nroot)
		for i := range roots {
			a := b.reg(rB32)
			b.op("mov.u32 %s, %s", a, smem[i])
			b.op("add.u32 %s, %s, %s", a, a, sa)
			addrs[i] = a
			b.op("st.shared.%s [%s], %s", sharedType(accs[i].dt), a, accs[i].r)
		}
		b.op("bar.sync 0")
		for s := reduceThreads / 2; s > 0; s /= 2 {
			skip := b.newLabel()
			ps := b.reg(rPred)
			b.op("setp.ge.u32 %s, %s, %d", ps, tid, s)
			b.op("@%s bra %s", ps, skip)
			for i, e := range roots {
				o := b.fresh(accs[i].dt)
				b.op("ld.shared.%s %s, [%s+%d]", sharedType(o.dt), o.r, addrs[i], s*8)
				if _, err := b.combine(e.Prim.Name, accs[i], o); err != nil {
					return "", geo, err
				}
				b.op("st.shared.%s [%s], %s", sharedType(o.dt), addrs[i], accs[i].r)
			}
			b.label(skip)
			b.op("bar.sync 0")
		}
		notFirst := b.newLabel()
		pf := b.reg(rPred)
		b.op("setp.ne.u32 %s, %s, 0", pf, tid)
		b.op("@%s bra %s", pf, notFirst)
		g.storeResults(roots, accs, outPtr, m)
		b.label(notFirst)
		// The shared arrays are read by thread 0 above before any thread
		// overwrites them for the next result.
		b.op("bar.sync 0")
	} else {
		g.storeResults(roots, accs, outPtr, m)
	}
	b.op("add.%s %s, %s, %s", it, m, m, mstride)
	b.op("setp.lt.%s %s, %s, %d", it, p, m, geo.outputs)
	b.op("@%s bra %s", p, outer)
	b.label(outerDone)
	return b.text(), geo, nil
}

func (g *exprGen) storeResults(roots []*trace.Eqn, accs []val, outPtr []string, m string) {
	for i, e := range roots {
		dt := e.Out[0].Aval().DType
		v := accs[i]
		if v.dt != dt {
			v = val{v.r, dt} // float32 accumulator of a 16-bit result: store rounds
		}
		g.b.store(v, g.address(outPtr[i], m, dt.Size()))
	}
}

// widen moves a u32 register into an index register.
func (g *exprGen) widen(dst, src string) {
	if g.wide {
		g.b.op("cvt.u64.u32 %s, %s", dst, src)
	} else {
		g.b.op("mov.u32 %s, %s", dst, src)
	}
}

// sharedType is the type a value of dt is kept in shared memory as.
func sharedType(dt trace.DType) string {
	switch regKindOf(dt) {
	case rF32:
		return "f32"
	case rF64:
		return "f64"
	case rB64:
		return "b64"
	}
	return "b32"
}
