package cuda

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// A batch of outer products (vmap's per-example weight gradients) compiles
// to exactly the PTX of its definition written out, both operands
// broadcast and multiplied: the loop kernel the matrix product cannot be.
func TestBatchedOuterProductIsItsBroadcastMultiplication(t *testing.T) {
	f32 := trace.Float32
	p := newPB(t)
	x, d := p.in(f32, 256, 32), p.in(f32, 256, 64)
	dot := p.build(p.op("dot_general", trace.Params{"dimension_numbers": trace.DotDimensionNumbers{
		LhsContracting: []int{}, RhsContracting: []int{}, LhsBatch: []int{0}, RhsBatch: []int{0}},
		"precision": nil, "preferred_element_type": nil}, x, d))
	q := newPB(t)
	x, d = q.in(f32, 256, 32), q.in(f32, 256, 64)
	bx := q.op("broadcast_in_dim", trace.Params{"shape": []int{256, 32, 64}, "broadcast_dimensions": []int{0, 1}}, x)
	bd := q.op("broadcast_in_dim", trace.Params{"shape": []int{256, 32, 64}, "broadcast_dimensions": []int{0, 2}}, d)
	written := q.build(q.op("mul", nil, bx, bd))

	got, err := compileProgram(fusedProgram(t, dot, false))
	if err != nil {
		t.Fatal(err)
	}
	want, err := compileProgram(fusedProgram(t, written, true))
	if err != nil {
		t.Fatal(err)
	}
	checkPTX(t, got.ptx)
	if got.ptx != want.ptx {
		t.Errorf("the batched outer product's PTX differs from its broadcast multiplication's:\n%s", firstDiff(want.ptx, got.ptx))
	}
	if len(got.steps) != 1 || got.steps[0].shape != want.steps[0].shape {
		t.Errorf("launch %+v, want %+v", got.steps, want.steps)
	}
}

// A dot_general that contracts or whose batch dimensions do not lead stays
// with the matrix kernel (and its limits).
func TestOtherDotsAreNotOuterProducts(t *testing.T) {
	f32 := trace.Float32
	p := newPB(t)
	x, d := p.in(f32, 32, 256), p.in(f32, 256, 64)
	j := p.build(p.op("dot_general", trace.Params{"dimension_numbers": trace.DotDimensionNumbers{
		LhsContracting: []int{}, RhsContracting: []int{}, LhsBatch: []int{1}, RhsBatch: []int{0}},
		"precision": nil, "preferred_element_type": nil}, x, d))
	if _, err := compileProgram(fusedProgram(t, j, false)); err == nil {
		t.Error("a batch dimension that does not lead compiled; the matrix kernel has no batch dimensions")
	}
}
