package trace

import (
	"fmt"
	"strings"
)

// A Type is a dtype together with JAX's weak-type flag. A weakly typed value
// (a Python/Starlark scalar, or a result computed only from such scalars)
// takes its width from the strongly typed values it meets: f32_array * 2.0
// stays float32.
type Type struct {
	DType DType
	Weak  bool
}

// The types of untyped scalars: Starlark ints, floats and complex numbers.
// Their dtypes are the 32-bit defaults of SPEC §3.
var (
	WeakInt     = Type{Int32, true}
	WeakFloat   = Type{Float32, true}
	WeakComplex = Type{Complex64, true}
)

func (t Type) String() string {
	if t.Weak {
		return "weak " + t.DType.Name()
	}
	return t.DType.Name()
}

// A lattice node is a dtype, or one of the three weak categories (JAX's i*,
// f*, c*), which stand for "an integer/float/complex of whatever width the
// other operands have".
type latticeNode uint8

const (
	weakIntNode latticeNode = latticeNode(numDTypes) + iota
	weakFloatNode
	weakComplexNode
	numLatticeNodes
)

// promotionLattice is JAX's type promotion lattice with 64-bit types enabled
// (jax/_src/dtypes.py, _type_promotion_lattice(strict=False, x64=True)),
// restricted to jaxsh's dtypes: each node lists the nodes immediately above
// it. JAX's uint64 sits between uint32 and f*; without it uint32 leads to
// int64 only, which changes no join of the remaining types.
var promotionLattice = [numLatticeNodes][]latticeNode{
	latticeNode(Bool):       {weakIntNode},
	weakIntNode:             {latticeNode(Uint8), latticeNode(Int8)},
	latticeNode(Uint8):      {latticeNode(Int16), latticeNode(Uint16)},
	latticeNode(Uint16):     {latticeNode(Int32), latticeNode(Uint32)},
	latticeNode(Uint32):     {latticeNode(Int64)},
	latticeNode(Int8):       {latticeNode(Int16)},
	latticeNode(Int16):      {latticeNode(Int32)},
	latticeNode(Int32):      {latticeNode(Int64)},
	latticeNode(Int64):      {weakFloatNode},
	weakFloatNode:           {latticeNode(BFloat16), latticeNode(Float16), weakComplexNode},
	latticeNode(BFloat16):   {latticeNode(Float32)},
	latticeNode(Float16):    {latticeNode(Float32)},
	latticeNode(Float32):    {latticeNode(Float64), latticeNode(Complex64)},
	latticeNode(Float64):    {latticeNode(Complex128)},
	weakComplexNode:         {latticeNode(Complex64)},
	latticeNode(Complex64):  {latticeNode(Complex128)},
	latticeNode(Complex128): {},
}

type nodeSet uint32

// upperBounds[n] is every node reachable upwards from n, n included.
var upperBounds = func() (ub [numLatticeNodes]nodeSet) {
	for n := range ub {
		ub[n] = 1 << n
	}
	for changed := true; changed; {
		changed = false
		for n, ups := range promotionLattice {
			for _, up := range ups {
				if grown := ub[n] | ub[up]; grown != ub[n] {
					ub[n], changed = grown, true
				}
			}
		}
	}
	return ub
}()

// join is the least upper bound of nodes: the common upper bound that every
// other common upper bound lies above.
func join(nodes []latticeNode) (latticeNode, bool) {
	common := ^nodeSet(0)
	for _, n := range nodes {
		common &= upperBounds[n]
	}
	for c := latticeNode(0); c < numLatticeNodes; c++ {
		if common&(1<<c) != 0 && common&upperBounds[c] == common {
			return c, true
		}
	}
	return 0, false
}

// node places a type on the lattice: a weak value counts only by its kind.
func (t Type) node() latticeNode {
	if t.Weak {
		switch {
		case t.DType.IsInteger():
			return weakIntNode
		case t.DType.IsFloat():
			return weakFloatNode
		case t.DType.IsComplex():
			return weakComplexNode
		}
	}
	return latticeNode(t.DType)
}

// typeOfNode turns a join back into a type; weak categories take the 32-bit
// defaults (int32, float32, complex64).
func typeOfNode(n latticeNode) Type {
	switch n {
	case weakIntNode:
		return WeakInt
	case weakFloatNode:
		return WeakFloat
	case weakComplexNode:
		return WeakComplex
	}
	return Type{DType: DType(n)}
}

// canonical gives a weak type its kind's default width, as jnp.result_type
// does: a weak result is always int32, float32 or complex64. Bool is never weak.
func (t Type) canonical() Type {
	if !t.Weak || t.DType == Bool {
		return Type{DType: t.DType}
	}
	return typeOfNode(t.node())
}

// PromoteTypes is the type a binary operation computes in when given
// operands of types a and b: jnp.promote_types extended with weak types.
func PromoteTypes(a, b Type) (Type, error) { return ResultType(a, b) }

// ResultType is the type that operands of the given types promote to, with
// JAX's rules (dtypes.result_type with return_weak_type_flag=True): the join
// on the promotion lattice, weak only when the join is a weak category or
// when every operand is weak.
func ResultType(types ...Type) (Type, error) {
	if len(types) == 0 {
		return Type{}, fmt.Errorf("result type: at least one type is required")
	}
	for _, t := range types {
		if !t.DType.IsArray() {
			return Type{}, fmt.Errorf("result type: %s does not take part in type promotion", t.DType)
		}
	}
	if len(types) == 1 {
		return types[0].canonical(), nil
	}
	allWeak, allSameDType := true, true
	for _, t := range types {
		allWeak = allWeak && t.Weak
		allSameDType = allSameDType && t.DType == types[0].DType
	}
	if allSameDType && !allWeak {
		return Type{DType: types[0].DType}, nil
	}
	nodes := make([]latticeNode, len(types))
	for i, t := range types {
		if allWeak {
			// All weak: join the strong counterparts and mark the result
			// weak, so weak int + weak float is a weak float.
			nodes[i] = latticeNode(t.DType)
		} else {
			nodes[i] = t.node()
		}
	}
	n, ok := join(nodes)
	if !ok {
		return Type{}, fmt.Errorf("result type: %s have no common type", typeList(types))
	}
	out := typeOfNode(n)
	if allWeak {
		out.Weak = true
	}
	return out.canonical(), nil
}

func typeList(types []Type) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}
