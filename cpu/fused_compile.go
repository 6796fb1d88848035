package cpu

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The fused-kernel compiler. It works from the values a kernel must
// produce back to its inputs: value(a, m, layout) returns the slot holding
// atom a at index map m in a layout, emitting what computes it the first
// time and reusing the slot afterwards (an equation needed by several
// consumers at the same indices is computed once per block; at other
// indices it is recomputed, which is what the fusion contract expects).
//
// Layouts: a value of dtype dt lives in dt's own layout, except float16 and
// bfloat16, which live widened to float32 wherever an op computes in
// float32 (the block ops' k.in and k.out say which) and are rounded to
// their dtype after every op, so fused results equal eager ones bit for
// bit. Where an op or an output wants the 16-bit layout, a convert
// instruction moves the value exactly.

type fusedCompiler struct {
	shape    []int // the loop shape
	size     int
	producer map[*trace.Var]*trace.Eqn
	inputs   map[*trace.Var]int

	slots    []slotInfo
	inv      []bool // per slot: the same at every position of the loop
	isConst  []bool // per slot: filled once per state
	code     []emitted
	consts   []constFill
	memo     map[string]int // atom, map and layout → slot
	natural  map[string]int // atom and map → slot in the layout its producer gave
	walks    map[string]*walkDef
	vecWalk  map[int]*walkDef // index vector → the walk it belongs to
	walkDone map[*walkDef]bool
	nIndex   int
	maxArgs  int
}

type emitted struct {
	instr     fusedInstr
	reads     []int
	writes    []int
	invariant bool
}

func newFusedCompiler(k *jit.Kernel) (*fusedCompiler, error) {
	c := &fusedCompiler{
		shape: k.Shape, size: k.Shape.Size(),
		producer: map[*trace.Var]*trace.Eqn{}, inputs: map[*trace.Var]int{},
		memo: map[string]int{}, natural: map[string]int{},
		walks: map[string]*walkDef{}, vecWalk: map[int]*walkDef{}, walkDone: map[*walkDef]bool{},
		maxArgs: 1,
	}
	for i, v := range k.In {
		c.inputs[v] = i
	}
	for _, e := range k.Eqns {
		for _, v := range e.Out {
			c.producer[v] = e
		}
		for _, a := range e.In {
			if err := checkIndexable(a.Aval().Shape); err != nil {
				return nil, err
			}
		}
	}
	return c, checkIndexable(k.Shape)
}

// checkIndexable refuses dimensions that index vectors (int32) cannot hold.
func checkIndexable(shape []int) error {
	for _, n := range shape {
		if n > math.MaxInt32 {
			return fmt.Errorf("cpu: dimension %d too large for a fused kernel", n)
		}
	}
	return nil
}

func preferredLayout(dt trace.DType) trace.DType {
	if isHalf(dt) {
		return trace.Float32
	}
	return dt
}

func (c *fusedCompiler) newSlot(layout trace.DType, invariant bool) int {
	c.slots = append(c.slots, slotInfo{layout: layout, size: layout.Size()})
	c.inv = append(c.inv, invariant)
	c.isConst = append(c.isConst, false)
	return len(c.slots) - 1
}

func (c *fusedCompiler) emit(ins fusedInstr, reads, writes []int, invariant bool) {
	c.code = append(c.code, emitted{instr: ins, reads: reads, writes: writes, invariant: invariant})
}

// constSlot is a slot holding elem at every position.
func (c *fusedCompiler) constSlot(layout trace.DType, elem []byte) int {
	key := "const:" + layout.Name() + ":" + string(elem)
	if s, ok := c.memo[key]; ok {
		return s
	}
	s := c.newSlot(layout, true)
	c.isConst[s] = true
	c.consts = append(c.consts, constFill{slot: s, elem: elem})
	c.memo[key] = s
	return s
}

// walkFor returns the walk of the loop's linear indices in shape (squeezed,
// not empty), defining its index vectors on first use.
func (c *fusedCompiler) walkFor(shape []int) *walkDef {
	key := fmt.Sprint(shape)
	if w, ok := c.walks[key]; ok {
		return w
	}
	w := &walkDef{shape: shape}
	for range shape {
		w.vecs = append(w.vecs, c.newIndex())
		c.vecWalk[w.vecs[len(w.vecs)-1]] = w
	}
	c.walks[key] = w
	return w
}

func (c *fusedCompiler) newIndex() int {
	c.nIndex++
	return c.nIndex - 1
}

// identityMap is the index map of a value of shape (of the loop's size) at
// its own linear index: the block's positions in its row-major order.
func (c *fusedCompiler) identityMap(shape []int) ixmap {
	m := make(ixmap, len(shape))
	sq := squeezedShape(shape)
	if len(sq) == 0 {
		return m
	}
	w, j := c.walkFor(sq), 0
	for d, n := range shape {
		if n != 1 {
			m[d] = vecForm(w.vecs[j])
			j++
		}
	}
	return m
}

// isIdentityMap reports whether m is identityMap(shape), without defining
// a walk that does not exist yet (then it cannot be).
func (c *fusedCompiler) isIdentityMap(m ixmap, shape []int) bool {
	sq := squeezedShape(shape)
	if len(sq) > 0 && c.walks[fmt.Sprint(sq)] == nil {
		return false
	}
	return m.key() == c.identityMap(shape).key()
}

// needForms emits the walks whose index vectors the forms read, before the
// instruction that reads them.
func (c *fusedCompiler) needForms(forms ...linForm) {
	for _, f := range forms {
		for _, t := range f.terms {
			if w := c.vecWalk[t.vec]; w != nil && !c.walkDone[w] {
				c.walkDone[w] = true
				c.emit(&walkInstr{*w}, nil, nil, false)
			}
		}
	}
}

// isLinearIndex reports whether addr is the block's linear index plus a
// constant: the terms are exactly one walk's coordinates times its strides.
func (c *fusedCompiler) isLinearIndex(addr linForm) bool {
	if len(addr.terms) == 0 {
		return false
	}
	w := c.vecWalk[addr.terms[0].vec]
	if w == nil || len(addr.terms) != len(w.vecs) {
		return false
	}
	strides := rowMajorStrides(w.shape)
	for i, t := range addr.terms {
		// Terms are sorted by vector, and a walk's vectors were numbered
		// in dimension order.
		if t.vec != w.vecs[i] || t.a != strides[i] {
			return false
		}
	}
	return true
}

func atomKey(a trace.Atom) string {
	switch a := a.(type) {
	case *trace.Var:
		return "v" + strconv.FormatInt(a.ID(), 10)
	case *trace.Literal:
		return "l" + a.String()
	}
	return "?"
}

// normalize sets the coordinates of size-1 dimensions to 0.
func normalize(m ixmap, shape []int) ixmap {
	for d, n := range shape {
		if n == 1 && !(m[d].isConst() && m[d].c == 0) {
			m = slices.Clone(m)
			m[d] = constForm(0)
		}
	}
	return m
}

// maxFusedCode bounds a fused kernel's instruction list. Recomputing
// values at several index maps multiplies instructions (a small reduction
// of a small reduction of a concatenate...); a kernel past the bound runs
// its equations one by one instead.
const maxFusedCode = 1 << 13

// value returns the slot holding a at m in layout.
func (c *fusedCompiler) value(a trace.Atom, m ixmap, layout trace.DType) (int, error) {
	if len(c.code) > maxFusedCode {
		return 0, fmt.Errorf("cpu: fused kernel needs more than %d instructions", maxFusedCode)
	}
	m = normalize(m, a.Aval().Shape)
	key := atomKey(a) + m.key() + "@" + layout.Name()
	if s, ok := c.memo[key]; ok {
		return s, nil
	}
	src, err := c.naturalValue(a, m)
	if err != nil {
		return 0, err
	}
	s := src
	if have := c.slots[src].layout; have != layout {
		dt := a.Aval().DType
		if !isHalf(dt) || (have != trace.Float32 && have != dt) || (layout != trace.Float32 && layout != dt) {
			return 0, fmt.Errorf("cpu: fused kernel cannot hold %s in layout %s", dt, layout)
		}
		s = c.newSlot(layout, c.inv[src])
		c.emit(&convertInstr{src: src, dst: s, dt: dt, widen: layout == trace.Float32}, []int{src}, []int{s}, c.inv[src])
	}
	c.memo[key] = s
	return s, nil
}

// naturalValue returns the slot holding a at m in whatever layout its
// producer gives.
func (c *fusedCompiler) naturalValue(a trace.Atom, m ixmap) (int, error) {
	m = normalize(m, a.Aval().Shape)
	key := atomKey(a) + m.key()
	if s, ok := c.natural[key]; ok {
		return s, nil
	}
	s, err := c.produce(a, m)
	if err != nil {
		return 0, err
	}
	c.natural[key] = s
	return s, nil
}

func (c *fusedCompiler) produce(a trace.Atom, m ixmap) (int, error) {
	switch a := a.(type) {
	case *trace.Literal:
		return c.literal(a)
	case *trace.Var:
		if i, ok := c.inputs[a]; ok {
			return c.load(i, a.Aval(), m), nil
		}
		e := c.producer[a]
		if e == nil {
			return 0, fmt.Errorf("cpu: fused kernel reads %v, which is neither an input nor computed inside", a)
		}
		switch jit.FusionClassOf(e.Prim) {
		case jit.FuseElementwise:
			return c.elementwise(e, slices.Index(e.Out, a), m)
		case jit.FuseIndexMap:
			return c.indexMap(e, m)
		case jit.FuseReduce:
			return c.smallReduce(e, m)
		}
		return 0, fmt.Errorf("cpu: %s cannot run inside a fused kernel", e.Prim.Name)
	}
	return 0, fmt.Errorf("cpu: unknown atom %T", a)
}

func (c *fusedCompiler) literal(l *trace.Literal) (int, error) {
	b, err := literalBuffer(nil, l)
	if err != nil {
		return 0, err
	}
	dt := l.Aval().DType
	if isHalf(dt) {
		f := []float32{0}
		widenRun(f, view[uint16](b), dt)
		return c.constSlot(trace.Float32, bytesOf(f)), nil
	}
	return c.constSlot(dt, b.data), nil
}

func (c *fusedCompiler) load(input int, aval trace.AVal, m ixmap) int {
	addr := m.address(aval.Shape)
	ld := &loadInstr{input: input, size: aval.DType.Size(), addr: addr, mode: loadGather}
	switch {
	case addr.isConst():
		ld.mode = loadSpread
	case c.isLinearIndex(addr):
		ld.mode = loadView
	default:
		c.needForms(addr)
	}
	ld.dst = c.newSlot(aval.DType, ld.mode == loadSpread)
	if ld.mode == loadView {
		c.slots[ld.dst].kind = slotView
	}
	c.emit(ld, nil, []int{ld.dst}, ld.mode == loadSpread)
	return ld.dst
}

func (c *fusedCompiler) elementwise(e *trace.Eqn, result int, m ixmap) (int, error) {
	dts := make([]trace.DType, len(e.In))
	for i, a := range e.In {
		dts[i] = a.Aval().DType
	}
	k, err := elementwiseBlock(e.Prim.Name, e.Params, dts)
	if err != nil {
		return 0, err
	}
	ins := &opInstr{k: k, round: make([]trace.DType, len(e.Out))}
	invariant := true
	for i, a := range e.In {
		var am ixmap // a rank-0 operand broadcasts
		if a.Aval().Rank() > 0 {
			am = m
		}
		s, err := c.value(a, am, k.in[i])
		if err != nil {
			return 0, err
		}
		ins.in = append(ins.in, s)
		invariant = invariant && c.inv[s]
	}
	for j, v := range e.Out {
		s := c.newSlot(k.out[j], invariant)
		ins.out = append(ins.out, s)
		if dt := v.Aval().DType; isHalf(dt) && k.out[j] == trace.Float32 {
			ins.round[j] = dt
		}
		if j != result {
			c.natural[atomKey(v)+normalize(m, v.Aval().Shape).key()] = s
		}
	}
	c.maxArgs = max(c.maxArgs, len(ins.in), len(ins.out))
	c.emit(ins, ins.in, ins.out, invariant)
	return ins.out[result], nil
}

// indexMap realises an index-map equation at m: it works out where its
// operand is needed and returns the operand's slot there; only pad and
// concatenate, which choose between operands, and iota, which computes,
// emit instructions of their own.
func (c *fusedCompiler) indexMap(e *trace.Eqn, m ixmap) (int, error) {
	switch e.Prim.Name {
	case "iota":
		return c.iota(e, m)
	case "pad":
		return c.pad(e, m)
	case "concatenate":
		return c.concatenate(e, m)
	}
	om, err := c.operandMap(e, m)
	if err != nil {
		return 0, err
	}
	return c.naturalValue(e.In[0], om)
}

// operandMap is where the operand of an index-map equation that only
// moves elements (copy, broadcast, squeeze, transpose, rev, slice,
// reshape) is needed when its result is needed at m. Native code
// (native_index_amd64.go) follows the same maps.
func (c *fusedCompiler) operandMap(e *trace.Eqn, m ixmap) (ixmap, error) {
	x := e.In
	switch e.Prim.Name {
	case "copy":
		return m, nil
	case "broadcast_in_dim":
		om := make(ixmap, x[0].Aval().Rank())
		for i, d := range e.Params.Ints("broadcast_dimensions") {
			om[i] = m[d]
		}
		return om, nil
	case "squeeze":
		dims := e.Params.Ints("dimensions")
		om, j := make(ixmap, x[0].Aval().Rank()), 0
		for d := range om {
			if !slices.Contains(dims, d) {
				om[d] = m[j]
				j++
			}
		}
		return om, nil
	case "transpose":
		om := make(ixmap, len(m))
		for i, d := range e.Params.Ints("permutation") {
			om[d] = m[i]
		}
		return om, nil
	case "rev":
		om, shape := slices.Clone(m), x[0].Aval().Shape
		for _, d := range e.Params.Ints("dimensions") {
			om[d] = m[d].scaled(-1, shape[d]-1)
		}
		return om, nil
	case "slice":
		om, steps := slices.Clone(m), e.Params.Ints("strides")
		for d, start := range e.Params.Ints("start_indices") {
			step := 1
			if steps != nil {
				step = steps[d]
			}
			om[d] = m[d].scaled(step, start)
		}
		return om, nil
	case "reshape":
		return c.reshapeMap(m, e.Out[0].Aval().Shape, x[0].Aval().Shape)
	}
	return nil, fmt.Errorf("cpu: no fused form of index map %s", e.Prim.Name)
}

// reshapeMap maps coordinates of a reshape's result (shape to) to its
// operand (shape from). Both are seen without their size-1 dimensions and
// cut into groups of dimensions with equal products; a group whose operand
// side is one dimension gets a linear coordinate, other groups are split by
// division. A result taken at its own linear index needs neither: the
// operand is then taken at its own linear index too.
func (c *fusedCompiler) reshapeMap(m ixmap, to, from []int) (ixmap, error) {
	if c.isIdentityMap(m, to) {
		return c.identityMap(from), nil
	}
	var rm []linForm // coordinates of to's non-unit dimensions
	for d, n := range to {
		if n != 1 {
			rm = append(rm, m[d])
		}
	}
	a, b := squeezedShape(to), squeezedShape(from)
	oc := make([]linForm, 0, len(b)) // coordinates of from's non-unit dimensions
	for i, j := 0, 0; i < len(a) || j < len(b); {
		if i == len(a) || j == len(b) {
			return nil, fmt.Errorf("cpu: reshape of %v into %v", from, to)
		}
		i0, j0, pa, pb := i, j, a[i], b[j]
		for pa != pb {
			if pa < pb {
				i++
				pa *= a[i]
			} else {
				j++
				pb *= b[j]
			}
		}
		i, j = i+1, j+1
		var lin linForm // the group's linear index
		for k := i0; k < i; k++ {
			lin = lin.scaled(a[k], 0).plus(1, rm[k])
		}
		if j-j0 == 1 {
			oc = append(oc, lin)
			continue
		}
		d := &delinearizeInstr{form: lin, shape: b[j0:j]}
		for range d.shape {
			d.vecs = append(d.vecs, c.newIndex())
			oc = append(oc, vecForm(d.vecs[len(d.vecs)-1]))
		}
		c.needForms(lin)
		c.emit(d, nil, nil, false)
	}
	om, k := make(ixmap, len(from)), 0
	for d, n := range from {
		if n != 1 {
			om[d] = oc[k]
			k++
		}
	}
	return om, nil
}

func (c *fusedCompiler) iota(e *trace.Eqn, m ixmap) (int, error) {
	dt := e.Params.DType("dtype")
	layout := preferredLayout(dt)
	coord := m[e.Params.Int("dimension")]
	if coord.isConst() {
		elem := alignedBytes(layout.Size())
		iotaValues(elem, []int{coord.c}, dt)
		return c.constSlot(layout, elem), nil
	}
	c.needForms(coord)
	s := c.newSlot(layout, false)
	c.emit(&iotaInstr{dt: dt, coord: coord, dst: s}, nil, []int{s}, false)
	return s, nil
}

// pad: where a padded dimension's coordinate is known, the operand element
// or the padding value is chosen now; otherwise both are computed (the
// operand at coordinates clamped into it) and a mask picks per position.
func (c *fusedCompiler) pad(e *trace.Eqn, m ixmap) (int, error) {
	x, padValue := e.In[0], e.In[1]
	shape := x.Aval().Shape
	if shape.Size() == 0 {
		return c.naturalValue(padValue, nil)
	}
	config, _ := trace.ParamAs[trace.PaddingConfig](e.Params, "padding_config")
	om := slices.Clone(m)
	ins := &padIndexInstr{}
	for d, pd := range config {
		step := pd.Interior + 1
		switch {
		case pd == (trace.PadDim{}):
		case m[d].isConst():
			t := m[d].c - pd.Lo
			if t < 0 || t%step != 0 || t/step >= shape[d] {
				return c.naturalValue(padValue, nil)
			}
			om[d] = constForm(t / step)
		default:
			vec := c.newIndex()
			ins.dims = append(ins.dims, padDimIndex{form: m[d], lo: pd.Lo, step: step, limit: shape[d], vec: vec})
			om[d] = vecForm(vec)
			c.needForms(m[d])
		}
	}
	if len(ins.dims) == 0 {
		return c.naturalValue(x, om)
	}
	ins.mask = c.newSlot(trace.Bool, false)
	c.emit(ins, nil, []int{ins.mask}, false)
	layout := preferredLayout(x.Aval().DType)
	fill, err := c.value(padValue, nil, layout)
	if err != nil {
		return 0, err
	}
	inner, err := c.value(x, om, layout)
	if err != nil {
		return 0, err
	}
	return c.selectSlot(ins.mask, false, []int{fill, inner}, layout), nil
}

func (c *fusedCompiler) selectSlot(which int, wide bool, cases []int, layout trace.DType) int {
	s := c.newSlot(layout, false)
	c.maxArgs = max(c.maxArgs, len(cases))
	c.emit(&selectInstr{which: which, wide: wide, cases: cases, dst: s, size: layout.Size()},
		append([]int{which}, cases...), []int{s}, false)
	return s
}

func (c *fusedCompiler) concatenate(e *trace.Eqn, m ixmap) (int, error) {
	dim := e.Params.Int("dimension")
	ins := &concatIndexInstr{form: m[dim]}
	var nonEmpty []int
	at := 0
	for p, a := range e.In {
		n := a.Aval().Shape[dim]
		ins.starts, ins.sizes = append(ins.starts, at), append(ins.sizes, n)
		if n > 0 {
			nonEmpty = append(nonEmpty, p)
		}
		at += n
	}
	if len(nonEmpty) == 0 {
		return 0, fmt.Errorf("cpu: concatenate of empty operands needed at %s", m.key())
	}
	at = m[dim].c
	if m[dim].isConst() || len(nonEmpty) == 1 {
		p := nonEmpty[0]
		for _, q := range nonEmpty {
			if m[dim].isConst() && ins.starts[q] <= at {
				p = q
			}
		}
		om := slices.Clone(m)
		om[dim] = m[dim].scaled(1, -ins.starts[p])
		return c.naturalValue(e.In[p], om)
	}
	c.needForms(m[dim])
	ins.which = c.newSlot(trace.Int32, false)
	ins.vecs = make([]int, len(e.In))
	for p := range ins.vecs {
		ins.vecs[p] = -1
		if ins.sizes[p] > 0 {
			ins.vecs[p] = c.newIndex()
		}
	}
	c.emit(ins, nil, []int{ins.which}, false)
	layout := preferredLayout(e.Out[0].Aval().DType)
	cases := make([]int, len(e.In))
	for p, a := range e.In {
		if ins.vecs[p] < 0 {
			continue
		}
		om := slices.Clone(m)
		om[dim] = vecForm(ins.vecs[p])
		s, err := c.value(a, om, layout)
		if err != nil {
			return 0, err
		}
		cases[p] = s
	}
	for p := range cases {
		if ins.vecs[p] < 0 { // never chosen: any slot will do
			cases[p] = cases[nonEmpty[0]]
		}
	}
	return c.selectSlot(ins.which, true, cases, layout), nil
}
