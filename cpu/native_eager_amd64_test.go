package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Eager float arithmetic with a result of at least nativeStreamingMin bytes
// runs as native code with streaming stores, one element short of it as
// the block op; on either side of the threshold the bits are the block
// op's (NaNs, infinities and subnormals among the operands).
func TestNativeEagerStreamedArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dt := range []trace.DType{trace.Float32, trace.Float64} {
		at := nativeStreamingMin / dt.Size()
		for _, n := range []int{at - 1, at, at + 13} {
			x, y := randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false, n)
			for _, fn := range []string{"add", "sub", "mul", "div"} {
				jb := newJaxprBuilder(t)
				a, b := jb.input(dt, n), jb.input(dt, n)
				j := jb.build(jb.bind(fn, nil, a, b))
				name := fmt.Sprintf("eager %s %s of %d", fn, dt, n)
				r, _ := eagerNative(j.Eqns[0])
				if native := r != nil; native != (n >= at) {
					t.Fatalf("%s: native code %v, want %v", name, native, n >= at)
				}
				p := fusedProgramOf(j, jit.OpaqueKernel, trace.Shape{n})
				got := execute(t, p, []*Buffer{x, y})
				t.Setenv("JAXSH_CPU_CODEGEN", "0")
				want := execute(t, p, []*Buffer{x, y})
				t.Setenv("JAXSH_CPU_CODEGEN", "1")
				if !bytes.Equal(got[0].data, want[0].data) {
					t.Errorf("%s differs from the block op: %s", name, firstBitDifference(got[0], want[0]))
				}
			}
		}
	}
}

// An operand broadcast into the result, or of another dtype, keeps the
// block op however large the result.
func TestNativeEagerArithmeticNeedsWholeOperands(t *testing.T) {
	n := nativeStreamingMin/4 + 8
	jb := newJaxprBuilder(t)
	a, b := jb.input(trace.Float32, n), jb.input(trace.Float32)
	j := jb.build(jb.bind("add", nil, a, b))
	if r, _ := eagerNative(j.Eqns[0]); r != nil {
		t.Errorf("add of a scalar compiled natively")
	}
	jb = newJaxprBuilder(t)
	c, d := jb.input(trace.Int32, n), jb.input(trace.Int32, n)
	j = jb.build(jb.bind("add", nil, c, d))
	if r, _ := eagerNative(j.Eqns[0]); r != nil {
		t.Errorf("int32 add compiled natively")
	}
}
