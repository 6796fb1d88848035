package cpu

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// ewCase is one elementwise test: a primitive applied to operands given as
// value lists (one value makes a rank-0 operand, broadcast against the
// others), with the exact expected result.
type ewCase struct {
	prim   string
	params trace.Params
	dts    []trace.DType // operand dtypes; one entry serves every operand
	in     [][]any
	want   []any
}

func (c ewCase) name() string {
	return fmt.Sprintf("%s%v(%s)", c.prim, c.params, dtypeList(c.dts))
}

func runEwCases(t *testing.T, cases []ewCase) {
	t.Helper()
	for _, c := range cases {
		n := 1
		for _, vals := range c.in {
			n = max(n, len(vals))
		}
		bufs := make([]*Buffer, len(c.in))
		for i, vals := range c.in {
			dt := c.dts[0]
			if len(c.dts) > 1 {
				dt = c.dts[i]
			}
			shape := []int{len(vals)}
			if len(vals) == 1 && n > 1 {
				shape = []int{}
			}
			bufs[i] = bufferOf(t, dt, shape, vals...)
		}
		out := apply(t, c.prim, c.params, bufs...)
		checkElements(t, c.name(), out[0], c.want...)
	}
}

// dts is a shorthand for operand dtype lists.
func dts(d ...trace.DType) []trace.DType { return d }

var (
	nan    = math.NaN()
	inf    = math.Inf(1)
	negZ   = math.Copysign(0, -1)
	minI32 = math.MinInt32
)

// noBlockOp lists the (primitive, dtype) pairs the shape rules accept but
// that have no kernel, each with the reason.
var noBlockOp = map[string]string{}

func TestEveryElementwisePrimitiveHasAKernel(t *testing.T) {
	for _, p := range trace.Primitives() {
		if p.Has(trace.Elementwise) && !HasKernel(p.Name) {
			t.Errorf("elementwise primitive %s has no CPU kernel", p.Name)
		}
	}
	for _, name := range elementwisePrimitives {
		p := trace.Lookup(name)
		if p == nil || !p.Has(trace.Elementwise) {
			t.Errorf("%s is registered as an elementwise kernel but is not an elementwise primitive", name)
		}
	}
}

// testParams are params every primitive that takes some accepts.
var testParams = map[string]trace.Params{
	"round":                {"rounding_method": trace.RoundToNearestEven},
	"integer_pow":          {"y": 3},
	"reduce_precision":     {"exponent_bits": 5, "mantissa_bits": 7},
	"convert_element_type": {"new_dtype": trace.Float32, "weak_type": false},
}

// testParamsFor is testParams for an operand of dtype dt: conj records its
// operand's dtype.
func testParamsFor(name string, dt trace.DType) trace.Params {
	if name == "conj" {
		return trace.Params{"input_dtype": dt}
	}
	return testParams[name]
}

// TestElementwiseDTypeCoverage runs every elementwise primitive on every
// combination of dtypes its shape rule accepts (one array operand and the
// rest rank 0, so broadcasting runs too), except those listed in
// noBlockOp, which must fail cleanly.
func TestElementwiseDTypeCoverage(t *testing.T) {
	var arrays []trace.DType
	for _, dt := range trace.DTypes() {
		if dt.IsArray() {
			arrays = append(arrays, dt)
		}
	}
	integers := append([]trace.DType{trace.Bool}, integerDTypes...)
	ran := map[string]int{}
	for _, name := range elementwisePrimitives {
		p := trace.Lookup(name)
		for _, dt := range arrays {
			params := testParamsFor(name, dt)
			var combos [][]trace.DType
			switch name {
			case "select_n":
				for _, which := range integers {
					combos = append(combos, dts(which, dt, dt), dts(which, dt))
				}
				combos = append(combos, dts(trace.Int32, dt, dt, dt, dt))
			case "pow":
				combos = append(combos, dts(dt, dt))
				for _, exp := range integerDTypes {
					combos = append(combos, dts(dt, exp))
				}
			default:
				combos = append(combos, slices.Repeat(dts(dt), p.MinIn))
			}
			for _, in := range combos {
				avals := make([]trace.AVal, len(in))
				for i, d := range in {
					avals[i] = trace.AVal{Shape: trace.Shape{}, DType: d}
				}
				if _, _, err := p.Infer(avals, params); err != nil {
					continue // the shape rule rejects it
				}
				kind := dt.Name()
				if dt.IsComplex() {
					kind = "complex"
				}
				_, err := elementwiseBlock(name, params, in)
				if reason, skip := noBlockOp[name+"/"+kind]; skip {
					if err == nil {
						t.Errorf("%s on %s has a kernel now; drop it from noBlockOp (%s)", name, dtypeList(in), reason)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s on %s: %v", name, dtypeList(in), err)
					continue
				}
				runOnSmallArrays(t, name, params, in)
				ran[name]++
			}
		}
	}
	for _, name := range elementwisePrimitives {
		if ran[name] == 0 {
			t.Errorf("%s ran on no dtype", name)
		}
	}
}

// runOnSmallArrays applies a primitive to arrays of 5 elements, then to
// rank-0 operands mixed with one array (select_n: its cases), and checks
// that both agree with applying it to rank-0 operands element by element.
func runOnSmallArrays(t *testing.T, name string, params trace.Params, in []trace.DType) {
	t.Helper()
	const n = 5
	value := func(dt trace.DType, i, operand int) any {
		switch {
		case dt == trace.Bool:
			return (i+operand)%2 == 0
		case name == "select_n" && operand == 0:
			return int64(i%3) - 1 // -1, 0, 1: out of range low, both cases
		case dt.IsInteger():
			return int64(i + operand + 1)
		}
		return 0.25*float64(i) + 0.5*float64(operand) - 0.3
	}
	arrays := make([]*Buffer, len(in))
	for k, dt := range in {
		vals := make([]any, n)
		for i := range vals {
			vals[i] = value(dt, i, k)
		}
		arrays[k] = bufferOf(t, dt, []int{n}, vals...)
	}
	full := apply(t, name, params, arrays...)
	for i := 0; i < n; i++ {
		scalars := make([]*Buffer, len(in))
		mixed := make([]*Buffer, len(in))
		for k, dt := range in {
			scalars[k] = bufferOf(t, dt, []int{}, value(dt, i, k))
			mixed[k] = scalars[k]
		}
		switch name {
		case "select_n": // a scalar which, array cases
			copy(mixed[1:], arrays[1:])
		case "clamp": // scalar bounds, an array operand
			mixed[1] = arrays[1]
		default:
			mixed[len(in)-1] = arrays[len(in)-1]
		}
		one := apply(t, name, params, scalars...)
		some := apply(t, name, params, mixed...)
		for r := range one {
			w := one[r].Element(0)
			if got := full[r].Element(i); !sameValue(got, w) {
				t.Errorf("%s%v(%s) result %d element %d: arrays give %v, scalars %v", name, params, dtypeList(in), r, i, got, w)
			}
			if got := some[r].Element(i); !sameValue(got, w) {
				t.Errorf("%s%v(%s) result %d element %d: scalars and an array give %v, scalars %v", name, params, dtypeList(in), r, i, got, w)
			}
		}
	}
}

func TestElementwiseBlockErrors(t *testing.T) {
	for _, c := range []struct {
		prim   string
		params trace.Params
		in     []trace.DType
	}{
		{"integer_pow", trace.Params{"y": -1}, dts(trace.Int32)},
		{"round", trace.Params{"rounding_method": trace.RoundingMethod(7)}, dts(trace.Float32)},
		{"reduce_precision", trace.Params{"exponent_bits": 0, "mantissa_bits": 3}, dts(trace.Float32)},
		{"add", nil, dts(trace.Token, trace.Token)},
		{"no_such_primitive", nil, dts(trace.Float32)},
		{"add", nil, dts(trace.Float32, trace.Int32)},
		{"add", nil, dts(trace.Float32)},
		{"neg", nil, dts(trace.Float32, trace.Float32)},
		{"select_n", nil, dts(trace.Bool, trace.Float32, trace.Int32)},
		{"select_n", nil, dts(trace.Float32, trace.Float32, trace.Float32)},
		{"pow", nil, dts(trace.Int32, trace.Float32)},
		{"clamp", nil, dts(trace.Float32, trace.Float64, trace.Float32)},
	} {
		if _, err := elementwiseBlock(c.prim, c.params, c.in); err == nil {
			t.Errorf("%s%v(%s): no error", c.prim, c.params, dtypeList(c.in))
		}
	}
}

// The convert_element_type block ops agree with the eager convert kernel
// on every pair of dtypes, for values that wrap, saturate, round or are
// special.
func TestConvertBlockOpsMatchTheEagerKernel(t *testing.T) {
	values := []any{0.0, negZ, 1.0, -1.0, 2.5, -2.5, 127.5, 128.0, -129.0, 255.0, 256.0, 65504.0, 65520.0,
		1e10, -1e10, 3e9, 1.0 / 3, 1e-8, nan, inf, -inf, int64(1)<<40 + 1, int64(-1) << 62}
	for _, src := range trace.DTypes() {
		if !src.IsArray() {
			continue
		}
		in := bufferOf(t, src, []int{len(values)}, values...)
		for _, dst := range trace.DTypes() {
			if !dst.IsArray() {
				continue
			}
			params := trace.Params{"new_dtype": dst, "weak_type": false}
			want := apply(t, "convert_element_type", params, in)[0]
			k, err := elementwiseBlock("convert_element_type", params, dts(src))
			if err != nil {
				t.Errorf("%s -> %s: %v", src, dst, err)
				continue
			}
			if k.out[0] != dst {
				t.Errorf("%s -> %s: result layout %s", src, dst, k.out[0])
			}
			got := newBuffer(in.dev, trace.AVal{Shape: in.Shape(), DType: dst})
			run := in
			if k.in[0] != src { // 16-bit sources run widened
				run = newBuffer(in.dev, trace.AVal{Shape: in.Shape(), DType: k.in[0]})
				widenRun(view[float32](run), view[uint16](in), src)
			}
			k.op([][]byte{got.data}, [][]byte{run.data})
			// elementwiseKernel can run them eagerly too, widening 16-bit
			// sources itself.
			eager := newBuffer(in.dev, trace.AVal{Shape: in.Shape(), DType: dst})
			e := &trace.Eqn{Prim: trace.Lookup("convert_element_type"), Params: params}
			if err := elementwiseKernel(e, []*Buffer{in}, []*Buffer{eager}, nil); err != nil {
				t.Fatal(err)
			}
			for i := range values {
				w := want.Element(i)
				if g := got.Element(i); !sameParts(g, w) {
					t.Errorf("convert %s -> %s: element %d = %v, want %v", src, dst, i, g, w)
				}
				if g := eager.Element(i); !sameParts(g, w) {
					t.Errorf("convert %s -> %s through elementwiseKernel: element %d = %v, want %v", src, dst, i, g, w)
				}
			}
		}
	}
}

// sameParts is sameValue that also matches complex numbers part by part,
// so that nan parts match.
func sameParts(a, b any) bool {
	ca, aok := a.(complex128)
	cb, bok := b.(complex128)
	if aok && bok {
		return sameValue(real(ca), real(cb)) && sameValue(imag(ca), imag(cb))
	}
	return sameValue(a, b)
}
