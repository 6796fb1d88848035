package cpu

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The executor follows the buffer plan: per Execute it takes exactly the
// arena and the result buffers memory_analysis reports (temp + output −
// alias bytes), and its results equal those of an unfused program run with
// no plan (every value in a buffer of its own).

const planN = 4096

type planCase struct {
	name   string
	build  func(jb *jaxprBuilder) *trace.Jaxpr
	donate []bool
	check  func(t *testing.T, p *jit.Program)
}

func f32Lit(jb *jaxprBuilder, v float64) *trace.Literal { return jb.lit(v, trace.Float32) }

var planCases = []planCase{{
	name: "f_well_fused",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN, 2)
		a := jb.bind("mul", nil, x, f32Lit(jb, 2))
		ar := jb.bind("iota", trace.Params{"dtype": trace.Int32, "shape": []int{planN}, "dimension": 0})
		col := jb.broadcast(ar, []int{planN, 1}, 0)
		bb := jb.bind("mul", nil, col, jb.lit(3, trace.Int32))
		x0 := jb.bind("squeeze", trace.Params{"dimensions": []int{0}},
			jb.bind("slice", trace.Params{"start_indices": []int{0, 0}, "limit_indices": []int{1, 2}, "strides": nil}, x))
		x0r := jb.broadcast(x0, []int{1, 2}, 1)
		c := jb.bind("sub", nil, jb.bind("add", nil, x0r, x), a)
		s := jb.bind("add", nil, jb.bind("sin", nil, a), jb.bind("integer_pow", trace.Params{"y": 2}, a))
		s = jb.bind("add", nil, s, jb.convert(bb, trace.Float32))
		return jb.build(jb.bind("add", nil, s, c))
	},
}, {
	name: "f_sum_jax",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN, 2)
		iota := func() *trace.Var {
			i := jb.bind("iota", trace.Params{"dtype": trace.Int32, "shape": []int{planN}, "dimension": 0})
			return jb.broadcast(i, []int{planN, 1}, 0)
		}
		kvm := jb.bind("concatenate", trace.Params{"dimension": 1}, iota(), iota())
		h := jb.bind("mul", nil, x, f32Lit(jb, 2))
		m := jb.bind("mul", nil, jb.convert(kvm, trace.Float32), x)
		s := jb.broadcast(jb.reduce("reduce_sum", m, 1), []int{planN, 1}, 0)
		return jb.build(jb.bind("add", nil, h, s))
	},
}, {
	name: "optimization_barrier",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN, 2)
		s := jb.bind("optimization_barrier", nil, jb.bind("add", nil, jb.bind("sin", nil, x), f32Lit(jb, 3)))
		return jb.build(jb.bind("add", nil, s, jb.bind("exp", nil, s)))
	},
}, {
	// Three opaque temporaries in a row: the first and third never live
	// at once and share arena bytes.
	name: "disjoint_temporaries",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN)
		cum := func(v *trace.Var) *trace.Var {
			return jb.bind("cumsum", trace.Params{"axis": 0, "reverse": false}, v)
		}
		a := cum(x)
		b := cum(jb.bind("sin", nil, a))
		c := cum(jb.bind("cos", nil, b))
		return jb.build(jb.reduce("reduce_max", jb.bind("exp", nil, c), 0))
	},
	check: func(t *testing.T, p *jit.Program) {
		sum := 0
		for _, s := range p.Slices {
			if s.Kind == jit.TempSlice {
				sum += s.Size
			}
		}
		if p.TempSize == 0 || p.TempSize >= sum {
			t.Errorf("arena of %d bytes for temporaries of %d: no reuse to test\n%s", p.TempSize, sum, p)
		}
	},
}, {
	name: "donated",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN)
		y := jb.input(trace.Float32, planN)
		return jb.build(jb.bind("add", nil, jb.bind("mul", nil, x, f32Lit(jb, 2)), y), jb.bind("sin", nil, y))
	},
	donate: []bool{true, false},
	check: func(t *testing.T, p *jit.Program) {
		if a := p.MemoryAnalysis().AliasSizeInBytes; a != planN*4 {
			t.Errorf("alias_size_in_bytes = %d, want %d\n%s", a, planN*4, p)
		}
	},
}, {
	// The study's f_fft3d_transposed, as jnp lowers it: opaque fft kernels
	// around an elementwise one.
	name: "fft3d_transposed",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, 2, 16, 16, 8)
		a := jb.bind("fft", trace.Params{"fft_type": trace.FFTRealForward, "fft_lengths": []int{16, 16, 8}}, x)
		b := jb.bind("fft", trace.Params{"fft_type": trace.FFTRealInverse, "fft_lengths": []int{16, 16, 8}}, jb.bind("add", nil, a, a))
		return jb.build(jb.bind("add", nil, b, f32Lit(jb, 3)))
	},
}, {
	// Results that are a literal, a folded constant listed twice, and an
	// argument passed through.
	name: "constant_results",
	build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, 8)
		i := jb.bind("iota", trace.Params{"dtype": trace.Float32, "shape": []int{8}, "dimension": 0})
		c := jb.bind("exp", nil, i)
		return jb.build(c, x, jb.bind("add", nil, x, c), c)
	},
}}

func TestExecuteFollowsPlan(t *testing.T) {
	var mu sync.Mutex
	taken := map[*executable][]int{}
	execAllocHook = func(x *executable, n int) {
		mu.Lock()
		taken[x] = append(taken[x], n)
		mu.Unlock()
	}
	defer func() { execAllocHook = nil }()
	for _, c := range planCases {
		t.Run(c.name, func(t *testing.T) {
			j := c.build(newJaxprBuilder(t))
			opts := jit.OptionsFor(testDevice())
			opts.Donate = c.donate
			p, err := jit.CompileWith(j, opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				c.check(t, p)
			}
			ref, err := jit.Compile(j)
			if err != nil {
				t.Fatal(err)
			}
			unplanned := *ref
			unplanned.Slices = nil
			rng := rand.New(rand.NewPCG(1, 2))
			in := make([]*Buffer, len(j.InVars))
			for i, v := range j.InVars {
				in[i] = randomBuffer(t, rng, v.Aval().DType, true, v.Aval().Shape...)
			}
			want := execute(t, &unplanned, in)
			exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
			if err != nil {
				t.Fatal(err)
			}
			m := p.MemoryAnalysis()
			expect := m.TempSizeInBytes + m.OutputSizeInBytes - m.AliasSizeInBytes
			t.Logf("%d kernels; temp %d + output %d - alias %d = %d bytes", p.KernelCount(),
				m.TempSizeInBytes, m.OutputSizeInBytes, m.AliasSizeInBytes, expect)
			// Twice (the second reuses a stale arena), then concurrently.
			for run := 0; run < 2; run++ {
				got := runPlanned(t, exe, in, c.donate)
				for i := range want {
					if !sameBuffers(got[i], want[i]) {
						t.Errorf("run %d: output %d differs from the unplanned run: %s", run, i, firstDifference(got[i], want[i]))
					}
				}
			}
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() { runPlanned(t, exe, in, c.donate) })
			}
			wg.Wait()
			x := exe.(*executable)
			mu.Lock()
			defer mu.Unlock()
			if len(taken[x]) != 6 {
				t.Fatalf("%d executions seen, want 6", len(taken[x]))
			}
			for _, n := range taken[x] {
				if n != expect {
					t.Errorf("Execute took %d bytes; memory_analysis: temp %d + output %d − alias %d = %d\n%s",
						n, m.TempSizeInBytes, m.OutputSizeInBytes, m.AliasSizeInBytes, expect, p)
				}
			}
		})
	}
}

// runPlanned executes exe on copies of the donated inputs (their buffers
// are overwritten), checking that results aliasing an argument are its
// buffer.
func runPlanned(t *testing.T, exe jit.Executable, in []*Buffer, donate []bool) []*Buffer {
	args := make([]jit.Buffer, len(in))
	for i, b := range in {
		if i < len(donate) && donate[i] {
			c := *b
			c.data = append([]byte(nil), b.data...)
			b = &c
		}
		args[i] = b
	}
	res, err := exe.Execute(args, jit.NoHost)
	if err != nil {
		t.Error(err)
		return nil
	}
	p := exe.(*executable)
	out := make([]*Buffer, len(res))
	for i, r := range res {
		out[i] = r.(*Buffer)
		if o := p.outputs[i]; o.copy == nil && p.place[o.slot].kind == placeGiven {
			if a := p.place[o.slot].index; a >= 0 && res[i] != args[a] {
				t.Errorf("output %d lives in argument %d but is another buffer", i, a)
			}
		}
	}
	return out
}
