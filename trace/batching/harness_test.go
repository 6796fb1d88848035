package batching_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	_ "github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The harness runs jaxprs on cpu:0 with values held as float64 slices in
// row-major order, whatever the dtype, so that examples can be stacked
// along any axis and compared.

// A value is an array's elements and its aval.
type value struct {
	aval trace.AVal
	data []float64
}

func device(t testing.TB) jit.Device {
	t.Helper()
	d, err := jit.LookupDevice("cpu:0")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func encode(v value) []byte {
	dt := v.aval.DType
	out := make([]byte, 0, len(v.data)*dt.Size())
	for _, x := range v.data {
		switch dt {
		case trace.Float32:
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(x)))
		case trace.Float64:
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		case trace.Complex64: // re and im, one after the other in data
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(x)))
		case trace.Int32:
			out = binary.LittleEndian.AppendUint32(out, uint32(int32(x)))
		case trace.Uint32:
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		case trace.Uint8:
			out = append(out, uint8(x))
		case trace.Bool:
			b := byte(0)
			if x != 0 {
				b = 1
			}
			out = append(out, b)
		default:
			panic("harness: dtype " + dt.Name())
		}
	}
	return out
}

func decode(aval trace.AVal, b []byte) []float64 {
	n := aval.Size() * width(aval)
	out := make([]float64, n)
	for i := range out {
		switch aval.DType {
		case trace.Float32, trace.Complex64:
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case trace.Float64:
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		case trace.Int32:
			out[i] = float64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case trace.Uint32:
			out[i] = float64(binary.LittleEndian.Uint32(b[4*i:]))
		case trace.Uint8:
			out[i] = float64(b[i])
		case trace.Bool:
			out[i] = float64(b[i])
		default:
			panic("harness: dtype " + aval.DType.Name())
		}
	}
	return out
}

// execute compiles j and runs it with host for its host operations.
func execute(t testing.TB, j *trace.Jaxpr, host jit.Host, args ...value) ([]value, error) {
	t.Helper()
	dev := device(t)
	_, exe, err := jit.CompileOn(dev, j)
	if err != nil {
		return nil, fmt.Errorf("compile: %w\n%s", err, j)
	}
	bufs := make([]jit.Buffer, len(args))
	for i, a := range args {
		if !a.aval.SameType(j.InVars[i].Aval()) {
			return nil, fmt.Errorf("argument %d is %s, jaxpr takes %s", i, a.aval, j.InVars[i].Aval())
		}
		if bufs[i], err = jit.FromHost(dev, a.aval, encode(a)); err != nil {
			return nil, err
		}
	}
	if host == nil {
		host = jit.NoHost
	}
	res, err := exe.Execute(bufs, host)
	if err != nil {
		return nil, err
	}
	out := make([]value, len(res))
	for i, r := range res {
		b, err := jit.ToHost(r)
		if err != nil {
			return nil, err
		}
		out[i] = value{r.AVal(), decode(r.AVal(), b)}
	}
	return out, nil
}

// width is how many float64s of a value's data hold one element.
func width(a trace.AVal) int {
	if a.DType.IsComplex() {
		return 2
	}
	return 1
}

// stack puts examples (of one aval) together along a new axis.
func stack(examples []value, axis int) value {
	per := examples[0].aval
	shape := slices.Insert(slices.Clone(per.Shape), axis, len(examples))
	out := value{aval: per.WithShape(shape), data: make([]float64, len(examples)*per.Size()*width(per))}
	outer := trace.Shape(shape[:axis]).Size()
	inner := trace.Shape(per.Shape[axis:]).Size() * width(per)
	i := 0
	for o := range outer {
		for _, ex := range examples {
			i += copy(out.data[i:], ex.data[o*inner:(o+1)*inner])
		}
	}
	return out
}

// unstack takes example k out of a value batched along axis.
func unstack(v value, axis, k int) value {
	shape := slices.Clone(v.aval.Shape)
	n := shape[axis]
	shape = slices.Delete(shape, axis, axis+1)
	outer := trace.Shape(shape[:axis]).Size()
	inner := trace.Shape(shape[axis:]).Size() * width(v.aval)
	out := value{aval: v.aval.WithShape(shape), data: make([]float64, 0, outer*inner)}
	for o := range outer {
		start := (o*n + k) * inner
		out.data = append(out.data, v.data[start:start+inner]...)
	}
	return out
}

// close reports whether got equals want: exactly for integers and bools,
// within a few float32 ulps for floats (a batched kernel may sum in
// another order); NaNs match NaNs.
func closeTo(got, want value) error {
	if !got.aval.SameType(want.aval) {
		return fmt.Errorf("got %s, want %s", got.aval, want.aval)
	}
	for i := range got.data {
		g, w := got.data[i], want.data[i]
		if math.IsNaN(g) && math.IsNaN(w) || g == w {
			continue
		}
		if got.aval.DType.IsInexact() && math.Abs(g-w) <= 1e-5*math.Max(1, math.Abs(w)) {
			continue
		}
		return fmt.Errorf("element %d: got %v, want %v\n got  %v\n want %v", i, g, w, got.data, want.data)
	}
	return nil
}

// An operand says how to draw an operand's values: within [lo, hi] (whole
// numbers for integer dtypes, multiples of 1/8 for floats, so sums are
// exact); distinct draws distinct whole numbers (scatter indices).
type operand struct {
	aval     trace.AVal
	lo, hi   float64
	distinct bool
}

func draw(r *rand.Rand, op operand) value {
	v := value{aval: op.aval, data: make([]float64, op.aval.Size()*width(op.aval))}
	lo, hi := op.lo, op.hi
	if lo == 0 && hi == 0 {
		switch {
		case op.aval.DType == trace.Bool:
			lo, hi = 0, 1
		case op.aval.DType.IsUnsigned():
			lo, hi = 0, 10
		case op.aval.DType.IsInteger():
			lo, hi = -5, 5
		default:
			lo, hi = -3, 3
		}
	}
	if op.distinct {
		perm := r.Perm(int(hi-lo) + 1)
		for i := range v.data {
			v.data[i] = lo + float64(perm[i])
		}
		return v
	}
	for i := range v.data {
		if op.aval.DType.IsInexact() {
			steps := int((hi - lo) * 8)
			v.data[i] = lo + float64(r.Intn(steps+1))/8
		} else {
			v.data[i] = lo + float64(r.Intn(int(hi-lo)+1))
		}
	}
	return v
}

// av parses an aval as jaxprs print it: f32[2,3], i32[], bool[4].
func av(s string) trace.AVal {
	var name, dims string
	for i := range s {
		if s[i] == '[' {
			name, dims = s[:i], s[i+1:len(s)-1]
			break
		}
	}
	dt, ok := map[string]trace.DType{"f32": trace.Float32, "f64": trace.Float64, "i32": trace.Int32,
		"u32": trace.Uint32, "c64": trace.Complex64, "u8": trace.Uint8, "bool": trace.Bool}[name]
	if !ok {
		panic("av: " + s)
	}
	var shape []int
	if dims != "" {
		for _, f := range splitComma(dims) {
			var n int
			fmt.Sscan(f, &n)
			shape = append(shape, n)
		}
	}
	return trace.NewAVal(dt, shape...)
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := range len(s) + 1 {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func ops(avals ...string) []operand {
	out := make([]operand, len(avals))
	for i, a := range avals {
		out[i] = operand{aval: av(a)}
	}
	return out
}

// ranged sets operand i's range.
func ranged(os []operand, i int, lo, hi float64) []operand {
	os = slices.Clone(os)
	os[i].lo, os[i].hi = lo, hi
	return os
}
