package cpu

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Compiled loops compute what the per-iteration path computes, bit for
// bit: each case runs with code generation on (bound, and through the loop
// trampoline where every step allows it) and with JAXSH_CPU_CODEGEN=0
// (every iteration a program execution on the block machine), and checks
// which way the loop ran, so that a case cannot pass by falling back.

type loopWay string

const (
	wayTrampoline   loopWay = "trampoline"
	wayBound        loopWay = "bound from Go"
	wayPerIteration loopWay = "per iteration"
)

// runLoopProgram compiles and runs j, reporting how its loop ran.
func runLoopProgram(t *testing.T, j *trace.Jaxpr, in []*Buffer) ([]*Buffer, loopWay) {
	t.Helper()
	way := wayPerIteration
	compiledLoopHook = func(trampoline bool) {
		way = wayBound
		if trampoline {
			way = wayTrampoline
		}
	}
	defer func() { compiledLoopHook = nil }()
	p, err := jit.CompileWith(j, jit.OptionsFor(testDevice()))
	if err != nil {
		t.Fatal(err)
	}
	return execute(t, p, in), way
}

func checkLoop(t *testing.T, name string, build func(jb *jaxprBuilder) *trace.Jaxpr, want loopWay, in ...*Buffer) []*Buffer {
	t.Helper()
	got, way := runLoopProgram(t, build(newJaxprBuilder(t)), in)
	if way != want {
		t.Errorf("%s: the loop ran %s, want %s", name, way, want)
	}
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	ref, refWay := runLoopProgram(t, build(newJaxprBuilder(t)), in)
	t.Setenv("JAXSH_CPU_CODEGEN", "")
	if refWay != wayPerIteration {
		t.Fatalf("%s: with JAXSH_CPU_CODEGEN=0 the loop ran %s", name, refWay)
	}
	for i := range ref {
		if !sameBuffers(got[i], ref[i]) {
			t.Errorf("%s: output %d differs from the per-iteration path: %s", name, i, firstDifference(got[i], ref[i]))
		}
	}
	return got
}

// scanOver binds a scan of body over the operands (consts, carries, xs).
func scanOver(jb *jaxprBuilder, bd *trace.Jaxpr, length int, reverse bool, consts, carry int, operands ...trace.Atom) []*trace.Var {
	return jb.bindAll("scan", trace.Params{"jaxpr": bd, "length": length, "reverse": reverse, "num_consts": consts,
		"num_carry": carry, "unroll": 1}, operands...)
}

func lit(jb *jaxprBuilder, v float64, dt trace.DType) *trace.Literal { return jb.lit(v, dt) }

// affine is c*a + b in c's dtype.
func affine(ib *jaxprBuilder, c trace.Atom, a, b float64) *trace.Var {
	dt := c.Aval().DType
	return ib.bind("add", nil, ib.bind("mul", nil, c, lit(ib, a, dt)), lit(ib, b, dt))
}

func TestCompiledForiLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 3))
	for _, steps := range []int{0, 1, 7, 4099} {
		want := wayTrampoline
		if steps == 0 {
			want = wayPerIteration // nothing to run
		}
		checkLoop(t, "scalar f32", func(jb *jaxprBuilder) *trace.Jaxpr {
			return foriScalar(jb.t, steps, func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom { return affine(ib, c, 1.0000001, 1) })
		}, want, bufferOf(t, trace.Float32, []int{}, 1.5))
	}
	x64 := randomBuffer(t, rng, trace.Float64, true, 37)
	for _, steps := range []int{5, 1001} {
		checkLoop(t, "f64[37]", func(jb *jaxprBuilder) *trace.Jaxpr {
			x := jb.input(trace.Float64, 37)
			bd := body(t, []trace.AVal{i32Scalar, {Shape: trace.Shape{37}, DType: trace.Float64}}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)), affine(ib, in[1], 0.75, 0.5)}
			})
			outs := scanOver(jb, bd, steps, false, 0, 2, jb.lit(0, trace.Int32), x)
			return jb.build(outs...)
		}, wayTrampoline, x64)
	}
	// A const, two float carries of different dtypes, an int64 counter
	// counting down.
	k := randomBuffer(t, rng, trace.Float32, true, 19)
	c := randomBuffer(t, rng, trace.Float32, true, 19)
	checkLoop(t, "consts and mixed carries", func(jb *jaxprBuilder) *trace.Jaxpr {
		kv, cv, dv := jb.input(trace.Float32, 19), jb.input(trace.Float32, 19), jb.input(trace.Float64)
		bd := body(t, []trace.AVal{f32s(19), {Shape: trace.Shape{}, DType: trace.Int64}, f32s(19), {Shape: trace.Shape{}, DType: trace.Float64}},
			func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("sub", nil, in[1], ib.lit(3, trace.Int64)),
					ib.bind("add", nil, ib.bind("mul", nil, in[2], in[0]), lit(ib, 1, trace.Float32)),
					affine(ib, in[3], 1.0001, -0.5)}
			})
		outs := scanOver(jb, bd, 333, false, 1, 3, kv, jb.lit(1000, trace.Int64), cv, dv)
		return jb.build(outs...)
	}, wayTrampoline, k, c, bufferOf(t, trace.Float64, []int{}, 0.25))
	// A body longer than one call of its code covers runs its steps from
	// Go.
	big := randomBuffer(t, rng, trace.Float32, true, 1<<17)
	checkLoop(t, "f32[2^17]", func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, 1<<17)
		bd := body(t, []trace.AVal{i32Scalar, f32s(1 << 17)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)), affine(ib, in[1], 0.5, 1)}
		})
		return jb.build(scanOver(jb, bd, 3, false, 0, 2, jb.lit(0, trace.Int32), x)...)
	}, wayBound, big)
}

func TestCompiledScansWithRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 4))
	xs := randomBuffer(t, rng, trace.Float32, true, 13, 20)
	c := randomBuffer(t, rng, trace.Float32, true, 20)
	for _, reverse := range []bool{false, true} {
		checkLoop(t, "xs and ys", func(jb *jaxprBuilder) *trace.Jaxpr {
			xv, cv := jb.input(trace.Float32, 13, 20), jb.input(trace.Float32, 20)
			bd := body(t, []trace.AVal{f32s(20), f32s(20)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				next := ib.bind("add", nil, ib.bind("mul", nil, in[0], lit(ib, 0.5, trace.Float32)), in[1])
				return []trace.Atom{next, ib.bind("sub", nil, ib.bind("mul", nil, next, lit(ib, 2, trace.Float32)), in[1])}
			})
			return jb.build(scanOver(jb, bd, 13, reverse, 0, 1, cv, xv)...)
		}, wayTrampoline, xs, c)
	}
	// ys that the body computes elsewhere are copied into their rows: the
	// new carry as y (a cumulative scan), an xs row passed through.
	for _, reverse := range []bool{false, true} {
		checkLoop(t, "carry as y", func(jb *jaxprBuilder) *trace.Jaxpr {
			xv, cv := jb.input(trace.Float32, 13, 20), jb.input(trace.Float32, 20)
			bd := body(t, []trace.AVal{f32s(20), f32s(20)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				next := ib.bind("add", nil, ib.bind("mul", nil, in[0], lit(ib, 0.5, trace.Float32)), in[1])
				return []trace.Atom{next, next}
			})
			return jb.build(scanOver(jb, bd, 13, reverse, 0, 1, cv, xv)...)
		}, wayTrampoline, xs, c)
		checkLoop(t, "xs row as y", func(jb *jaxprBuilder) *trace.Jaxpr {
			xv, cv := jb.input(trace.Float32, 13, 20), jb.input(trace.Float32, 20)
			bd := body(t, []trace.AVal{f32s(20), f32s(20)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{affine(ib, in[0], 0.5, 2), in[1]}
			})
			return jb.build(scanOver(jb, bd, 13, reverse, 0, 1, cv, xv)...)
		}, wayTrampoline, xs, c)
	}
	// sin of rows beyond the range its vector code covers: the code flags
	// those iterations and the portable path computes them.
	vals := make([]any, 9*16)
	for i := range vals {
		vals[i] = float64(i%17) - 8.5
		if i/16 == 2 || i/16 == 7 {
			vals[i] = []float64{1e30, math.NaN(), math.Inf(-1), 3e5}[i%4]
		}
	}
	trig := bufferOf(t, trace.Float32, []int{9, 16}, vals...)
	got := checkLoop(t, "sin of rows", func(jb *jaxprBuilder) *trace.Jaxpr {
		xv := jb.input(trace.Float32, 9, 16)
		bd := body(t, []trace.AVal{i32Scalar, f32s(16)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)),
				ib.bind("sin", nil, ib.bind("mul", nil, in[1], lit(ib, 3, trace.Float32)))}
		})
		return jb.build(scanOver(jb, bd, 9, false, 0, 1, jb.lit(0, trace.Int32), xv)...)
	}, wayTrampoline, trig)
	if n := got[0].Element(0).(int64); n != 9 {
		t.Errorf("the counter ended at %d, want 9", n)
	}
}

func TestCompiledWhileLoops(t *testing.T) {
	// The predicate depends on the carry.
	for _, start := range []float64{5000, 999, 0.5, -0.25} {
		checkLoop(t, "while c < 1000", func(jb *jaxprBuilder) *trace.Jaxpr {
			x := jb.input(trace.Float32)
			cond := body(t, []trace.AVal{f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("lt", nil, in[0], lit(ib, 1000, trace.Float32))}
			})
			bd := body(t, []trace.AVal{f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{affine(ib, in[0], 1.5, 1)}
			})
			return jb.build(jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": bd, "body_nconsts": 0}, x)...)
		}, wayTrampoline, bufferOf(t, trace.Float32, []int{}, start))
	}
	// fori_loop with traced bounds: (i, upper, x), consts in both bodies.
	rng := rand.New(rand.NewPCG(20, 5))
	k := randomBuffer(t, rng, trace.Float32, true, 8)
	x := randomBuffer(t, rng, trace.Float32, true, 8)
	for _, upper := range []int{0, 1, 77} {
		checkLoop(t, "while i < upper", func(jb *jaxprBuilder) *trace.Jaxpr {
			kv, xv, uv := jb.input(trace.Float32, 8), jb.input(trace.Float32, 8), jb.input(trace.Int32)
			cond := body(t, []trace.AVal{i32Scalar, i32Scalar, f32s(8)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("lt", nil, in[0], in[1])}
			})
			bd := body(t, []trace.AVal{f32s(8), i32Scalar, i32Scalar, f32s(8)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("add", nil, in[1], ib.lit(1, trace.Int32)), in[2],
					ib.bind("add", nil, ib.bind("mul", nil, in[3], lit(ib, 0.9, trace.Float32)), in[0])}
			})
			outs := jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": bd, "body_nconsts": 1},
				kv, jb.lit(0, trace.Int32), uv, xv)
			return jb.build(outs...)
		}, wayTrampoline, k, x, bufferOf(t, trace.Int32, []int{}, upper))
	}
	// A predicate of more than one comparison runs on the block machine,
	// the loop from Go.
	for _, start := range []float64{0.5, 5000} {
		checkLoop(t, "while i < 50 and c < 1000", func(jb *jaxprBuilder) *trace.Jaxpr {
			xv := jb.input(trace.Float32)
			cond := body(t, []trace.AVal{i32Scalar, f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("and", nil, ib.bind("lt", nil, in[0], ib.lit(50, trace.Int32)),
					ib.bind("lt", nil, in[1], lit(ib, 1000, trace.Float32)))}
			})
			bd := body(t, []trace.AVal{i32Scalar, f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)), affine(ib, in[1], 1.25, 1)}
			})
			return jb.build(jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": bd, "body_nconsts": 0},
				jb.lit(0, trace.Int32), xv)...)
		}, wayBound, bufferOf(t, trace.Float32, []int{}, start))
	}
}

// Carries whose next values go to spares (the plan cannot update them in
// place) alternate between two bindings, bound from Go.
func TestCompiledLoopsWithSwappingCarries(t *testing.T) {
	f64 := trace.AVal{Shape: trace.Shape{}, DType: trace.Float64}
	for _, steps := range []int{1, 12, 13} {
		checkLoop(t, "fibonacci", func(jb *jaxprBuilder) *trace.Jaxpr {
			a, b := jb.input(trace.Float64), jb.input(trace.Float64)
			bd := body(t, []trace.AVal{f64, f64}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{in[1], ib.bind("add", nil, in[0], in[1])}
			})
			return jb.build(scanOver(jb, bd, steps, false, 0, 2, a, b)...)
		}, wayBound, bufferOf(t, trace.Float64, []int{}, 0.0), bufferOf(t, trace.Float64, []int{}, 1.0))
	}
	rng := rand.New(rand.NewPCG(20, 6))
	xs := randomBuffer(t, rng, trace.Float32, true, 13, 20)
	c := randomBuffer(t, rng, trace.Float32, true, 20)
	for _, reverse := range []bool{false, true} {
		checkLoop(t, "exclusive cumulative sum", func(jb *jaxprBuilder) *trace.Jaxpr {
			xv, cv := jb.input(trace.Float32, 13, 20), jb.input(trace.Float32, 20)
			bd := body(t, []trace.AVal{f32s(20), f32s(20)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("add", nil, in[0], in[1]), in[0]}
			})
			return jb.build(scanOver(jb, bd, 13, reverse, 0, 1, cv, xv)...)
		}, wayBound, xs, c)
	}
	for _, limit := range []float64{0.5, 1, 2, 100, 1e6} {
		checkLoop(t, "while b < limit: a, b = b, a + b", func(jb *jaxprBuilder) *trace.Jaxpr {
			lv := jb.input(trace.Float64)
			cond := body(t, []trace.AVal{f64, f64, f64}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind("lt", nil, in[2], in[0])}
			})
			bd := body(t, []trace.AVal{f64, f64}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{in[1], ib.bind("add", nil, in[0], in[1])}
			})
			return jb.build(jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 1, "body_jaxpr": bd, "body_nconsts": 0},
				lv, jb.lit(0.0, trace.Float64), jb.lit(1.0, trace.Float64))...)
		}, wayBound, bufferOf(t, trace.Float64, []int{}, limit))
	}
}

// Loops the compiled path does not take still run, per iteration: a body
// with a step that is not a fused kernel.
func TestLoopsLeftPerIteration(t *testing.T) {
	xs := randomBuffer(t, rand.New(rand.NewPCG(20, 7)), trace.Float32, true, 5, 6)
	checkLoop(t, "cumsum in the body", func(jb *jaxprBuilder) *trace.Jaxpr {
		xv := jb.input(trace.Float32, 5, 6)
		bd := body(t, []trace.AVal{f32s(6), f32s(6)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("add", nil, in[0], ib.bind("cumsum", trace.Params{"axis": 0, "reverse": false}, in[1]))}
		})
		return jb.build(scanOver(jb, bd, 5, false, 0, 1, jb.broadcast(lit(jb, 0, trace.Float32), []int{6}), xv)...)
	}, wayPerIteration, xs)
}

// A long compiled loop stops soon after its cancellation: the trampoline
// returns to Go between bounded runs of iterations, and bound loops check
// between iterations.
func TestCancelStopsACompiledLoop(t *testing.T) {
	infinite := func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32)
		cond := body(t, []trace.AVal{f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("eq", nil, in[0], in[0])} // until NaN: never
		})
		bd := body(t, []trace.AVal{f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{affine(ib, in[0], 1.0000001, 1)}
		})
		return jb.build(jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": bd, "body_nconsts": 0}, x)...)
	}
	for _, tc := range []struct {
		name  string
		build func(*jaxprBuilder) *trace.Jaxpr
		want  loopWay
	}{
		{"fori_loop of 2^50 steps", func(jb *jaxprBuilder) *trace.Jaxpr {
			return foriScalar(t, 1<<50, func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom { return affine(ib, c, 1.0000001, 1) })
		}, wayTrampoline},
		{"endless while", infinite, wayTrampoline},
	} {
		way := wayPerIteration
		compiledLoopHook = func(trampoline bool) {
			way = wayBound
			if trampoline {
				way = wayTrampoline
			}
		}
		p, err := jit.CompileWith(tc.build(newJaxprBuilder(t)), jit.OptionsFor(testDevice()))
		if err != nil {
			t.Fatal(err)
		}
		exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var cancelledAt time.Time
		time.AfterFunc(50*time.Millisecond, func() { cancelledAt = time.Now(); cancel() })
		_, err = exe.Execute([]jit.Buffer{bufferOf(t, trace.Float32, []int{}, 1.0)}, jit.WithLimits(jit.NoHost, ctx, nil))
		late := time.Since(cancelledAt)
		cancel()
		compiledLoopHook = nil
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: Execute = %v, want the cancellation", tc.name, err)
		}
		if late > promptness {
			t.Errorf("%s: Execute returned %v after its cancellation, want under %v", tc.name, late, promptness)
		}
		if way != tc.want {
			t.Errorf("%s: the loop ran %s, want %s", tc.name, way, tc.want)
		}
	}
}
