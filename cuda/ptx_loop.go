package cuda

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Loop kernels: a grid-stride loop over the linear indices of the kernel's
// shape. Each output is computed at the loop index; an equation's operands
// are computed where it needs them (index maps such as transpose or
// broadcast become index arithmetic, iota becomes a coordinate). Index
// arithmetic is 32-bit when every shape in the kernel has fewer than 2^31
// elements, else 64-bit.

// An index is a position in an array of some shape: its linear index, its
// coordinates, or both. Entries are registers or decimal immediates.
type index struct {
	shape  trace.Shape
	lin    string
	coords []string
}

func (ix *index) key() string {
	if ix.lin != "" {
		return "L" + ix.lin + ix.shape.String()
	}
	return "C" + strings.Join(ix.coords, ",")
}

func isImm(s string) bool { return s != "" && s[0] != '%' }

func immVal(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }

func imm(v int64) string { return strconv.FormatInt(v, 10) }

// exprGen computes values of a kernel's equations at indices.
type exprGen struct {
	b     *builder
	wide  bool                      // 64-bit index arithmetic
	eqnOf map[*trace.Var]*trace.Eqn // producer of each value computed inside
	inPtr map[*trace.Var]string     // global address of each value read from memory
	memo  map[string]val
	// regMemo keeps per-key results of index arithmetic.
	regMemo map[string]string
}

func newExprGen(b *builder, eqns []*trace.Eqn, wide bool) *exprGen {
	g := &exprGen{b: b, wide: wide, eqnOf: map[*trace.Var]*trace.Eqn{}, inPtr: map[*trace.Var]string{},
		memo: map[string]val{}, regMemo: map[string]string{}}
	for _, e := range eqns {
		for _, v := range e.Out {
			g.eqnOf[v] = e
		}
	}
	return g
}

// it is the index type ("u32" or "u64"); ik its register kind.
func (g *exprGen) it() string {
	if g.wide {
		return "u64"
	}
	return "u32"
}

func (g *exprGen) ik() regKind {
	if g.wide {
		return rB64
	}
	return rB32
}

// Index arithmetic, folding immediates.

func (g *exprGen) iadd(a, c string) string {
	switch {
	case isImm(a) && isImm(c):
		return imm(immVal(a) + immVal(c))
	case a == "0":
		return c
	case c == "0":
		return a
	case isImm(a):
		a, c = c, a
	}
	k := "add " + a + " " + c
	if r, ok := g.regMemo[k]; ok {
		return r
	}
	r := g.b.reg(g.ik())
	g.b.op("add.%s %s, %s, %s", g.it(), r, a, c)
	g.regMemo[k] = r
	return r
}

func (g *exprGen) imul(a string, c int64) string {
	switch {
	case isImm(a):
		return imm(immVal(a) * c)
	case c == 0:
		return "0"
	case c == 1:
		return a
	}
	k := "mul " + a + " " + imm(c)
	if r, ok := g.regMemo[k]; ok {
		return r
	}
	r := g.b.reg(g.ik())
	g.b.op("mul.lo.%s %s, %s, %d", g.it(), r, a, c)
	g.regMemo[k] = r
	return r
}

// idivmod returns a/c and a%c for a non-negative a.
func (g *exprGen) idivmod(a string, c int64) (string, string) {
	if isImm(a) {
		return imm(immVal(a) / c), imm(immVal(a) % c)
	}
	if c == 1 {
		return a, "0"
	}
	k := "div " + a + " " + imm(c)
	if r, ok := g.regMemo[k]; ok {
		return r, g.regMemo["mod "+a+" "+imm(c)]
	}
	q, m := g.b.reg(g.ik()), g.b.reg(g.ik())
	g.b.op("div.%s %s, %s, %d", g.it(), q, a, c)
	g.b.op("mul.lo.%s %s, %s, %d", g.it(), m, q, c)
	g.b.op("sub.%s %s, %s, %s", g.it(), m, a, m)
	g.regMemo[k], g.regMemo["mod "+a+" "+imm(c)] = q, m
	return q, m
}

// coordsOf returns ix's coordinates, unravelling its linear index.
func (g *exprGen) coordsOf(ix *index) []string {
	if ix.coords != nil || len(ix.shape) == 0 {
		return ix.coords
	}
	cs := make([]string, len(ix.shape))
	rest := ix.lin
	for d := len(ix.shape) - 1; d >= 0; d-- {
		n := int64(ix.shape[d])
		if n == 1 {
			cs[d] = "0"
			continue
		}
		if d == firstNonUnit(ix.shape) {
			cs[d] = rest
			break
		}
		rest, cs[d] = g.idivmod(rest, n)
	}
	for d := range cs {
		if cs[d] == "" {
			cs[d] = "0"
		}
	}
	ix.coords = cs
	return cs
}

func firstNonUnit(s trace.Shape) int {
	for d, n := range s {
		if n != 1 {
			return d
		}
	}
	return len(s)
}

// linOf returns ix's row-major linear index.
func (g *exprGen) linOf(ix *index) string {
	if ix.lin != "" {
		return ix.lin
	}
	lin := "0"
	for d, c := range ix.coords {
		lin = g.iadd(g.imul(lin, int64(ix.shape[d])), c)
	}
	ix.lin = lin
	return lin
}

// address is base + lin*size as a 64-bit global address.
func (g *exprGen) address(base, lin string, size int) string {
	b := g.b
	if isImm(lin) {
		off := immVal(lin) * int64(size)
		if off == 0 {
			return base
		}
		r := b.reg(rB64)
		b.op("add.s64 %s, %s, %d", r, base, off)
		return r
	}
	r := b.reg(rB64)
	if g.wide {
		b.op("mad.lo.s64 %s, %s, %d, %s", r, lin, size, base)
	} else {
		b.op("mul.wide.u32 %s, %s, %d", r, lin, size)
		b.op("add.s64 %s, %s, %s", r, r, base)
	}
	return r
}

// scalarIndex is the index of a rank-0 value.
var scalarIndex = &index{shape: trace.Shape{}, lin: "0", coords: []string{}}

// operandIndex is where an elementwise equation needs an operand of shape
// s when its result is needed at ix: the same place, with size-1
// dimensions of the operand broadcast.
func (g *exprGen) operandIndex(s trace.Shape, ix *index) *index {
	if len(s) == 0 {
		return scalarIndex
	}
	if s.Equal(ix.shape) {
		return ix
	}
	cs := slices.Clone(g.coordsOf(ix))
	for d, n := range s {
		if n == 1 {
			cs[d] = "0"
		}
	}
	return &index{shape: s, coords: cs}
}

// value computes a at ix.
func (g *exprGen) value(a trace.Atom, ix *index) (val, error) {
	switch a := a.(type) {
	case *trace.Literal:
		k := fmt.Sprintf("lit%p", a)
		if v, ok := g.memo[k]; ok {
			return v, nil
		}
		v, err := g.b.constant(a.Value(), a.Aval().DType)
		if err != nil {
			return val{}, err
		}
		g.memo[k] = v
		return v, nil
	case *trace.Var:
		if len(a.Aval().Shape) == 0 {
			ix = scalarIndex
		}
		k := fmt.Sprintf("v%p@%s", a, ix.key())
		if v, ok := g.memo[k]; ok {
			return v, nil
		}
		var v val
		if base, ok := g.inPtr[a]; ok {
			dt := a.Aval().DType
			if _, err := ctype(dt); err != nil {
				return val{}, err
			}
			v = g.b.load(dt, g.address(base, g.linOf(ix), dt.Size()))
		} else {
			e := g.eqnOf[a]
			if e == nil {
				return val{}, fmt.Errorf("cuda: value %v is neither computed in the kernel nor read by it", a)
			}
			outs, err := g.eqn(e, ix)
			if err != nil {
				return val{}, err
			}
			v = outs[slices.Index(e.Out, a)]
		}
		g.memo[k] = v
		return v, nil
	}
	return val{}, fmt.Errorf("cuda: unknown atom %T", a)
}

// eqn computes an equation's results at ix (its results' shape).
func (g *exprGen) eqn(e *trace.Eqn, ix *index) ([]val, error) {
	name := e.Prim.Name
	for _, v := range e.Out {
		if _, err := ctype(v.Aval().DType); err != nil {
			return nil, unsupported("%s on %s", name, v.Aval().DType)
		}
	}
	switch jit.FusionClassOf(e.Prim) {
	case jit.FuseIndexMap:
		v, err := g.indexMap(e, ix)
		return []val{v}, err
	case jit.FuseReduce:
		v, err := g.smallReduction(e, ix)
		return []val{v}, err
	case jit.FuseElementwise:
		args := make([]val, len(e.In))
		for i, a := range e.In {
			if _, err := ctype(a.Aval().DType); err != nil {
				return nil, unsupported("%s on %s", name, a.Aval().DType)
			}
			v, err := g.value(a, g.operandIndex(a.Aval().Shape, ix))
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		v, err := g.b.elementwise(e, args)
		if err != nil {
			return nil, err
		}
		return []val{v}, nil
	}
	return nil, unsupported("%s inside a fused kernel", name)
}

// indexMap computes an index-map equation at ix by computing its operand
// at the mapped index.
func (g *exprGen) indexMap(e *trace.Eqn, ix *index) (val, error) {
	x := e.In
	outShape := e.Out[0].Aval().Shape
	switch e.Prim.Name {
	case "copy":
		return g.value(x[0], ix)
	case "reshape", "squeeze":
		// Row-major order is unchanged: the same linear index.
		if dims := e.Params.Ints("dimensions"); e.Prim.Name == "reshape" && len(dims) > 0 {
			return val{}, unsupported("reshape with dimensions")
		}
		return g.value(x[0], &index{shape: x[0].Aval().Shape, lin: g.linOf(ix)})
	case "broadcast_in_dim":
		cs := g.coordsOf(ix)
		s := x[0].Aval().Shape
		oc := make([]string, len(s))
		for i, d := range e.Params.Ints("broadcast_dimensions") {
			oc[i] = cs[d]
			if s[i] == 1 {
				oc[i] = "0"
			}
		}
		return g.value(x[0], &index{shape: s, coords: oc})
	case "transpose":
		cs := g.coordsOf(ix)
		oc := make([]string, len(cs))
		for i, d := range e.Params.Ints("permutation") {
			oc[d] = cs[i]
		}
		return g.value(x[0], &index{shape: x[0].Aval().Shape, coords: oc})
	case "rev":
		oc := slices.Clone(g.coordsOf(ix))
		s := x[0].Aval().Shape
		for _, d := range e.Params.Ints("dimensions") {
			oc[d] = g.isubFrom(int64(s[d]-1), oc[d])
		}
		return g.value(x[0], &index{shape: s, coords: oc})
	case "slice":
		oc := slices.Clone(g.coordsOf(ix))
		steps := e.Params.Ints("strides")
		for d, start := range e.Params.Ints("start_indices") {
			step := int64(1)
			if steps != nil {
				step = int64(steps[d])
			}
			oc[d] = g.iadd(g.imul(oc[d], step), imm(int64(start)))
		}
		return g.value(x[0], &index{shape: x[0].Aval().Shape, coords: oc})
	case "iota":
		dt := e.Params.DType("dtype")
		c := g.coordsOf(ix)[e.Params.Int("dimension")]
		return g.indexValue(c, dt)
	}
	_ = outShape
	return val{}, unsupported("%s inside a fused kernel", e.Prim.Name)
}

// isubFrom returns n - a.
func (g *exprGen) isubFrom(n int64, a string) string {
	if isImm(a) {
		return imm(n - immVal(a))
	}
	r := g.b.reg(g.ik())
	g.b.op("sub.%s %s, %d, %s", g.it(), r, n, a)
	return r
}

// indexValue converts an index (register or immediate) to a value of dt.
func (g *exprGen) indexValue(c string, dt trace.DType) (val, error) {
	b := g.b
	if isImm(c) {
		return b.constant(immVal(c), dt)
	}
	src := g.it()
	ct, err := ctype(dt)
	if err != nil {
		return val{}, err
	}
	r := b.reg(regKindOf(dt))
	switch {
	case ct == "f32" || ct == "f64":
		b.op("cvt.rn.%s.%s %s, %s", ct, src, r, c)
	case ct == src || (ct[1:] == src[1:]):
		b.op("mov.b%s %s, %s", src[1:], r, c)
	default:
		b.op("cvt.%s.%s %s, %s", ct, src, r, c)
	}
	return b.normalize(val{r, dt}), nil
}

// smallReduction computes a reduction at ix of its result by reducing
// over its (at most jit.SmallReduction) reduced positions in turn.
func (g *exprGen) smallReduction(e *trace.Eqn, ix *index) (val, error) {
	x := e.In[0]
	s := x.Aval().Shape
	axes := e.Params.Ints("axes")
	n := 1
	for _, a := range axes {
		n *= s[a]
	}
	if n > 4*jit.SmallReduction {
		return val{}, unsupported("a reduction of %d elements per result inside a loop kernel", n)
	}
	cs := g.coordsOf(ix)
	dt := e.Out[0].Aval().DType
	var acc val
	for k := range n {
		oc := make([]string, len(s))
		rest := k
		for i := len(axes) - 1; i >= 0; i-- {
			oc[axes[i]] = imm(int64(rest % s[axes[i]]))
			rest /= s[axes[i]]
		}
		j := 0
		for d := range oc {
			if oc[d] == "" {
				oc[d] = cs[j]
				j++
			}
		}
		v, err := g.value(x, &index{shape: s, coords: oc})
		if err != nil {
			return val{}, err
		}
		if k == 0 {
			acc = g.b.copyVal(v)
			continue
		}
		if acc, err = g.b.combine(e.Prim.Name, acc, v); err != nil {
			return val{}, err
		}
	}
	if n == 0 {
		return g.b.constant(reductionIdentity(e.Prim.Name, dt), dt)
	}
	_ = dt
	return acc, nil
}

// copyVal copies v into a fresh register (accumulators are updated in
// place).
func (b *builder) copyVal(v val) val {
	r := b.reg(regKindOf(v.dt))
	ct, _ := ctype(v.dt)
	b.op("mov.%s %s, %s", movType(ct), r, v.r)
	return val{r, v.dt}
}

func movType(ct string) string {
	switch ct {
	case "f32", "f64":
		return ct
	case "s64", "u64":
		return "b64"
	}
	return "b32"
}

// loopKernel generates a LoopKernel (or an elementwise or index-map
// OpaqueKernel, seen as a loop of one equation): parameters are the
// addresses of k.In, then of k.Out.
func loopKernel(name string, k *jit.Kernel) (string, error) {
	shape := k.Shape
	if len(k.Out) > 0 && shape == nil {
		shape = k.Out[0].Aval().Shape
	}
	n := shape.Size()
	wide := needsWide(k, n)
	b := newBuilder(name)
	g := newExprGen(b, k.Eqns, wide)
	inParams := make([]string, len(k.In))
	outParams := make([]string, len(k.Out))
	for i := range k.In {
		inParams[i] = b.param()
	}
	for i := range k.Out {
		outParams[i] = b.param()
	}
	b.comment("loop over %s: %d elements", shape, n)
	for i, v := range k.In {
		g.inPtr[v] = b.globalParam(inParams[i])
	}
	outPtr := make([]string, len(k.Out))
	for i := range k.Out {
		outPtr[i] = b.globalParam(outParams[i])
	}
	if n == 0 {
		return b.text(), nil
	}
	it, ik := g.it(), g.ik()
	i, stride := b.reg(ik), b.reg(ik)
	t0, t1 := b.reg(rB32), b.reg(rB32)
	b.op("mov.u32 %s, %%ctaid.x", t0)
	b.op("mov.u32 %s, %%ntid.x", t1)
	if wide {
		t2 := b.reg(rB32)
		b.op("mov.u32 %s, %%tid.x", t2)
		b.op("mul.wide.u32 %s, %s, %s", i, t0, t1)
		b.op("cvt.u64.u32 %s, %s", stride, t2)
		b.op("add.u64 %s, %s, %s", i, i, stride)
		b.op("mov.u32 %s, %%nctaid.x", t2)
		b.op("mul.wide.u32 %s, %s, %s", stride, t2, t1)
	} else {
		t2 := b.reg(rB32)
		b.op("mov.u32 %s, %%tid.x", t2)
		b.op("mad.lo.u32 %s, %s, %s, %s", i, t0, t1, t2)
		b.op("mov.u32 %s, %%nctaid.x", t2)
		b.op("mul.lo.u32 %s, %s, %s", stride, t2, t1)
	}
	p := b.reg(rPred)
	done, loop := b.newLabel(), b.newLabel()
	b.op("setp.ge.%s %s, %s, %d", it, p, i, n)
	b.op("@%s bra %s", p, done)
	b.label(loop)
	at := &index{shape: shape, lin: i}
	for j, v := range k.Out {
		x, err := g.value(v, at)
		if err != nil {
			return "", err
		}
		dt := v.Aval().DType
		b.store(x, g.address(outPtr[j], i, dt.Size()))
	}
	b.op("add.%s %s, %s, %s", it, i, i, stride)
	b.op("setp.lt.%s %s, %s, %d", it, p, i, n)
	b.op("@%s bra %s", p, loop)
	b.label(done)
	return b.text(), nil
}

// needsWide reports whether a kernel's index arithmetic needs 64 bits.
func needsWide(k *jit.Kernel, n int) bool {
	const limit = 1<<31 - 1
	if n > limit {
		return true
	}
	for _, e := range k.Eqns {
		for _, a := range e.In {
			if a.Aval().Size() > limit {
				return true
			}
		}
		for _, v := range e.Out {
			if v.Aval().Size() > limit {
				return true
			}
		}
	}
	return false
}
