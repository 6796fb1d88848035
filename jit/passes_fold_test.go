package jit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// testEvaluator computes a few primitives in float64, enough to check
// what folding does with results (not the backends' arithmetic).
type testEvaluator struct{ calls []string }

func (ev *testEvaluator) Evaluate(e *trace.Eqn, in []*Constant) ([]*Constant, error) {
	ev.calls = append(ev.calls, e.Prim.Name)
	out := e.Out[0].Aval()
	res := &Constant{AVal: out, Data: make([]byte, bytesOf(out))}
	at := func(k *Constant, i int) float64 {
		if k.AVal.Size() == 1 {
			i = 0
		}
		switch v := element(k.Data[i*k.AVal.DType.Size():], k.AVal.DType).(type) {
		case int64:
			return float64(v)
		case float64:
			return v
		case bool:
			if v {
				return 1
			}
		}
		return 0
	}
	for i := 0; i < out.Size(); i++ {
		var v float64
		switch e.Prim.Name {
		case "add":
			v = at(in[0], i) + at(in[1], i)
		case "mul":
			v = at(in[0], i) * at(in[1], i)
		case "sin":
			v = math.Sin(at(in[0], i))
		case "convert_element_type", "reshape":
			v = at(in[0], i)
		case "iota":
			v = float64(i) // 1-D only
		default:
			return nil, fmt.Errorf("test evaluator: no %s", e.Prim.Name)
		}
		var x any = v
		if out.DType.IsInteger() {
			x = int64(v)
		}
		putElement(res.Data[i*out.DType.Size():], out.DType, x)
	}
	return []*Constant{res}, nil
}

func TestConstantFolding(t *testing.T) {
	f32, i32 := trace.Float32, trace.Int32
	tests := []struct {
		name     string
		build    func(b *jb) *trace.Jaxpr
		embed    bool
		captured int
		want     string
		refused  string // the refusals reported, one per line
	}{{
		name: "scalar arithmetic on literals becomes a literal, and its users see it",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			s := b.op("add", nil, lit(t, 2.0, f32, true), lit(t, 3.0, f32, true))
			return b.build(b.op("mul", nil, x, s))
		},
		want: "{ lambda ; a:f32[3]. let b:f32[3] = mul a 5.0:f32[] in (b,) }",
	}, {
		name: "a small array result becomes an embedded constant, which later folds read",
		build: func(b *jb) *trace.Jaxpr {
			i := b.op("iota", iotaP(i32, []int{4}, 0))
			return b.build(b.op("mul", nil, i, lit(t, 2, i32, false)))
		},
		embed: true,
		want:  "{ lambda a:i32[4] b:i32[4] ; . let  in (b,) }",
	}, {
		name: "without embedded constants, a non-uniform array stays computed",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("iota", iotaP(i32, []int{4}, 0)))
		},
		want: "{ lambda ; . let a:i32[4] = iota[dimension=0 dtype=int32 shape=(4,)] in (a,) }",
	}, {
		name: "a uniform array becomes a splat",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("reshape", reshapeP(1, 1), lit(t, 2.0, f32, false)))
		},
		want: "{ lambda ; . let\n    a:f32[1,1] = broadcast_in_dim[broadcast_dimensions=() shape=(1, 1)] 2.0:f32[]\n  in (a,) }",
	}, {
		name: "over 1 KiB is refused and reported; what reads it is not a candidate",
		build: func(b *jb) *trace.Jaxpr {
			i := b.op("iota", iotaP(i32, []int{257}, 0))
			return b.build(b.op("mul", nil, i, lit(t, 2, i32, false)))
		},
		embed:   true,
		want:    "{ lambda ; . let\n    a:i32[257] = iota[dimension=0 dtype=int32 shape=(257,)]\n    b:i32[257] = mul a 2:i32[]\n  in (b,) }",
		refused: "not folding iota at <unknown>: its i32[257] result would take 1028 bytes, over the 1024-byte limit\n",
	}, {
		name: "captured constants, effects and splats are never folded",
		build: func(b *jb) *trace.Jaxpr {
			c := b.constant("device array", f32, 3)
			b.op("debug_print", trace.Params{"fmt": "{}", "ordered": false}, lit(t, 1.0, f32, true))
			return b.build(b.op("sin", nil, c), b.op("broadcast_in_dim", bcastP([]int{3}), lit(t, 1.0, f32, false)))
		},
		captured: 1,
		embed:    true,
		want:     "{ lambda a:f32[3] ; . let\n    _:tok = debug_print[fmt='{}' ordered=False] 1.0:f32[]\n    b:f32[3] = sin a\n    c:f32[3] = broadcast_in_dim[broadcast_dimensions=() shape=(3,)] 1.0:f32[]\n  in (b, c) } : { Unordered(print) }",
	}, {
		name: "what the evaluator cannot compute stays",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("exp", nil, lit(t, 1.0, f32, false)))
		},
		want: "{ lambda ; . let a:f32[] = exp 1.0:f32[] in (a,) }",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var refused strings.Builder
			opts := Options{Evaluator: &testEvaluator{}, EmbedConstants: tc.embed,
				OnRefusedFold: func(r RefusedFold) { refused.WriteString(r.String() + "\n") }}
			j := tc.build(newJB(t))
			c := &compilation{opts: &opts, numCapturedConsts: tc.captured}
			out, err := foldConstants(c, j)
			if err != nil {
				t.Fatal(err)
			}
			if err := out.Verify(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if refused.String() != tc.refused {
				t.Errorf("refusals:\n%s\nwant\n%s", refused.String(), tc.refused)
			}
		})
	}
}

// The values written for folded results are the evaluator's, in each
// dtype's layout, and read back exactly (float16 and bfloat16 included).
func TestConstantLayoutRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		dt trace.DType
		v  any
	}{
		{trace.Bool, true}, {trace.Int8, int64(-5)}, {trace.Int16, int64(-300)}, {trace.Int32, int64(-70000)},
		{trace.Int64, int64(math.MinInt64)}, {trace.Uint8, int64(250)}, {trace.Uint16, int64(65535)},
		{trace.Uint32, int64(math.MaxUint32)}, {trace.Float16, 0.0009765625}, {trace.Float16, math.Copysign(0, -1)},
		{trace.BFloat16, -3.5}, {trace.Float32, 0.1875}, {trace.Float64, math.Pi},
		{trace.Complex64, complex(1.5, -2)}, {trace.Complex128, complex(math.E, 1e-300)},
	} {
		buf := make([]byte, tc.dt.Size())
		putElement(buf, tc.dt, tc.v)
		got := element(buf, tc.dt)
		if fmt.Sprint(got) != fmt.Sprint(tc.v) || (tc.dt.IsFloat() && math.Signbit(got.(float64)) != math.Signbit(tc.v.(float64))) {
			t.Errorf("%s: %v came back as %v", tc.dt, tc.v, got)
		}
	}
	// Rounding to a narrow float is to nearest even, from float64.
	buf := make([]byte, 2)
	putElement(buf, trace.Float16, 1+1.0/2048) // halfway between 1 and 1+2^-10
	if got := element(buf, trace.Float16).(float64); got != 1 {
		t.Errorf("float16(1+2^-11) = %v, want 1 (ties to even)", got)
	}
}
