package cpu

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Lowering a LoopKernel to native code, first step: the kernel's
// equations become a graph of vector nodes, each one machine operation
// (or a short fixed sequence) on all lanes at once. Every value is needed
// at an index map, as on the block machine (fused_index.go): index-map
// equations move the map towards the inputs, whose loads become
// contiguous, one element broadcast, or gathers at addresses computed by
// integer vector arithmetic on the lanes' indices (native_index_amd64.go).
// A kernel with anything the generator lacks is refused, and runs on the
// block machine.
//
// Every node computes exactly the IEEE operation the portable block op
// computes per element, one rounding per operation, in the same order:
// results are the same bits.

type nodeOp uint8

const (
	nLoad      nodeOp = iota // input at the lane's index
	nBroadcast               // input's only element, every lane
	nConst                   // literal
	nBinary                  // add sub mul div
	nMax                     // XLA's max and min: NaN propagates, ties keep the first
	nMin
	nNeg
	nAbs
	nSqrt
	nCompare // float compare → bool
	nSelect  // select_n(pred, a, b)
	nConvert // float32 ↔ float64
	nBoolOp  // and or xor of bools
	nBoolNot // not of a bool
	nMath    // a float32 transcendental (name), vmath's kernel through float64
)

type vnode struct {
	op    nodeOp
	dt    trace.DType // float32, float64 or bool
	args  []int
	inv   bool   // the same in every lane and iteration
	input int    // nLoad, nBroadcast, nGather
	bits  uint64 // nConst
	sub   byte   // nBinary: opcode; nCompare: predicate; nBoolOp: opcode
	name  string // for the listing of binary ops
	index indexNodeFields
}

type nativeLowering struct {
	// math: the kernel computes a transcendental (native_math_amd64.go),
	// in float64 on eight lanes with scratch registers of its own; flags:
	// one whose code may flag chunks for the block machine to compute
	// again.
	math     bool
	flags    bool
	size     int
	producer map[*trace.Var]*trace.Eqn
	inputs   map[*trace.Var]int
	memo     map[string]int // atom and index map → node
	consts   map[string]int
	nodes    []vnode
	// lanes is the vector width the code will have, which decides which
	// index quantities repeat identically in every vector.
	lanes int
	index nativeIndex
}

// errNotNative reports why a kernel stays on the block machine; it is
// never shown to users.
func errNotNative(format string, args ...any) error {
	return fmt.Errorf("cpu: native code: "+format, args...)
}

// lowerNative lowers k for vectors of 16 lanes, or again for 8 where the
// code needs them (64-bit values, float32 functions computed in float64).
func lowerNative(k *jit.Kernel) (*nativeLowering, []int, error) {
	l, outs, err := lowerNativeLanes(k, 16)
	if err == nil && l.laneCount() != l.lanes {
		return lowerNativeLanes(k, l.laneCount())
	}
	return l, outs, err
}

// laneCount is the lanes of a vector: 16 for float32 alone, 8 when a
// kernel holds 64-bit values or computes float32 sin, cos or exp through
// float64.
func (l *nativeLowering) laneCount() int {
	for _, n := range l.nodes {
		if n.dt.Size() == 8 {
			return 8
		}
	}
	if l.math {
		return 8
	}
	return 16
}

func lowerNativeLanes(k *jit.Kernel, lanes int) (*nativeLowering, []int, error) {
	if k.Kind != jit.LoopKernel {
		return nil, nil, errNotNative("%s kernel", k.Kind)
	}
	l := &nativeLowering{
		size: k.Shape.Size(), producer: map[*trace.Var]*trace.Eqn{}, inputs: map[*trace.Var]int{},
		memo: map[string]int{}, consts: map[string]int{}, lanes: lanes,
	}
	if err := l.index.init(k, lanes); err != nil {
		return nil, nil, err
	}
	for i, v := range k.In {
		l.inputs[v] = i
	}
	for _, e := range k.Eqns {
		for _, v := range e.Out {
			l.producer[v] = e
		}
	}
	outs := make([]int, len(k.Out))
	for j, v := range k.Out {
		if dt := v.Aval().DType; !nativeDType(dt) || dt == trace.Bool {
			return nil, nil, errNotNative("output of dtype %s", dt)
		}
		if v.Aval().Size() != l.size {
			return nil, nil, errNotNative("output %v is not of the loop's size", v)
		}
		n, err := l.valueAt(v, l.index.ix.identityMap(v.Aval().Shape))
		if err != nil {
			return nil, nil, err
		}
		outs[j] = n
	}
	return l, outs, nil
}

func (l *nativeLowering) add(n vnode) int {
	l.nodes = append(l.nodes, n)
	return len(l.nodes) - 1
}

func nativeDType(dt trace.DType) bool {
	switch dt {
	case trace.Float32, trace.Float64, trace.Bool, trace.Int32:
		return true
	case trace.Int64:
		return nativeInt64
	}
	return false
}

func (l *nativeLowering) literal(lit *trace.Literal) (int, error) {
	var bits uint64
	dt := lit.Aval().DType
	f, ok := lit.Value().(float64)
	if !ok {
		if i, isInt := lit.Value().(int64); isInt {
			f, ok = float64(i), true
		}
	}
	switch {
	case !ok:
		return 0, errNotNative("literal %v", lit)
	case dt == trace.Float32:
		bits = uint64(math.Float32bits(float32(f)))
	case dt == trace.Float64:
		bits = math.Float64bits(f)
	case dt == trace.Int32 || dt == trace.Int64:
		i, isInt := lit.Value().(int64)
		if !isInt {
			return 0, errNotNative("literal %v", lit)
		}
		bits = uint64(i)
		if dt == trace.Int32 {
			bits = uint64(uint32(i))
		}
	default:
		return 0, errNotNative("literal of dtype %s", dt)
	}
	return l.constant(dt, bits), nil
}

func (l *nativeLowering) constant(dt trace.DType, bits uint64) int {
	key := fmt.Sprint(dt, bits)
	if n, ok := l.consts[key]; ok {
		return n
	}
	n := l.add(vnode{op: nConst, dt: dt, bits: bits, inv: true})
	l.consts[key] = n
	return n
}

// Binary opcodes of the 0F map, the same for ps and pd.
var binaryOpcodes = map[string]byte{"add": 0x58, "mul": 0x59, "sub": 0x5C, "div": 0x5E}

// Compare predicates (vcmpps imm8) with Go's semantics for NaN: every
// ordered comparison is false, != is true.
var comparePredicates = map[string]byte{"eq": 0x00, "lt": 0x11, "le": 0x12, "ne": 0x04, "ge": 0x1D, "gt": 0x1E}

// Mask instructions of the 0F map (VEX.L1 word forms).
var boolOpcodes = map[string]byte{"and": 0x41, "or": 0x45, "xor": 0x47}

func (l *nativeLowering) elementwise(e *trace.Eqn, dt trace.DType, args []int, inv bool) (int, error) {
	name := e.Prim.Name
	if len(args) == 0 {
		return 0, errNotNative("%s without operands", name)
	}
	argDT := l.nodes[args[0]].dt
	float := argDT == trace.Float32 || argDT == trace.Float64
	same := true
	for _, a := range args {
		same = same && l.nodes[a].dt == argDT
	}
	node := vnode{dt: dt, args: args, inv: inv, name: name}
	switch {
	case binaryOpcodes[name] != 0 && float && same && len(args) == 2:
		node.op, node.sub = nBinary, binaryOpcodes[name]
	case name == "max" && float && same:
		node.op = nMax
	case name == "min" && float && same:
		node.op = nMin
	case name == "neg" && float:
		node.op = nNeg
	case name == "abs" && float:
		node.op = nAbs
	case name == "sqrt" && float:
		node.op = nSqrt
	case name == "square" && float:
		node.op, node.sub, node.args, node.name = nBinary, binaryOpcodes["mul"], []int{args[0], args[0]}, "mul"
	case name == "integer_pow" && float:
		return l.integerPow(args[0], e.Params.Int("y"))
	case comparePredicates[name] != 0 || name == "eq":
		if !float || !same {
			return 0, errNotNative("%s on %s", name, argDT)
		}
		node.op, node.sub = nCompare, comparePredicates[name]
	case name == "select_n":
		if len(args) != 3 || argDT != trace.Bool || l.nodes[args[1]].dt != l.nodes[args[2]].dt || l.nodes[args[1]].dt == trace.Bool {
			return 0, errNotNative("select_n of this form")
		}
		node.op = nSelect
	case boolOpcodes[name] != 0 && argDT == trace.Bool && same:
		node.op, node.sub = nBoolOp, boolOpcodes[name]
	case name == "not" && argDT == trace.Bool:
		node.op = nBoolNot
	case isNativeMath(name, len(args), argDT) && same:
		node.op, l.math, l.flags = nMath, true, l.flags || mathFlags(name, argDT)
	default:
		return 0, errNotNative("%s on %s", name, argDT)
	}
	return l.add(node), nil
}

// integerPow is integerPow's sequence of multiplies (elementwise_arith.go)
// as nodes: acc takes the powers of x for the set bits of |y|, lowest
// first, x squaring after each bit; a negative y takes 1/acc at the end.
func (l *nativeLowering) integerPow(x, y int) (int, error) {
	dt, inv := l.nodes[x].dt, l.nodes[x].inv
	mul := func(a, b int) int {
		return l.add(vnode{op: nBinary, sub: binaryOpcodes["mul"], name: "mul", dt: dt, args: []int{a, b}, inv: inv})
	}
	one := func() int {
		if dt == trace.Float32 {
			return l.constant(dt, uint64(math.Float32bits(1)))
		}
		return l.constant(dt, math.Float64bits(1))
	}
	if y == 0 {
		return one(), nil
	}
	m := uint(y)
	if y < 0 {
		m = uint(-y)
	}
	acc := -1
	for m > 0 {
		if m&1 != 0 {
			if acc >= 0 {
				acc = mul(acc, x)
			} else {
				acc = x
			}
		}
		m >>= 1
		if m > 0 {
			x = mul(x, x)
		}
	}
	if y < 0 {
		o := one()
		acc = l.add(vnode{op: nBinary, sub: binaryOpcodes["div"], name: "div", dt: dt, args: []int{o, acc}, inv: inv && l.nodes[o].inv})
	}
	return acc, nil
}
