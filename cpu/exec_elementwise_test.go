package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The direct path of a one-equation elementwise program must give the
// eager kernel's bits: every elementwise primitive, on every dtype it has
// a block op for, with full operands, one-element operands repeated into
// the direct path's fill or broadcast by the block op, size-1 dimensions,
// 16-bit operands and outputs large enough for the worker pool.
func TestDirectElementwiseMatchesKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	dev := testDevice().(*Device)
	checked, direct := 0, 0
	for _, name := range elementwisePrimitives {
		p := trace.Lookup(name)
		for _, c := range directCases(p) {
			for _, shapes := range directShapes(len(c.in)) {
				avals := make([]trace.AVal, len(c.in))
				for i, dt := range c.in {
					avals[i] = trace.AVal{Shape: shapes[i], DType: dt}
				}
				outAvals, _, err := p.Infer(avals, c.params)
				if err != nil || len(outAvals) != 1 {
					continue // not a valid application, or not one result
				}
				dts := append([]trace.DType(nil), c.in...)
				if _, err := elementwiseBlock(name, c.params, dts); err != nil {
					continue // no block op for these dtypes
				}
				what := fmt.Sprintf("%s%v on %v", name, c.params, avals)
				args := make([]jit.Buffer, len(avals))
				in := make([]*Buffer, len(avals))
				for i, a := range avals {
					in[i] = directOperand(r, dev, a, name == "select_n" && i == 0, len(avals)-1)
					args[i] = in[i]
				}
				want := newBuffer(dev, outAvals[0])
				e := &trace.Eqn{Prim: p, Params: c.params}
				if err := elementwiseKernel(e, in, []*Buffer{want}, nil); err != nil {
					t.Fatalf("%s: kernel: %v", what, err)
				}
				exe, _, err := jit.PreparePrimitive(dev, p, c.params, avals)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				x := exe.(*executable)
				if x.direct == nil {
					t.Fatalf("%s: compiled without the direct path", what)
				}
				got, err := x.ExecuteOne(args, nil)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				g := got.(*Buffer)
				if !g.aval.Equal(want.aval) || !bytes.Equal(g.data, want.data) {
					t.Fatalf("%s: direct path gave %s %x, kernel %s %x", what, g.aval, g.data, want.aval, want.data)
				}
				checked++
				if shapes[0].Size() <= grainElements {
					direct++
				}
			}
		}
	}
	// Every primitive but threefry2x32 (two results) is checked on several
	// dtypes and shapes: a table that stopped matching would show here.
	if checked < 3000 || direct < 2500 {
		t.Errorf("checked %d applications (%d on the single-call path), want at least 3000 (2500)", checked, direct)
	}
}

// A directCase is one primitive's operand dtypes and params.
type directCase struct {
	in     []trace.DType
	params trace.Params
}

// directCases lists operand dtype lists for p over every dtype; the caller
// skips those the shape rule or the block table refuses.
func directCases(p *trace.Primitive) []directCase {
	var cases []directCase
	for _, dt := range trace.DTypes() {
		if dt == trace.Float0 {
			continue
		}
		switch p.Name {
		case "select_n":
			cases = append(cases, directCase{in: []trace.DType{trace.Bool, dt, dt}},
				directCase{in: []trace.DType{trace.Int32, dt, dt, dt}})
		case "clamp":
			cases = append(cases, directCase{in: []trace.DType{dt, dt, dt}})
		case "convert_element_type":
			for _, to := range trace.DTypes() {
				if to != trace.Float0 {
					cases = append(cases, directCase{in: []trace.DType{dt}, params: trace.Params{"new_dtype": to, "weak_type": false}})
				}
			}
		case "integer_pow":
			cases = append(cases, directCase{in: []trace.DType{dt}, params: trace.Params{"y": 3}})
		case "reduce_precision":
			cases = append(cases, directCase{in: []trace.DType{dt}, params: trace.Params{"exponent_bits": 5, "mantissa_bits": 7}})
		case "round":
			cases = append(cases, directCase{in: []trace.DType{dt}, params: trace.Params{"rounding_method": trace.RoundToNearestEven}})
		case "conj":
			cases = append(cases, directCase{in: []trace.DType{dt}, params: trace.Params{"input_dtype": dt}})
		case "pow":
			cases = append(cases, directCase{in: []trace.DType{dt, dt}}, directCase{in: []trace.DType{dt, trace.Int32}})
		default:
			if p.MaxIn == 1 {
				cases = append(cases, directCase{in: []trace.DType{dt}})
			} else {
				cases = append(cases, directCase{in: []trace.DType{dt, dt}})
			}
		}
	}
	return cases
}

// directShapes lists the operand shapes tried for n operands: the output's
// shape is the first operand's in each list but the scalar-first ones.
func directShapes(n int) [][]trace.Shape {
	same := func(s trace.Shape) []trace.Shape {
		out := make([]trace.Shape, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	lists := [][]trace.Shape{same(trace.Shape{4}), same(trace.Shape{}), same(trace.Shape{3, 5}), same(trace.Shape{2*grainElements + 5})}
	if n > 1 {
		lastScalar := same(trace.Shape{4})
		lastScalar[n-1] = trace.Shape{}
		long := same(trace.Shape{37})
		long[n-1] = trace.Shape{}
		rows := same(trace.Shape{3, 5})
		rows[n-1] = trace.Shape{1, 5}
		lists = append(lists, lastScalar, long, rows)
		firstScalar := same(trace.Shape{4})
		firstScalar[0] = trace.Shape{}
		lists = append(lists, firstScalar)
	}
	return lists
}

// directOperand fills a buffer with random bits (every float special value
// turns up), bools as 0 or 1, and a select_n predicate below cases.
func directOperand(r *rand.Rand, dev *Device, aval trace.AVal, predicate bool, cases int) *Buffer {
	b := newBuffer(dev, aval)
	for i := range b.data {
		b.data[i] = byte(r.Uint32())
	}
	switch {
	case predicate && aval.DType == trace.Int32:
		v := view[int32](b)
		for i := range v {
			v[i] = int32(r.IntN(cases))
		}
	case aval.DType == trace.Bool:
		for i := range b.data {
			b.data[i] &= 1
		}
	}
	return b
}
