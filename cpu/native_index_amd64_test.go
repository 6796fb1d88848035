package cpu

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Index maps and integer ops in native code, each against the block
// machine bit for bit, at sizes around the vector width, the chunk and
// the split across workers (index values carried across vectors and
// chunks).

var nativeIndexRows = []int{1, 3, 17, nativeChunk/5 + 3, 3*grainElements/5 + 1}

func TestNativeIndexMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	type indexCase struct {
		name  string
		in    func(n int) [][]int
		build func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var
	}
	cases := []indexCase{
		{"strided slice", func(n int) [][]int { return [][]int{{2*n + 3, 9}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			return jb.bind("slice", trace.Params{"start_indices": []int{3, 1}, "limit_indices": []int{2*n + 3, 9}, "strides": []int{2, 3}}, x[0])
		}},
		{"rev", func(n int) [][]int { return [][]int{{n, 4, 5}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			return jb.bind("rev", trace.Params{"dimensions": []int{0, 2}}, x[0])
		}},
		{"transpose", func(n int) [][]int { return [][]int{{6, n, 5}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			return jb.bind("transpose", trace.Params{"permutation": []int{2, 0, 1}}, x[0])
		}},
		{"reshape split", func(n int) [][]int { return [][]int{{4 * n, 7}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			return jb.bind("reshape", trace.Params{"new_sizes": []int{4, n, 7}}, x[0])
		}},
		{"copy and squeeze", func(n int) [][]int { return [][]int{{1, n, 1}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			return jb.bind("copy", nil, jb.bind("squeeze", trace.Params{"dimensions": []int{0, 2}}, x[0]))
		}},
		// A row repeated down the rows (a period of 5, 2 and 16 elements)
		// and a column repeated along them.
		{"row broadcasts", func(n int) [][]int { return [][]int{{n, 5}, {5}, {n, 2}, {16}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			a := jb.bind("add", nil, x[0], jb.broadcast(x[1], []int{n, 5}, 1))
			row := jb.bind("slice", trace.Params{"start_indices": []int{0, 0}, "limit_indices": []int{1, 2}, "strides": nil}, x[2])
			b := jb.bind("mul", nil, x[2], row)
			c := jb.bind("slice", trace.Params{"start_indices": []int{0, 3}, "limit_indices": []int{n, 5}, "strides": nil}, a)
			d := jb.bind("add", nil, b, c)
			e := jb.broadcast(x[3], []int{n, 2, 16}, 2)
			return jb.bind("mul", nil, jb.broadcast(d, []int{n, 2, 16}, 0, 1), e)
		}},
		{"column broadcasts", func(n int) [][]int { return [][]int{{n, 3, 5}, {n}, {n, 3}} }, func(jb *jaxprBuilder, n int, x []*trace.Var) *trace.Var {
			a := jb.bind("sub", nil, x[0], jb.broadcast(x[1], []int{n, 3, 5}, 0))
			return jb.bind("mul", nil, a, jb.broadcast(x[2], []int{n, 3, 5}, 0, 1))
		}},
	}
	for _, dt := range []trace.DType{f32, f64, i32, i64} {
		if !nativeDType(dt) {
			continue
		}
		for _, c := range cases {
			for _, n := range nativeIndexRows {
				jb := newJaxprBuilder(t)
				var ins []*trace.Var
				var bufs []*Buffer
				for _, s := range c.in(n) {
					ins = append(ins, jb.input(dt, s...))
					bufs = append(bufs, randomBuffer(t, rng, dt, false, s...))
				}
				y := c.build(jb, n, ins)
				// An op after the index map, on itself reversed too.
				shape := y.Aval().Shape
				z := jb.bind("max", nil, y, jb.bind("rev", trace.Params{"dimensions": []int{0}}, y))
				runBothWays(t, fmt.Sprintf("%s %s n=%d", c.name, dt, n), jb.build(z, y), shape, true, bufs...)
			}
		}
	}
}

// Iotas along each dimension of shapes whose extents are powers of two,
// odd, and even but not powers of two, in every dtype native code has.
func TestNativeIota(t *testing.T) {
	for _, shape := range [][]int{{300, 3}, {7, 12, 5}, {2, 8, 16}, {nativeChunk/24 + 1, 6, 4}, {1, 1, 9}} {
		for _, dt := range []trace.DType{i32, i64, f32, f64} {
			if !nativeDType(dt) {
				continue
			}
			jb := newJaxprBuilder(t)
			var sum *trace.Var
			for d := range shape {
				io := jb.bind("iota", trace.Params{"dtype": dt, "shape": shape, "dimension": d})
				if sum == nil {
					sum = io
				} else {
					sum = jb.bind("add", nil, jb.bind("mul", nil, sum, jb.lit(1000, dt)), io)
				}
			}
			runBothWays(t, fmt.Sprintf("iota %s %v", dt, shape), jb.build(sum), shape, true)
		}
	}
}

// The study's f_well_fused: an iota down the rows, the first row
// repeated, int32 arithmetic converted to float32, sin.
func TestNativeWellFused(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 8, 513, nativeChunk + 9, 3 * grainElements} {
		jb := newJaxprBuilder(t)
		runBothWays(t, fmt.Sprintf("f_well_fused n=%d", n), jb.build(wellFused(jb, f32, n)), trace.Shape{n, 2}, true,
			randomBuffer(t, rng, f32, true, n, 2))
	}
}

// Integer arithmetic wraps as on the block machine; comparisons, selects
// and conversions between int32, int64, float32 and float64.
func TestNativeIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, dt := range []trace.DType{i32, i64} {
		if !nativeDType(dt) {
			continue
		}
		for _, n := range []int{1, 15, 16, 100, nativeChunk + 3} {
			jb := newJaxprBuilder(t)
			x, y := jb.input(dt, n), jb.input(dt, n)
			a := jb.bind("add", nil, jb.bind("mul", nil, x, jb.lit(-7, dt)), y)
			b := jb.bind("sub", nil, jb.bind("max", nil, a, y), jb.bind("min", nil, x, jb.bind("neg", nil, y)))
			c := jb.bind("xor", nil, jb.bind("and", nil, b, x), jb.bind("or", nil, jb.bind("not", nil, y), jb.lit(5, dt)))
			d := jb.bind("select_n", nil, jb.bind("lt", nil, c, x), jb.bind("square", nil, c), b)
			e := d
			for i, cmp := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
				p := jb.bind(cmp, nil, d, jb.bind("mul", nil, x, jb.lit(3, dt)))
				e = jb.bind("select_n", nil, p, e, jb.bind("add", nil, e, jb.lit(i+1, dt)))
			}
			other := i64
			if dt == i64 {
				other = i32
			}
			f := jb.convert(jb.bind("add", nil, jb.convert(e, other), jb.lit(1, other)), dt)
			g := jb.bind("add", nil, jb.convert(f, f32), jb.convert(jb.convert(f, f64), f32))
			runBothWays(t, fmt.Sprintf("integers %s n=%d", dt, n), jb.build(e, f, g, jb.convert(f, f64)), trace.Shape{n}, true,
				randomBuffer(t, rng, dt, false, n), randomBuffer(t, rng, dt, false, n))
		}
	}
}

// A compiled loop whose body repeats a row and computes an iota: its code
// reads the index words and input addresses of the argument block the
// loop binds once.
func TestCompiledLoopWithIndexMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	x, k := randomBuffer(t, rng, trace.Float32, true, 37, 3), randomBuffer(t, rng, trace.Float32, true, 3)
	checkLoop(t, "a row and an iota in a loop body", func(jb *jaxprBuilder) *trace.Jaxpr {
		xv, kv := jb.input(trace.Float32, 37, 3), jb.input(trace.Float32, 3)
		grid := trace.AVal{Shape: trace.Shape{37, 3}, DType: trace.Float32}
		bd := body(t, []trace.AVal{f32s(3), i32Scalar, grid}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			row := ib.broadcast(in[0], []int{37, 3}, 1)
			io := ib.convert(ib.bind("iota", trace.Params{"dtype": trace.Int32, "shape": []int{37, 3}, "dimension": 0}), trace.Float32)
			next := ib.bind("add", nil, ib.bind("mul", nil, in[2], ib.lit(0.5, trace.Float32)), ib.bind("add", nil, row, io))
			return []trace.Atom{ib.bind("add", nil, in[1], ib.lit(1, trace.Int32)), next}
		})
		return jb.build(scanOver(jb, bd, 9, false, 1, 2, kv, jb.lit(0, trace.Int32), xv)...)
	}, wayTrampoline, k, x)
}

// JAXSH_DUMP=kernels shows the index arithmetic of f_well_fused: the
// lanes' linear indices, the row (a shift), the iota's int32 multiply and
// conversion, and the first row gathered once before the loop.
func TestNativeDumpShowsIndexArithmetic(t *testing.T) {
	if !nativeEnabled() {
		t.Skip("no native code on this machine")
	}
	t.Setenv("JAXSH_DUMP", "kernels")
	jb := newJaxprBuilder(t)
	j := jb.build(wellFused(jb, f32, 1000))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	_, cerr := compileNative(fusedProgramOf(j, jit.LoopKernel, trace.Shape{1000, 2}).Kernels[0], nil)
	os.Stderr = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if cerr != nil {
		t.Fatal(cerr)
	}
	listing := string(out)
	loop := strings.Index(listing, "L0:")
	if loop < 0 {
		t.Fatalf("no loop in the listing:\n%s", listing)
	}
	for _, want := range []string{"vpbroadcastd", "vmovdqu32", "vpgatherdd"} {
		if i := strings.Index(listing, want); i < 0 || i > loop {
			t.Errorf("listing lacks %q before the loop:\n%s", want, listing)
		}
	}
	for _, want := range []string{"vpsrld", "vpmulld", "vcvtdq2ps", "vpaddd"} {
		if i := strings.Index(listing[loop:], want); i < 0 {
			t.Errorf("listing lacks %q in the loop:\n%s", want, listing)
		}
	}
	if strings.Contains(listing[loop:], "vpgatherdd") {
		t.Errorf("the first row is gathered in the loop, not once before it:\n%s", listing)
	}
}
