package ad_test

import (
	"encoding/binary"
	"math"
	"testing"

	_ "github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// An array is a test value: its aval and its elements as float64s.
type array struct {
	aval trace.AVal
	data []float64
}

func f64(shape []int, data ...float64) array {
	return array{aval: trace.NewAVal(trace.Float64, shape...), data: data}
}

func device(t testing.TB) jit.Device {
	t.Helper()
	d, err := jit.LookupDevice("cpu:0")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func toBytes(a array) []byte {
	dt := a.aval.DType
	out := make([]byte, 0, len(a.data)*dt.Size())
	for _, x := range a.data {
		switch dt {
		case trace.Float64, trace.Complex128:
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		case trace.Float32:
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(x)))
		case trace.Int32:
			out = binary.LittleEndian.AppendUint32(out, uint32(int32(x)))
		case trace.Int64:
			out = binary.LittleEndian.AppendUint64(out, uint64(int64(x)))
		case trace.Uint32:
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		case trace.Bool:
			if x != 0 {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		default:
			panic("toBytes: dtype " + dt.Name())
		}
	}
	return out
}

func fromBytes(aval trace.AVal, b []byte) []float64 {
	n := aval.Size()
	if aval.DType == trace.Complex128 {
		n *= 2 // real and imaginary parts, interleaved
	}
	out := make([]float64, n)
	for i := range out {
		switch aval.DType {
		case trace.Complex128:
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		case trace.Float64:
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		case trace.Float32:
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case trace.Int32:
			out[i] = float64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case trace.Int64:
			out[i] = float64(int64(binary.LittleEndian.Uint64(b[8*i:])))
		case trace.Uint32:
			out[i] = float64(binary.LittleEndian.Uint32(b[4*i:]))
		case trace.Bool:
			out[i] = float64(b[i])
		default:
			panic("fromBytes: dtype " + aval.DType.Name())
		}
	}
	return out
}

// run compiles j for cpu:0 and runs it (j must have no constants).
func run(t testing.TB, j *trace.Jaxpr, args ...array) []array {
	t.Helper()
	return runWith(t, j, nil, args...)
}

// runWith is run with a Host for the program's host operations.
func runWith(t testing.TB, j *trace.Jaxpr, host jit.Host, args ...array) []array {
	t.Helper()
	if err := j.Verify(); err != nil {
		t.Fatalf("%v\n%s", err, j)
	}
	dev := device(t)
	_, exe, err := jit.CompileOn(dev, j)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, j)
	}
	bufs := make([]jit.Buffer, len(args))
	for i, a := range args {
		b, err := jit.FromHost(dev, a.aval, toBytes(a))
		if err != nil {
			t.Fatal(err)
		}
		bufs[i] = b
	}
	outs, err := exe.Execute(bufs, host)
	if err != nil {
		t.Fatalf("execute: %v\n%s", err, j)
	}
	res := make([]array, len(outs))
	for i, o := range outs {
		data, err := jit.ToHost(o)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = array{aval: o.AVal(), data: fromBytes(o.AVal(), data)}
	}
	return res
}

// build traces a Go function of builder atoms into a jaxpr.
func build(t testing.TB, in []trace.AVal, f func(e *trace.Emitter, args []trace.Atom) []trace.Atom) *trace.Jaxpr {
	t.Helper()
	b := trace.NewBuilder()
	args := make([]trace.Atom, len(in))
	for i, a := range in {
		args[i] = b.Input(a)
	}
	var outs []trace.Atom
	e := &trace.Emitter{B: b}
	if err := trace.Catch(func() { outs = f(e, args) }); err != nil {
		t.Fatal(err)
	}
	j, err := b.Build(outs)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func close(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*(1+math.Max(math.Abs(a), math.Abs(b)))
}
