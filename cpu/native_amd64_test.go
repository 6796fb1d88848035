package cpu

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Tests of fused kernels compiled to native code: every kernel runs once
// natively and once on the block machine (JAXSH_CPU_CODEGEN=0), and the
// results must be the same bytes.

// runBothWays compiles one fused loop kernel over shape from j and runs it
// with native code (which must accept it when want is true) and on the
// block machine, and requires byte-identical outputs.
func runBothWays(t *testing.T, name string, j *trace.Jaxpr, shape trace.Shape, wantNative bool, in ...*Buffer) {
	t.Helper()
	p := fusedProgramOf(j, jit.LoopKernel, shape)
	if nativeEnabled() {
		_, err := compileNative(p.Kernels[0], nil)
		if wantNative && err != nil {
			t.Fatalf("%s: not compiled natively: %v", name, err)
		}
		if !wantNative && err == nil {
			t.Fatalf("%s: compiled natively, expected the block machine", name)
		}
	} else if wantNative {
		t.Logf("%s: no native code on this machine; checking the block machine only", name)
	}
	got := execute(t, p, in)
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	want := execute(t, p, in)
	t.Setenv("JAXSH_CPU_CODEGEN", "1")
	for i := range want {
		if !bytes.Equal(got[i].data, want[i].data) {
			t.Errorf("%s: output %d differs from the block machine: %s", name, i, firstBitDifference(got[i], want[i]))
		}
	}
}

func firstBitDifference(a, b *Buffer) string {
	size := a.DType().Size()
	for i := 0; i < len(a.data); i += size {
		if !bytes.Equal(a.data[i:i+size], b.data[i:i+size]) {
			return fmt.Sprintf("element %d of %s: %v (%x), want %v (%x)", i/size, a.AVal(),
				a.Element(i/size), a.data[i:i+size], b.Element(i/size), b.data[i:i+size])
		}
	}
	return "no element differs"
}

func TestNativeElementwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []trace.DType{trace.Float32, trace.Float64} {
		// Sizes around the vector width and the chunk, to cover tails.
		for _, n := range []int{1, 7, 16, 17, 100, nativeChunk + 5, 3*grainElements + 3} {
			name := fmt.Sprintf("%s[%d]", dt, n)
			jb := newJaxprBuilder(t)
			x, y, s := jb.input(dt, n), jb.input(dt, n), jb.input(dt)
			sum := jb.bind("add", nil, x, y)
			diff := jb.bind("sub", nil, x, jb.broadcast(s, []int{n}))
			prod := jb.bind("mul", nil, sum, diff)
			quo := jb.bind("div", nil, prod, jb.bind("abs", nil, y))
			mx := jb.bind("max", nil, quo, jb.bind("neg", nil, x))
			mn := jb.bind("min", nil, mx, jb.bind("sqrt", nil, y))
			sq := jb.bind("integer_pow", trace.Params{"y": -3}, mn)
			lt := jb.bind("lt", nil, x, y)
			ne := jb.bind("ne", nil, x, jb.lit(0.5, dt))
			pick := jb.bind("select_n", nil, jb.bind("and", nil, lt, jb.bind("not", nil, ne)), sq, mx)
			j := jb.build(pick, mn, jb.bind("square", nil, quo))
			runBothWays(t, name, j, trace.Shape{n}, true,
				randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false))
		}
	}
}

func TestNativeMixedWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 1000
	jb := newJaxprBuilder(t)
	x, y := jb.input(trace.Float32, 10, 100), jb.input(trace.Float64, 1000)
	xr := jb.bind("reshape", trace.Params{"new_sizes": []int{1000}}, x)
	wide := jb.convert(xr, trace.Float64)
	prod := jb.bind("mul", nil, wide, y)
	narrow := jb.convert(prod, trace.Float32)
	j := jb.build(jb.bind("add", nil, narrow, xr), prod)
	runBothWays(t, "float32 and float64", j, trace.Shape{n}, true,
		randomBuffer(t, rng, trace.Float32, false, 10, 100), randomBuffer(t, rng, trace.Float64, false, n))
}

// A reshape that only division expresses stays on the block machine,
// with the same results.
func TestNativeRefusesDelinearizingReshapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32, 4, 15)
	r := jb.bind("reshape", trace.Params{"new_sizes": []int{6, 10}}, x)
	rt := jb.bind("transpose", trace.Params{"permutation": []int{1, 0}}, r)
	j := jb.build(jb.bind("add", nil, rt, rt))
	runBothWays(t, "transpose of a reshape", j, trace.Shape{10, 6}, false, randomBuffer(t, rng, trace.Float32, false, 4, 15))
}

// The fused tests again with native code off: the block machine stays
// the portable path, and every fused kernel must pass on it too.
func TestFusedTestsOnThePortablePath(t *testing.T) {
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	for name, test := range map[string]func(*testing.T){
		"ElementwiseChains": TestFusedElementwiseChains, "Broadcasts": TestFusedBroadcasts,
		"WellFused": TestFusedWellFused, "Iota": TestFusedIota, "IndexMaps": TestFusedIndexMaps,
		"MultiOutputLoop": TestFusedMultiOutputLoop, "JitPrograms": TestJitFusedProgramsMatchUnfused,
		"Concurrent": TestFusedConcurrentExecutes, "InPlace": TestFusedLoopInPlace,
		"EveryElementwisePrimitive": TestFusedEveryElementwisePrimitive, "ExecutePlan": TestExecuteFollowsPlan,
		"NewtonWhileLoop": TestNewtonWhileLoop,
	} {
		t.Run(name, test)
	}
}

// FuzzNativeKernels builds a random fused expression DAG from the input
// bytes and requires native code and the block machine to give the same
// bits. Bytes: dtype, shape (r rows of c, seen as r·c elements), then per
// operation an opcode and two operand choices among the values so far.
// Besides arithmetic the operations move elements: rev, a row repeated
// down the rows, a column along them, a transpose, iotas, a strided slice.
// Values that flatten a grid are not moved again: that reshape at other
// indices needs division, which native code refuses.
func FuzzNativeKernels(f *testing.F) {
	f.Add([]byte{0, 40, 0, 0, 1, 3, 2, 1, 5, 3, 0, 7, 4, 2, 9, 2, 1, 10, 3, 4})
	f.Add([]byte{1, 17, 2, 1, 0, 6, 2, 2, 11, 0, 1, 12, 3, 3, 8, 4, 1, 1, 5, 0})
	f.Add([]byte{2, 33, 13, 0, 0, 14, 1, 2, 0, 3, 4, 15, 5, 1, 4, 6, 6, 3, 2, 7})
	f.Add([]byte{0, 200, 9, 0, 1, 9, 2, 0, 4, 3, 4, 6, 5, 5, 7, 6, 0, 12, 7, 1, 3, 8, 9})
	f.Add([]byte{0, 130, 18, 0, 1, 19, 2, 0, 20, 3, 1, 21, 4, 2, 22, 5, 1, 23, 6, 0, 0, 7, 8})
	f.Add([]byte{3, 251, 22, 0, 1, 19, 2, 3, 0, 3, 4, 20, 1, 0, 2, 5, 6, 21, 7, 1, 10, 8, 2, 12, 9, 3})
	f.Add([]byte{1, 99, 21, 0, 0, 18, 1, 1, 19, 0, 2, 2, 3, 4, 23, 0, 0, 22, 1, 0, 3, 5, 6})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) < 3 || len(prog) > 200 {
			return
		}
		dts := []trace.DType{trace.Float32, trace.Float64, trace.Float32, trace.Int32}
		dt, other := dts[int(prog[0])%4], trace.Float64
		if dt == trace.Float64 {
			other = trace.Float32
		}
		mixed, isInt := prog[0]%4 == 2, dt == trace.Int32
		r, c := 1+int(prog[1])%50, 1+int(prog[1])/50
		n := r * c
		rng := rand.New(rand.NewPCG(uint64(len(prog)), uint64(prog[1])))
		jb := newJaxprBuilder(t)
		vals := []*trace.Var{jb.input(dt, n), jb.input(dt, n), jb.broadcast(jb.input(dt), []int{n})}
		ins := []*Buffer{randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false)}
		input := func(shape ...int) *trace.Var {
			ins = append(ins, randomBuffer(t, rng, dt, false, shape...))
			return jb.input(dt, shape...)
		}
		flat := func(x *trace.Var) *trace.Var { return jb.bind("reshape", trace.Params{"new_sizes": []int{n}}, x) }
		grid := func(x *trace.Var) *trace.Var { return jb.bind("reshape", trace.Params{"new_sizes": []int{r, c}}, x) }
		var preds []*trace.Var
		pick := func(b byte) *trace.Var { return vals[int(b)%len(vals)] }
		flattened := map[*trace.Var]bool{} // computed from a flattened grid
		for p := prog[2:]; len(p) >= 3; p = p[3:] {
			x, y := pick(p[1]), pick(p[2])
			var v *trace.Var
			op := p[0] % 24
			if isInt && (op == 3 || op == 7 || op == 8 || op == 9 || op == 14 || op == 16 || op == 17) {
				continue // float-only operations
			}
			if (op == 18 || op == 21) && (flattened[x] || flattened[y]) {
				continue
			}
			switch op {
			case 0:
				v = jb.bind("add", nil, x, y)
			case 1:
				v = jb.bind("sub", nil, x, y)
			case 2:
				v = jb.bind("mul", nil, x, y)
			case 3:
				v = jb.bind("div", nil, x, y)
			case 4:
				v = jb.bind("max", nil, x, y)
			case 5:
				v = jb.bind("min", nil, x, y)
			case 6:
				v = jb.bind("neg", nil, x)
			case 7:
				v = jb.bind("abs", nil, x)
			case 8:
				v = jb.bind("sqrt", nil, x)
			case 9:
				v = jb.bind("integer_pow", trace.Params{"y": int(p[2]%7) - 3}, x)
			case 10, 11:
				cmp := []string{"eq", "ne", "lt", "le", "gt", "ge"}[int(p[2])%6]
				pred := jb.bind(cmp, nil, x, pick(p[1]+p[2]))
				flattened[pred] = flattened[x] || flattened[pick(p[1]+p[2])]
				preds = append(preds, pred)
				continue
			case 12:
				if len(preds) == 0 {
					continue
				}
				pred := preds[int(p[1])%len(preds)]
				v = jb.bind("select_n", nil, pred, x, y)
				flattened[v] = flattened[pred]
			case 13:
				if isInt {
					v = jb.bind("add", nil, x, jb.lit(int(int8(p[2])), dt))
				} else {
					v = jb.bind("add", nil, x, jb.lit(float64(int8(p[2]))/4, dt))
				}
			case 14:
				if !mixed {
					continue
				}
				v = jb.convert(jb.bind("mul", nil, jb.convert(x, other), jb.convert(y, other)), dt)
			case 15:
				v = jb.bind("square", nil, x)
			case 16, 17:
				fns := append(nativeMathNames(), "atan2", "pow")
				if dt == trace.Float64 {
					fns = nativeMath64Names()
				}
				scaled := jb.bind("mul", nil, x, jb.lit(math.Ldexp(1, int(p[2]%40)-8), dt))
				if fn := fns[int(p[1]+p[2])%len(fns)]; fn == "atan2" || fn == "pow" {
					v = jb.bind(fn, nil, scaled, y)
				} else {
					v = jb.bind(fn, nil, scaled)
				}
			case 18:
				v = jb.bind("rev", trace.Params{"dimensions": []int{0}}, x)
			case 19: // a row, repeated down the rows
				v = jb.bind("add", nil, x, flat(jb.broadcast(input(c), []int{r, c}, 1)))
			case 20: // a column, repeated along each row
				v = jb.bind("mul", nil, x, flat(jb.broadcast(input(r), []int{r, c}, 0)))
			case 21:
				v = flat(jb.bind("transpose", trace.Params{"permutation": []int{1, 0}}, jb.bind("reshape", trace.Params{"new_sizes": []int{c, r}}, x)))
				v = jb.bind("sub", nil, v, flat(jb.bind("rev", trace.Params{"dimensions": []int{1}}, grid(y))))
			case 22: // iotas in int32, combined and converted
				rows := jb.bind("iota", trace.Params{"dtype": trace.Int32, "shape": []int{r, c}, "dimension": 0})
				cols := jb.bind("iota", trace.Params{"dtype": trace.Int32, "shape": []int{r, c}, "dimension": 1})
				idx := jb.bind("add", nil, jb.bind("mul", nil, rows, jb.lit(int(p[2])-100, trace.Int32)), cols)
				v = jb.bind("add", nil, x, jb.convert(flat(idx), dt))
			case 23: // every other element of a longer input
				start := int(p[2] % 3)
				big := input(2*n + 3)
				v = jb.bind("max", nil, x, jb.bind("slice", trace.Params{"start_indices": []int{start}, "limit_indices": []int{start + 2*n - 1}, "strides": []int{2}}, big))
			}
			flattened[v] = flattened[v] || flattened[x] || flattened[y] || op >= 19 && op <= 22
			vals = append(vals, v)
		}
		outs := []*trace.Var{vals[len(vals)-1], vals[len(vals)/2]}
		j := jb.build(outs...)
		// Native code must take every kernel but those past its limits
		// (pointer or vector registers), which the inputs of moved
		// values can reach.
		want := true
		if nativeEnabled() {
			_, err := compileNative(fusedProgramOf(j, jit.LoopKernel, trace.Shape{n}).Kernels[0], nil)
			want = err == nil || !strings.Contains(err.Error(), "streams") && !strings.Contains(err.Error(), "registers")
		}
		runBothWays(t, "fuzzed kernel", j, trace.Shape{n}, want, ins...)
	})
}

// JAXSH_DUMP=kernels shows each native kernel's listing on stderr.
func TestNativeDumpListing(t *testing.T) {
	if !nativeEnabled() {
		t.Skip("no native code on this machine")
	}
	t.Setenv("JAXSH_DUMP", "kernels")
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32, 40)
	j := jb.build(jb.bind("add", nil, x, jb.lit(1.5, trace.Float32)))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	_, cerr := compileNative(fusedProgramOf(j, jit.LoopKernel, trace.Shape{40}).Kernels[0], nil)
	os.Stderr = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if cerr != nil {
		t.Fatal(cerr)
	}
	for _, want := range []string{
		"native code for the loop kernel over (40,)",
		"; 16 lanes; 1 values before the loop, 2 per vector\n",
		"\tvbroadcastss zmm0, [rip+const0]\n",
		"\tvmovups zmm1, [rsi+rcx*4]\n\tvaddps zmm1, zmm1, zmm0\n\tvmovups [rdx+rcx*4], zmm1\n",
		"\tvmovups [rdx+rcx*4]{k1}, zmm1\n",
		"\tvzeroupper\n\tret\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
}
