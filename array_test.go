package jaxsh_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// bitsOf is the memory of s, for bit-exact comparisons (NaN payloads, -0).
func bitsOf[T any](s []T) []byte {
	var zero T
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero))))
}

func roundTrip[T jaxsh.Elem](t *testing.T, interp *jaxsh.Interpreter, want trace.DType, data []T, shape []int) {
	t.Helper()
	if got := jaxsh.DTypeOf[T](); got != want {
		t.Fatalf("DTypeOf[%T] = %s, want %s", data, got, want)
	}
	a, err := jaxsh.NewArray(interp, data, shape)
	if err != nil {
		t.Fatalf("NewArray(%T): %v", data, err)
	}
	if a.AVal().DType != want || !a.AVal().Shape.Equal(trace.Shape(shape)) || a.AVal().Weak {
		t.Fatalf("NewArray(%T) made %s (weak %v), want %s%v", data, a.AVal().LongString(), a.AVal().Weak, want, shape)
	}
	got, gotShape, err := jaxsh.ToSlice[T](a)
	if err != nil {
		t.Fatalf("ToSlice[%T]: %v", data, err)
	}
	if !trace.Shape(gotShape).Equal(trace.Shape(shape)) {
		t.Errorf("ToSlice[%T] shape %v, want %v", data, gotShape, shape)
	}
	if !bytes.Equal(bitsOf(got), bitsOf(data)) {
		t.Errorf("ToSlice[%T] = %v, want %v (bit for bit)", data, got, data)
	}
}

func TestArrayRoundTripEveryDType(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{})
	nan32 := math.Float32frombits(0x7fc01234)
	nan64 := math.Float64frombits(0xfff8000000abcdef)
	neg0 := math.Copysign(0, -1)
	roundTrip(t, interp, trace.Bool, []bool{true, false, true, true, false, false}, []int{2, 3})
	roundTrip(t, interp, trace.Int8, []int8{-128, -1, 0, 127}, []int{4})
	roundTrip(t, interp, trace.Int16, []int16{-32768, 7, 32767}, []int{3, 1})
	roundTrip(t, interp, trace.Int32, []int32{math.MinInt32, -5, 0, math.MaxInt32}, []int{2, 2})
	roundTrip(t, interp, trace.Int64, []int64{math.MinInt64, -1, 1 << 40, math.MaxInt64}, []int{1, 4})
	roundTrip(t, interp, trace.Uint8, []uint8{0, 1, 200, 255}, []int{4})
	roundTrip(t, interp, trace.Uint16, []uint16{0, 40000, 65535}, []int{3})
	roundTrip(t, interp, trace.Uint32, []uint32{0, 1 << 31, math.MaxUint32}, []int{3})
	roundTrip(t, interp, trace.Float16, []jaxsh.Float16{0x3c00, 0x8000, 0x7e01, 0xfc00, 0x0001}, []int{5}) // 1, -0, NaN, -inf, subnormal
	roundTrip(t, interp, trace.BFloat16, []jaxsh.BFloat16{0x3f80, 0x8000, 0x7fc1, 0x7f80}, []int{2, 2})
	roundTrip(t, interp, trace.Float32, []float32{1.5, float32(neg0), nan32, float32(math.Inf(1)), math.SmallestNonzeroFloat32, math.MaxFloat32}, []int{3, 2})
	roundTrip(t, interp, trace.Float64, []float64{math.Pi, neg0, nan64, math.Inf(-1), math.SmallestNonzeroFloat64}, []int{5})
	roundTrip(t, interp, trace.Complex64, []complex64{complex(1, -2), complex(float32(neg0), nan32)}, []int{2})
	roundTrip(t, interp, trace.Complex128, []complex128{complex(3, 4), complex(nan64, neg0)}, []int{1, 2})
	// 0-d, and no elements at all.
	roundTrip(t, interp, trace.Float32, []float32{7}, []int{})
	roundTrip(t, interp, trace.Int32, []int32{}, []int{0, 3})
	// nil interpreter: the platform's default device.
	roundTrip[float64](t, nil, trace.Float64, []float64{1, 2}, []int{2})
}

// Arrays made from Go slices are ordinary arrays to scripts, and results
// scripts make read back as slices.
func TestArrayThroughScript(t *testing.T) {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{})
	g, err := interp.RunString(ctx, "t.star", `
def describe(x):
    return "%s %s %s" % (x.dtype, x.shape, x.tolist())
def double(x):
    return x * 2
r = jnp.arange(6).reshape(2, 3)
`, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	a, err := jaxsh.NewArray(interp, []int16{1, -2, 3, 4}, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	v, err := interp.Call(ctx, g["describe"], a)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if want := `"int16 (2, 2) [[1, -2], [3, 4]]"`; v.String() != want {
		t.Errorf("describe = %s, want %s", v, want)
	}
	d, err := interp.Call(ctx, g["double"], a)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	got, shape, err := jaxsh.ToSlice[int16](d)
	if err != nil || len(shape) != 2 || shape[0] != 2 || shape[1] != 2 || !slicesEqual(got, []int16{2, -4, 6, 8}) {
		t.Errorf("double = %v %v %v, want [2 -4 6 8] [2 2]", got, shape, err)
	}
	r, shape, err := jaxsh.ToSlice[int32](g["r"])
	if err != nil || !slicesEqual(r, []int32{0, 1, 2, 3, 4, 5}) || len(shape) != 2 || shape[0] != 2 || shape[1] != 3 {
		t.Errorf("ToSlice(r) = %v %v %v, want [0 1 2 3 4 5] [2 3]", r, shape, err)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNewArrayShapeErrors(t *testing.T) {
	for _, tc := range []struct {
		n     int
		shape []int
		want  string
	}{
		{5, []int{2, 3}, "5 elements for shape [2 3], want 6"},
		{2, []int{}, "2 elements for shape [], want 1"},
		{0, nil, "0 elements for shape [], want 1"},
		{3, []int{3, 1, 2}, "3 elements for shape [3 1 2], want 6"},
		{0, []int{-1, 0}, "negative dimension in shape [-1 0]"},
	} {
		_, err := jaxsh.NewArray(nil, make([]float32, tc.n), tc.shape)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewArray(%d elements, %v): error %v, want one containing %q", tc.n, tc.shape, err, tc.want)
		}
	}
}

func TestToSliceErrors(t *testing.T) {
	f32, err := jaxsh.NewArray(nil, []float32{1, 2}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	u16, err := jaxsh.NewArray(nil, []uint16{1}, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", what, err, want)
		}
	}
	_, _, err = jaxsh.ToSlice[float64](f32)
	check("float32 as float64", err, "array of dtype float32 read as []float64 (dtype float64)")
	_, _, err = jaxsh.ToSlice[int32](f32)
	check("float32 as int32", err, "array of dtype float32 read as []int32")
	_, _, err = jaxsh.ToSlice[jaxsh.Float16](u16)
	check("uint16 as Float16", err, "array of dtype uint16 read as []jaxsh.Float16 (dtype float16)")
	_, _, err = jaxsh.ToSlice[float32](starlark.MakeInt(3))
	check("int", err, "got int, want an Array")
	_, _, err = jaxsh.ToSlice[float32](starlark.NewList([]starlark.Value{starlark.Float(1)}))
	check("list", err, "got list, want an Array")
}

// NewArray places arrays on the interpreter's default device, NewArrayOn on
// the one it is given (the two differ when JAXSH_CPU_DEVICES > 1).
func TestNewArrayDevice(t *testing.T) {
	if _, err := jaxsh.NewArray(nil, []int8{1}, []int{1}); err != nil { // sets up the CPU devices
		t.Fatal(err)
	}
	cpus := jit.Devices("cpu")
	last := cpus[len(cpus)-1]
	interp := jaxsh.New(jaxsh.Options{Device: last.String()})
	a, err := jaxsh.NewArray(interp, []float32{1, 2}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if a.Device() != last {
		t.Errorf("NewArray with Device %s: array on %s", last, a.Device())
	}
	b, err := jaxsh.NewArrayOn(cpus[0], []float32{1, 2}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if b.Device() != cpus[0] {
		t.Errorf("NewArrayOn(%s): array on %s", cpus[0], b.Device())
	}
}

// A Go builtin that reads its argument with ToSlice works eagerly; inside
// jit it gets a traced array, which has no elements to read.
func TestToSliceTraced(t *testing.T) {
	var seen []float32
	read := starlark.NewBuiltin("read", func(th *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		data, _, err := jaxsh.ToSlice[float32](args[0])
		if err != nil {
			return nil, err
		}
		seen = data
		return starlark.None, nil
	})
	interp := jaxsh.New(jaxsh.Options{Globals: starlark.StringDict{"read": read}})
	_, err := interp.RunString(context.Background(), "r.star", "read(jnp.array([1.0, 2.0]))\njit(read)(jnp.ones(2))\n", nil)
	if !slicesEqual(seen, []float32{1, 2}) {
		t.Errorf("read eagerly saw %v, want [1 2]", seen)
	}
	if got := jaxsh.FormatError(err); !strings.Contains(got, "r.star:2:") || !strings.Contains(got, "ConcretizationError") {
		t.Errorf("read inside jit: %s\nwant a ConcretizationError at r.star:2", got)
	}
}
