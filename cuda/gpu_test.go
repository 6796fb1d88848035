package cuda

import (
	"encoding/binary"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jaxsh/jaxsh/cpu" // the reference backend
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// requireGPU skips a test on a machine without the driver or a GPU, and
// says why.
func requireGPU(t testing.TB) *Device {
	t.Helper()
	if r := Unavailable(); r != "" {
		t.Skip(r)
	}
	return theBackend.devices[0]
}

func TestNoDriverReason(t *testing.T) {
	if Available() {
		if jit.LookupBackend("cuda") == nil {
			t.Fatal("available but not registered")
		}
		return
	}
	r := Unavailable()
	if !strings.HasPrefix(r, "no CUDA") {
		t.Errorf("reason %q does not start with \"no CUDA\"", r)
	}
	if jit.LookupBackend("cuda") != nil {
		t.Errorf("cuda registered although unavailable: %s", r)
	}
	for _, d := range jit.Devices("") {
		if d.Platform() == "cuda" {
			t.Errorf("device %s listed", d)
		}
	}
	t.Logf("reason: %s", r)
}

func TestLoadMissingLibrary(t *testing.T) {
	_, err := loadFrom("libjaxsh-no-such-library.so.1")
	if err == nil || !strings.HasPrefix(err.Error(), "no CUDA driver: libjaxsh-no-such-library.so.1") {
		t.Fatalf("got %v", err)
	}
	t.Setenv(DisableEnv, "0")
	if _, err := loadFrom(libName); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("got %v with %s=0", err, DisableEnv)
	}
}

func TestResultError(t *testing.T) {
	e := &Error{Call: "cuInit", Result: Result(100)}
	if !strings.Contains(e.Error(), "cuInit") {
		t.Errorf("%q", e.Error())
	}
	if drv == nil && !strings.Contains(e.Error(), "CUresult(100)") {
		t.Errorf("%q", e.Error())
	}
}

// runOn compiles j for dev (fused when the backend fuses) and runs it.
func runOn(t *testing.T, dev jit.Device, j *trace.Jaxpr, args [][]byte) [][]byte {
	t.Helper()
	prog, err := jit.CompileWith(j, jit.OptionsFor(dev))
	if err != nil {
		t.Fatal(err)
	}
	b := jit.LookupBackend(dev.Platform())
	x, err := b.Compile(prog, dev)
	if err != nil {
		t.Fatal(err)
	}
	var bufs []jit.Buffer
	for i, v := range j.InVars {
		buf, err := jit.FromHost(dev, v.Aval(), args[i])
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, buf)
	}
	out, err := x.Execute(bufs, jit.NoHost)
	if err != nil {
		t.Fatal(err)
	}
	var res [][]byte
	for _, o := range out {
		data, err := jit.ToHost(o)
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, data)
	}
	return res
}

// compareWithCPU runs j on the GPU and on cpu:0 and compares the results
// with a relative tolerance for floats (0: exact).
func compareWithCPU(t *testing.T, j *trace.Jaxpr, args [][]byte, tol float64) {
	t.Helper()
	dev := requireGPU(t)
	cpu, err := jit.LookupDevice("cpu:0")
	if err != nil {
		t.Fatal(err)
	}
	got := runOn(t, dev, j, args)
	want := runOn(t, cpu, j, args)
	for i, a := range j.OutVars {
		dt := a.Aval().DType
		if dt == trace.Float32 || dt == trace.Float64 {
			g, w := floats(dt, got[i]), floats(dt, want[i])
			for k := range w {
				if !closeTo(g[k], w[k], tol) {
					t.Fatalf("result %d element %d: got %v, want %v (tolerance %g)", i, k, g[k], w[k], tol)
				}
			}
			continue
		}
		if string(got[i]) != string(want[i]) {
			t.Fatalf("result %d (%s) differs from the CPU's", i, dt)
		}
	}
}

func closeTo(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(b), 1e-30)
}

func floats(dt trace.DType, b []byte) []float64 {
	if dt == trace.Float32 {
		out := make([]float64, len(b)/4)
		for i := range out {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		}
		return out
	}
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

func f32Bytes(xs []float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func rampF32(n int, scale float32) []byte {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i%1000-500) * scale
	}
	return f32Bytes(xs)
}

func TestGPUGoldenProgramsMatchCPU(t *testing.T) {
	requireGPU(t)
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			j := c.build(newPB(t))
			var args [][]byte
			for _, v := range j.InVars {
				n := v.Aval().Size() * v.Aval().DType.Size()
				a := make([]byte, n)
				for i := range a {
					a[i] = byte(i*7 + 3) // arbitrary bits
				}
				if v.Aval().DType == trace.Float32 {
					a = rampF32(v.Aval().Size(), 0.01)
				}
				args = append(args, a)
			}
			compareWithCPU(t, j, args, 1e-5)
		})
	}
}

func TestGPUTranscendentalsF32(t *testing.T) {
	requireGPU(t)
	for _, fn := range []string{"exp", "exp2", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "logistic", "sinh", "cosh", "sqrt", "rsqrt", "atan", "asin", "acos", "asinh", "acosh", "atanh", "cbrt"} {
		t.Run(fn, func(t *testing.T) {
			p := newPB(t)
			x := p.in(trace.Float32, 1<<16)
			arg := p.op("abs", nil, x)
			if fn != "log" && fn != "sqrt" && fn != "rsqrt" && fn != "log1p" {
				arg = x
			}
			j := p.build(p.op(fn, nil, arg))
			// ≤ 1 ulp (float32 results are rounded once from float64),
			// plus the CPU's own ≤ 2 ulp.
			compareWithCPU(t, j, [][]byte{rampF32(1<<16, 0.0173)}, 4*0x1p-23)
		})
	}
}

func TestGPUElementwiseEveryDType(t *testing.T) {
	requireGPU(t)
	for _, dt := range trace.DTypes() {
		if dt.IsComplex() {
			continue
		}
		for _, prim := range []string{"add", "sub", "mul", "max", "min", "eq", "lt", "ne"} {
			p := newPB(t)
			x, y := p.in(dt, 1000), p.in(dt, 1000)
			if _, err := p.b.Bind(prim, []trace.Atom{x, y}, trace.Params{}, trace.Pos{}); err != nil {
				continue
			}
			j := p.build(p.op(prim, nil, x, y))
			a, b := make([]byte, 1000*dt.Size()), make([]byte, 1000*dt.Size())
			for i := range a {
				a[i], b[i] = byte(i*13+1), byte(i*29+7)
			}
			if dt == trace.Bool {
				for i := range a {
					a[i], b[i] = a[i]&1, b[i]&1
				}
			}
			t.Run(prim+"/"+dt.ShortName(), func(t *testing.T) { compareWithCPU(t, j, [][]byte{a, b}, 0) })
		}
	}
}

func TestGPUMatmul(t *testing.T) {
	requireGPU(t)
	p := newPB(t)
	a, b := p.in(trace.Float32, 257, 300), p.in(trace.Float32, 300, 129)
	j := p.build(p.op("dot_general", trace.Params{"dimension_numbers": trace.DotDimensionNumbers{
		LhsContracting: []int{1}, RhsContracting: []int{0}}, "precision": nil, "preferred_element_type": trace.Float32}, a, b))
	compareWithCPU(t, j, [][]byte{rampF32(257*300, 0.001), rampF32(300*129, 0.002)}, 1e-4)
}

func TestGPUEventsAndCopies(t *testing.T) {
	dev := requireGPU(t)
	if err := dev.start(); err != nil {
		t.Fatal(err)
	}
	const n = 1 << 20
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 31)
	}
	a, err := dev.newBuffer(trace.AVal{Shape: trace.Shape{n}, DType: trace.Uint8})
	if err != nil {
		t.Fatal(err)
	}
	bb, err := dev.newBuffer(trace.AVal{Shape: trace.Shape{n}, DType: trace.Uint8})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := dev.ctx.newEvent(true)
	end, _ := dev.ctx.newEvent(true)
	defer start.destroy()
	defer end.destroy()
	if err := start.Record(dev.stream); err != nil {
		t.Fatal(err)
	}
	if err := dev.stream.copyHtoD(a.ptr, src); err != nil {
		t.Fatal(err)
	}
	if err := dev.stream.copyDtoD(bb.ptr, a.ptr, n); err != nil {
		t.Fatal(err)
	}
	pin, err := dev.ctx.hostAlloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer pin.Free()
	if err := dev.stream.copyDtoHPinned(pin, 0, bb.ptr, n); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(dev.stream); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if done, err := end.Done(); err != nil || !done {
		t.Fatalf("event not done after Synchronize: %v %v", done, err)
	}
	if string(pin.Bytes()) != string(src) {
		t.Fatal("round trip through the device changed the bytes")
	}
	ms, err := start.Elapsed(end)
	if err != nil || ms < 0 {
		t.Fatalf("elapsed %v, %v", ms, err)
	}
}

func TestGPUHostFunc(t *testing.T) {
	dev := requireGPU(t)
	if err := dev.start(); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	done := make(chan struct{})
	for i := range 3 {
		if err := dev.stream.launchHostFunc(func() {
			if ran.Add(1) == 3 {
				close(done)
			}
			_ = i
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := dev.stream.Synchronize(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("host functions ran %d times", ran.Load())
	}
}

func TestGPUModuleErrorLog(t *testing.T) {
	dev := requireGPU(t)
	if err := dev.start(); err != nil {
		t.Fatal(err)
	}
	_, err := dev.ctx.loadModule(ptxHeader + "\n.visible .entry bad() { bogus.instruction; }\n")
	if err == nil || !strings.Contains(err.Error(), "cuModuleLoadDataEx") {
		t.Fatalf("got %v", err)
	}
	t.Logf("%v", err)
}
