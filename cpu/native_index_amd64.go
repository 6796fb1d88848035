package cpu

import (
	"encoding/binary"
	"math"
	"math/bits"

	xcpu "golang.org/x/sys/cpu"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Index maps in native code. A value is needed at an index map over the
// loop's coordinates, exactly as on the block machine, whose compiler
// keeps the walks and works out the maps (fusedCompiler.operandMap,
// reshapeMap): only the arithmetic differs. On the block machine an index
// vector is filled per block by counting; here every coordinate is int32
// lanes computed from the lanes' linear indices p:
//
//	coordinate d of shape s = (p mod M) / S, S = s[d+1]·…, M = S·s[d],
//
// where p mod M is kept per lane across iterations (add the step, subtract
// M where it reached M) and the division is exact once p mod S is
// subtracted (a shift, and a multiply by the inverse of S's odd part).
// Chunks start at multiples of the vector width L, so p mod M is the same
// in every vector when M divides L: such coordinates, and everything
// computed from them alone (the element of a periodic broadcast, say), are
// computed once before the loop.
//
// A load at a map is contiguous (at the lane's own index plus a constant),
// one element for every lane, or a gather at the computed addresses.
// Addresses are int32: kernels over more elements are refused.

// nativeInt64: int64 multiplies and conversions need AVX-512 DQ.
var nativeInt64 = xcpu.X86.HasAVX512DQ

// Node operations of index maps and integers.
const (
	nLinear     nodeOp = 64 + iota // p, each lane's linear index (carried)
	nResidue                       // p mod index.modulus (carried)
	nLaneData                      // a constant vector, lane by lane (index.data)
	nGather                        // input at the lanes' element offsets (args[0])
	nIntOp                         // two-operand integer op (index.op)
	nShift                         // shift by index.imm; index.op says which
	nIntToFloat                    // int32/int64 → float32/float64 (index.op)
	nIntResize                     // int32 ↔ int64
	nIntCompare                    // integer compare → bool; predicate in sub
)

// indexNodeFields are the fields of a vnode for the operations above.
type indexNodeFields struct {
	offset  int    // nLoad, nBroadcast: element offset from the map
	carried bool   // kept in a register across iterations and stepped
	modulus int    // nResidue
	data    []byte // nLaneData
	op      evexOp // nIntOp, nShift, nIntToFloat, nIntResize
	imm     uint8  // nShift
}

type nativeIndex struct {
	// ix keeps the walks (index vectors) and computes maps: the block
	// machine's compiler, whose instruction list must stay empty (a
	// reshape it could only express by division is refused).
	ix      *fusedCompiler
	lanes   int
	linear  int            // node of p, or -1
	residue map[int]int    // modulus → node
	coords  map[int]int    // index vector → node
	forms   map[string]int // linear form → node
	moduli  []int          // of the carried residues, in the order of their arguments
}

// maxNativeIndex bounds the loop and every input: lane indices and
// addresses are int32.
const maxNativeIndex = math.MaxInt32 - 64

func (x *nativeIndex) init(k *jit.Kernel, lanes int) error {
	ix, err := newFusedCompiler(k)
	if err != nil {
		return err
	}
	if k.Shape.Size() > maxNativeIndex {
		return errNotNative("loop of %d elements", k.Shape.Size())
	}
	for _, v := range k.In {
		if v.Aval().Size() > maxNativeIndex {
			return errNotNative("input of %d elements", v.Aval().Size())
		}
	}
	*x = nativeIndex{ix: ix, lanes: lanes, linear: -1, residue: map[int]int{}, coords: map[int]int{}, forms: map[string]int{}}
	return nil
}

// valueAt returns the node computing atom a at index map m.
func (l *nativeLowering) valueAt(a trace.Atom, m ixmap) (int, error) {
	switch a := a.(type) {
	case *trace.Literal:
		return l.literal(a)
	case *trace.Var:
		m = normalize(m, a.Aval().Shape)
		key := atomKey(a) + m.key()
		if n, ok := l.memo[key]; ok {
			return n, nil
		}
		n, err := l.varAt(a, m)
		if err != nil {
			return 0, err
		}
		l.memo[key] = n
		return n, nil
	}
	return 0, errNotNative("atom %T", a)
}

func (l *nativeLowering) varAt(v *trace.Var, m ixmap) (int, error) {
	aval := v.Aval()
	if !nativeDType(aval.DType) {
		return 0, errNotNative("value of dtype %s", aval.DType)
	}
	if i, ok := l.inputs[v]; ok {
		if aval.DType == trace.Bool {
			return 0, errNotNative("bool input")
		}
		return l.load(i, aval, m)
	}
	e := l.producer[v]
	if e == nil {
		return 0, errNotNative("%v is neither an input nor computed inside", v)
	}
	if len(e.Out) != 1 {
		return 0, errNotNative("%s with %d results", e.Prim.Name, len(e.Out))
	}
	switch jit.FusionClassOf(e.Prim) {
	case jit.FuseIndexMap:
		if e.Prim.Name == "iota" {
			return l.iota(e, m)
		}
		before := len(l.index.ix.code)
		om, err := l.index.ix.operandMap(e, m)
		if err != nil {
			return 0, errNotNative("%v", err)
		}
		if len(l.index.ix.code) != before {
			return 0, errNotNative("%s needing division", e.Prim.Name)
		}
		return l.valueAt(e.In[0], om)
	case jit.FuseElementwise:
	default:
		return 0, errNotNative("%s inside a loop kernel", e.Prim.Name)
	}
	args := make([]int, len(e.In))
	inv := true
	order := make([]int, len(e.In))
	for i := range order {
		order[i] = i
	}
	if e.Prim.Name == "select_n" {
		// The predicate last: bools live in the few mask registers, and a
		// chain of selects would otherwise hold every predicate at once.
		order = append(order[1:], 0)
	}
	for _, i := range order {
		a := e.In[i]
		var am ixmap // a rank-0 operand broadcasts
		if a.Aval().Rank() > 0 {
			am = m
		}
		n, err := l.valueAt(a, am)
		if err != nil {
			return 0, err
		}
		args[i] = n
		inv = inv && l.nodes[n].inv
	}
	if e.Prim.Name == "convert_element_type" {
		return l.convert(args[0], aval.DType)
	}
	if l.nodes[args[0]].dt.IsInteger() {
		return l.intElementwise(e, aval.DType, args, inv)
	}
	return l.elementwise(e, aval.DType, args, inv)
}

// load reads input i (of aval) at m.
func (l *nativeLowering) load(i int, aval trace.AVal, m ixmap) (int, error) {
	addr := m.address(aval.Shape)
	switch {
	case addr.isConst():
		return l.add(vnode{op: nBroadcast, dt: aval.DType, input: i, inv: true, index: indexNodeFields{offset: addr.c}}), nil
	case l.index.ix.isLinearIndex(addr) && absInt(addr.c*aval.DType.Size()) < 1<<30:
		return l.add(vnode{op: nLoad, dt: aval.DType, input: i, index: indexNodeFields{offset: addr.c}}), nil
	}
	a, err := l.form(addr)
	if err != nil {
		return 0, err
	}
	return l.add(vnode{op: nGather, dt: aval.DType, input: i, args: []int{a}, inv: l.nodes[a].inv}), nil
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// iota is its coordinate along its dimension, converted to its dtype as
// the block machine converts (exactly, or rounded to nearest for floats).
func (l *nativeLowering) iota(e *trace.Eqn, m ixmap) (int, error) {
	dt := e.Params.DType("dtype")
	if !nativeDType(dt) || dt == trace.Bool {
		return 0, errNotNative("iota of dtype %s", dt)
	}
	n, err := l.form(m[e.Params.Int("dimension")])
	if err != nil {
		return 0, err
	}
	return l.convert(n, dt)
}

// form returns the int32 node computing linear form f.
func (l *nativeLowering) form(f linForm) (int, error) {
	key := f.String()
	if n, ok := l.index.forms[key]; ok {
		return n, nil
	}
	acc := -1
	for _, t := range f.terms {
		x, err := l.coordinate(t.vec)
		if err != nil {
			return 0, err
		}
		x = l.scaleInt(x, t.a)
		if acc < 0 {
			acc = x
		} else {
			acc = l.intOp(intAdd, acc, x)
		}
	}
	switch {
	case acc < 0:
		acc = l.constant(trace.Int32, uint64(uint32(int32(f.c))))
	case f.c != 0:
		acc = l.intOp(intAdd, acc, l.constant(trace.Int32, uint64(uint32(int32(f.c)))))
	}
	l.index.forms[key] = acc
	return acc, nil
}

// coordinate returns the node of an index vector: a coordinate of one of
// the walks (the loop's linear index seen in some shape).
func (l *nativeLowering) coordinate(vec int) (int, error) {
	if n, ok := l.index.coords[vec]; ok {
		return n, nil
	}
	w := l.index.ix.vecWalk[vec]
	if w == nil {
		return 0, errNotNative("index vector %d is not a walk's", vec)
	}
	d := 0
	for w.vecs[d] != vec {
		d++
	}
	stride := 1
	for _, s := range w.shape[d+1:] {
		stride *= s
	}
	n := l.residueNode(stride * w.shape[d])
	switch {
	case stride == 1:
	case stride&(stride-1) == 0:
		n = l.shift(shiftRight, n, uint8(bits.TrailingZeros(uint(stride))))
	default:
		// (p mod M - p mod S) is a multiple of S: divide exactly.
		n = l.intOp(intSub, n, l.residueNode(stride))
		tz := bits.TrailingZeros(uint(stride))
		if tz > 0 {
			n = l.shift(shiftRight, n, uint8(tz))
		}
		n = l.intOp(intMul, n, l.constant(trace.Int32, uint64(oddInverse(uint32(stride>>tz)))))
	}
	l.index.coords[vec] = n
	return n, nil
}

// oddInverse is the inverse of odd x modulo 2^32 (Newton's iteration).
func oddInverse(x uint32) uint32 {
	y := x // correct to 3 bits
	for range 5 {
		y *= 2 - x*y
	}
	return y
}

// residueNode is p mod modulus per lane.
func (l *nativeLowering) residueNode(modulus int) int {
	x := &l.index
	if n, ok := x.residue[modulus]; ok {
		return n
	}
	var n int
	switch {
	case x.lanes%modulus == 0:
		lanes := make([]int32, x.lanes)
		for i := range lanes {
			lanes[i] = int32(i % modulus)
		}
		n = l.laneData(lanes)
	case modulus >= l.size:
		if x.linear < 0 {
			x.linear = l.add(vnode{op: nLinear, dt: trace.Int32, index: indexNodeFields{carried: true}})
		}
		n = x.linear
	default:
		n = l.add(vnode{op: nResidue, dt: trace.Int32, index: indexNodeFields{carried: true, modulus: modulus}})
		x.moduli = append(x.moduli, modulus)
	}
	x.residue[modulus] = n
	return n
}

func (l *nativeLowering) laneData(lanes []int32) int {
	var b []byte
	for _, v := range lanes {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return l.add(vnode{op: nLaneData, dt: trace.Int32, inv: true, index: indexNodeFields{data: b}})
}

// Integer operations (EVEX 66.0F or 66.0F38 forms; W selects the qword
// form).
var (
	intAdd = evexOp{pp: 1, mm: 1, code: 0xFE, name: "vpaddd"}
	intSub = evexOp{pp: 1, mm: 1, code: 0xFA, name: "vpsubd"}
	intMul = evexOp{pp: 1, mm: 2, code: 0x40, name: "vpmulld"}
	intMax = evexOp{pp: 1, mm: 2, code: 0x3D, name: "vpmaxsd"}
	intMin = evexOp{pp: 1, mm: 2, code: 0x39, name: "vpminsd"}
	intAnd = evexOp{pp: 1, mm: 1, code: 0xDB, name: "vpandd"}
	intOr  = evexOp{pp: 1, mm: 1, code: 0xEB, name: "vpord"}
	intXor = evexOp{pp: 1, mm: 1, code: 0xEF, name: "vpxord"}

	shiftRight = evexOp{pp: 1, mm: 1, code: 0x72, name: "vpsrld"} // /2
	shiftLeft  = evexOp{pp: 1, mm: 1, code: 0x72, name: "vpslld"} // /6
)

// qword is op's 64-bit-lane form (add and subtract have opcodes of their
// own).
func qword(op evexOp) evexOp {
	op.w = 1
	op.name = op.name[:len(op.name)-1] + "q"
	switch op.code {
	case 0xFE:
		op.code, op.w = 0xD4, 1
	case 0xFA:
		op.code, op.w = 0xFB, 1
	}
	return op
}

func (l *nativeLowering) intOp(op evexOp, x, y int) int {
	dt := l.nodes[x].dt
	if dt.Size() == 8 {
		op = qword(op)
	}
	return l.add(vnode{op: nIntOp, dt: dt, args: []int{x, y}, inv: l.nodes[x].inv && l.nodes[y].inv, index: indexNodeFields{op: op}})
}

func (l *nativeLowering) shift(op evexOp, x int, by uint8) int {
	return l.add(vnode{op: nShift, dt: l.nodes[x].dt, args: []int{x}, inv: l.nodes[x].inv, index: indexNodeFields{op: op, imm: by}})
}

// scaleInt returns a·x.
func (l *nativeLowering) scaleInt(x, a int) int {
	switch {
	case a == 1:
		return x
	case a > 0 && a&(a-1) == 0:
		return l.shift(shiftLeft, x, uint8(bits.TrailingZeros(uint(a))))
	}
	return l.intOp(intMul, x, l.constant(trace.Int32, uint64(uint32(int32(a)))))
}

// Integer compare predicates (vpcmpd imm8).
var intPredicates = map[string]byte{"eq": 0, "lt": 1, "le": 2, "ne": 4, "ge": 5, "gt": 6}

// intElementwise lowers an elementwise op on int32 or int64 operands with
// Go's semantics, which the block machine has: arithmetic wraps.
func (l *nativeLowering) intElementwise(e *trace.Eqn, dt trace.DType, args []int, inv bool) (int, error) {
	name := e.Prim.Name
	argDT := l.nodes[args[0]].dt
	for _, a := range args {
		if l.nodes[a].dt != argDT {
			return 0, errNotNative("%s of mixed dtypes", name)
		}
	}
	binary := map[string]evexOp{"add": intAdd, "sub": intSub, "mul": intMul, "max": intMax, "min": intMin,
		"and": intAnd, "or": intOr, "xor": intXor}
	if op, ok := binary[name]; ok && len(args) == 2 {
		return l.intOp(op, args[0], args[1]), nil
	}
	switch name {
	case "neg":
		return l.intOp(intSub, l.constant(argDT, 0), args[0]), nil
	case "not":
		return l.intOp(intXor, args[0], l.constant(argDT, allBits(argDT))), nil
	case "square":
		return l.intOp(intMul, args[0], args[0]), nil
	}
	if p, ok := intPredicates[name]; ok && len(args) == 2 {
		return l.add(vnode{op: nIntCompare, dt: trace.Bool, args: args, inv: inv, sub: p}), nil
	}
	return 0, errNotNative("%s on %s", name, argDT)
}

// convert converts node x to dt as convert_element_type does.
func (l *nativeLowering) convert(x int, to trace.DType) (int, error) {
	from, inv := l.nodes[x].dt, l.nodes[x].inv
	node := vnode{dt: to, args: []int{x}, inv: inv}
	switch {
	case from == to:
		return x, nil
	case from.IsFloat() && to.IsFloat():
		node.op = nConvert
	case from == trace.Int32 && to == trace.Float32:
		node.op, node.index.op = nIntToFloat, evexOp{pp: 0, mm: 1, code: 0x5B, name: "vcvtdq2ps"}
	case from == trace.Int32 && to == trace.Float64:
		node.op, node.index.op = nIntToFloat, evexOp{pp: 2, mm: 1, code: 0xE6, name: "vcvtdq2pd"}
	case from == trace.Int64 && to == trace.Float32:
		node.op, node.index.op = nIntToFloat, evexOp{pp: 0, mm: 1, w: 1, code: 0x5B, name: "vcvtqq2ps"}
	case from == trace.Int64 && to == trace.Float64:
		node.op, node.index.op = nIntToFloat, evexOp{pp: 2, mm: 1, w: 1, code: 0xE6, name: "vcvtqq2pd"}
	case from == trace.Int32 && to == trace.Int64:
		node.op, node.index.op = nIntResize, evexOp{pp: 1, mm: 2, code: 0x25, name: "vpmovsxdq"}
	case from == trace.Int64 && to == trace.Int32:
		node.op = nIntResize // vpmovqd: integer narrowing wraps
	default:
		return 0, errNotNative("convert from %s to %s", from, to)
	}
	return l.add(node), nil
}
