package cuda

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// A tiny interpreter for the straight-line float64 PTX that ptx_math.go
// generates, so that the transcendental sequences are checked numerically
// without a GPU: each function's PTX is run on many inputs and compared
// with Go's math package. Only the instructions those sequences use are
// known; anything else fails the test.

type interp struct {
	reg map[string]uint64
	t   *testing.T
}

func (m *interp) get(s string) uint64 {
	switch {
	case strings.HasPrefix(s, "0d"):
		v, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			m.t.Fatalf("bad immediate %q", s)
		}
		return v
	case strings.HasPrefix(s, "%"):
		v, ok := m.reg[s]
		if !ok {
			m.t.Fatalf("read of unset register %s", s)
		}
		return v
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		m.t.Fatalf("bad operand %q", s)
	}
	return uint64(v)
}

func (m *interp) f(s string) float64       { return math.Float64frombits(m.get(s)) }
func (m *interp) setF(r string, x float64) { m.reg[r] = math.Float64bits(x) }
func (m *interp) setB(r string, b bool) {
	if b {
		m.reg[r] = 1
	} else {
		m.reg[r] = 0
	}
}

func (m *interp) run(body string) {
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(line), ";")
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		sp := strings.IndexByte(line, ' ')
		op, rest := line[:sp], strings.Split(line[sp+1:], ", ")
		d, a := rest[0], rest[1:]
		switch op {
		case "mov.f64", "mov.b64":
			m.reg[d] = m.get(a[0])
		case "mul.rn.f64":
			m.setF(d, m.f(a[0])*m.f(a[1]))
		case "add.rn.f64":
			m.setF(d, m.f(a[0])+m.f(a[1]))
		case "sub.rn.f64":
			m.setF(d, m.f(a[0])-m.f(a[1]))
		case "div.rn.f64":
			m.setF(d, m.f(a[0])/m.f(a[1]))
		case "fma.rn.f64":
			m.setF(d, math.FMA(m.f(a[0]), m.f(a[1]), m.f(a[2])))
		case "neg.f64":
			m.setF(d, -m.f(a[0]))
		case "abs.f64":
			m.setF(d, math.Abs(m.f(a[0])))
		case "rcp.rn.f64":
			m.setF(d, 1/m.f(a[0]))
		case "sqrt.rn.f64":
			m.setF(d, math.Sqrt(m.f(a[0])))
		case "copysign.f64":
			m.setF(d, math.Copysign(m.f(a[1]), m.f(a[0])))
		case "max.f64", "min.f64":
			x, y := m.f(a[0]), m.f(a[1])
			r := math.Max(x, y)
			if op == "min.f64" {
				r = math.Min(x, y)
			}
			switch { // PTX: a nan operand yields the other
			case math.IsNaN(x):
				r = y
			case math.IsNaN(y):
				r = x
			}
			m.setF(d, r)
		case "cvt.rni.f64.f64":
			m.setF(d, math.RoundToEven(m.f(a[0])))
		case "cvt.rmi.f64.f64":
			m.setF(d, math.Floor(m.f(a[0])))
		case "cvt.rzi.f64.f64":
			m.setF(d, math.Trunc(m.f(a[0])))
		case "cvt.rni.s64.f64", "cvt.rzi.s64.f64":
			x := m.f(a[0])
			if op == "cvt.rni.s64.f64" {
				x = math.RoundToEven(x)
			} else {
				x = math.Trunc(x)
			}
			var v int64
			switch {
			case math.IsNaN(x):
			case x >= 0x1p63:
				v = math.MaxInt64
			case x < -0x1p63:
				v = math.MinInt64
			default:
				v = int64(x)
			}
			m.reg[d] = uint64(v)
		case "cvt.rn.f64.s64":
			m.setF(d, float64(int64(m.get(a[0]))))
		case "add.s64":
			m.reg[d] = m.get(a[0]) + m.get(a[1])
		case "shl.b64":
			m.reg[d] = m.get(a[0]) << m.get(a[1])
		case "shr.u64":
			m.reg[d] = m.get(a[0]) >> m.get(a[1])
		case "and.b64":
			m.reg[d] = m.get(a[0]) & m.get(a[1])
		case "or.b64":
			m.reg[d] = m.get(a[0]) | m.get(a[1])
		case "setp.lt.f64", "setp.gt.f64", "setp.eq.f64", "setp.ne.f64", "setp.le.f64", "setp.nan.f64":
			x, y := m.f(a[0]), m.f(a[1])
			var r bool
			switch op[5:7] {
			case "lt":
				r = x < y
			case "gt":
				r = x > y
			case "eq":
				r = x == y
			case "ne":
				r = x != y && !math.IsNaN(x) && !math.IsNaN(y)
			case "le":
				r = x <= y
			case "na":
				r = math.IsNaN(x) || math.IsNaN(y)
			}
			m.setB(d, r)
		case "setp.ne.s64":
			m.setB(d, m.get(a[0]) != m.get(a[1]))
		case "testp.notanumber.f64":
			m.setB(d, math.IsNaN(m.f(a[0])))
		case "selp.f64":
			if m.get(a[2]) != 0 {
				m.reg[d] = m.get(a[0])
			} else {
				m.reg[d] = m.get(a[1])
			}
		case "and.pred":
			m.setB(d, m.get(a[0]) != 0 && m.get(a[1]) != 0)
		case "or.pred":
			m.setB(d, m.get(a[0]) != 0 || m.get(a[1]) != 0)
		case "not.pred":
			m.setB(d, m.get(a[0]) == 0)
		default:
			m.t.Fatalf("interpreter: unknown instruction %q", line)
		}
	}
}

// evalMath generates fn's float64 sequence and returns it as a Go function.
func evalMath(t *testing.T, gen func(b *builder, x, y string) string) func(x, y float64) float64 {
	b := newBuilder("t")
	x, y := b.f64(), b.f64()
	r := gen(b, x, y)
	body := b.body.String()
	return func(xv, yv float64) float64 {
		m := &interp{reg: map[string]uint64{}, t: t}
		m.setF(x, xv)
		m.setF(y, yv)
		m.run(body)
		return m.f(r)
	}
}

// ulps is the distance between got and want in units of want's last
// place (float64, or float32 when f32).
func ulps(got, want float64, f32 bool) float64 {
	if math.IsNaN(want) || math.IsNaN(got) {
		if math.IsNaN(want) && math.IsNaN(got) {
			return 0
		}
		return math.Inf(1)
	}
	if got == want {
		return 0
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return math.Inf(1)
	}
	e := math.Ilogb(want)
	minExp := -1022
	mant := 52
	if f32 {
		minExp, mant = -126, 23
	}
	e = max(e, minExp)
	return math.Abs(got-want) / math.Ldexp(1, e-mant)
}

func TestTranscendentalSequences(t *testing.T) {
	cases := []struct {
		name   string
		gen    func(b *builder, x, y string) string
		want   func(x, y float64) float64
		lo, hi float64
		maxULP float64 // float64 ulps
	}{
		{"exp", func(b *builder, x, _ string) string { return b.exp64(x) }, refExp, -745, 709.7, 2},
		{"exp2", func(b *builder, x, _ string) string { return b.exp2_64(x) }, func(x, _ float64) float64 { return math.Exp2(x) }, -1074, 1023.9, 2},
		{"log", func(b *builder, x, _ string) string { return b.log64(x) }, refLog, 1e-310, 1e300, 2},
		{"log1p", func(b *builder, x, _ string) string { return b.log1p64(x) }, func(x, _ float64) float64 { return math.Log1p(x) }, -0.999, 1e10, 4},
		{"expm1", func(b *builder, x, _ string) string { return b.expm1_64(x) }, func(x, _ float64) float64 { return math.Expm1(x) }, -40, 700, 4},
		{"sin", func(b *builder, x, _ string) string { return b.sincos64(x, false) }, func(x, _ float64) float64 { return math.Sin(x) }, -1e6, 1e6, 2},
		{"cos", func(b *builder, x, _ string) string { return b.sincos64(x, true) }, func(x, _ float64) float64 { return math.Cos(x) }, -1e6, 1e6, 2},
		{"tanh", func(b *builder, x, _ string) string { return b.tanh64(x) }, func(x, _ float64) float64 { return math.Tanh(x) }, -25, 25, 4},
		{"logistic", func(b *builder, x, _ string) string { return b.logistic64(x) }, func(x, _ float64) float64 { return 1 / (1 + math.Exp(-x)) }, -700, 700, 3},
		{"sinh", func(b *builder, x, _ string) string { return b.sinh64(x) }, func(x, _ float64) float64 { return math.Sinh(x) }, -700, 700, 4},
		{"cosh", func(b *builder, x, _ string) string { return b.cosh64(x) }, func(x, _ float64) float64 { return math.Cosh(x) }, -700, 700, 3},
		{"atan", func(b *builder, x, _ string) string { return b.atan64(x) }, func(x, _ float64) float64 { return math.Atan(x) }, -1e6, 1e6, 2},
		{"asin", func(b *builder, x, _ string) string { return b.asin64(x) }, refAsin, -1, 1, 3},
		{"acos", func(b *builder, x, _ string) string { return b.acos64(x) }, refAcos, -1, 1, 3},
		{"asinh", func(b *builder, x, _ string) string { return b.asinh64(x) }, func(x, _ float64) float64 { return math.Asinh(x) }, -1e300, 1e300, 4},
		{"acosh", func(b *builder, x, _ string) string { return b.acosh64(x) }, func(x, _ float64) float64 { return math.Acosh(x) }, 1, 1e300, 4},
		{"atanh", func(b *builder, x, _ string) string { return b.atanh64(x) }, func(x, _ float64) float64 { return math.Atanh(x) }, -1, 1, 4},
		{"cbrt", func(b *builder, x, _ string) string { return b.cbrt64(x) }, func(x, _ float64) float64 { return math.Cbrt(x) }, -1e300, 1e300, 2},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := evalMath(t, c.gen)
			worst, at := 0.0, 0.0
			check := func(x float64) {
				got, want := f(x, 0), c.want(x, 0)
				if u := ulps(got, want, false); u > worst {
					worst, at = u, x
				}
			}
			for range 4000 {
				// Uniform in value over small ranges, and in magnitude
				// across the whole range.
				x := c.lo + rng.Float64()*(c.hi-c.lo)
				check(x)
				if c.lo > 0 {
					check(math.Exp(math.Log(c.lo) + rng.Float64()*(math.Log(c.hi)-math.Log(c.lo))))
				} else {
					check(math.Copysign(math.Exp(rng.Float64()*math.Log(math.Max(-c.lo, c.hi))), rng.Float64()-0.5) * 1e-3)
				}
			}
			for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-300, math.Inf(1), math.Inf(-1), math.NaN()} {
				if x >= c.lo && x <= c.hi || math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
					got, want := f(x, 0), c.want(x, 0)
					if u := ulps(got, want, false); u > c.maxULP && !(math.IsInf(x, 0) && c.name == "logistic") {
						t.Errorf("%s(%v) = %v, want %v", c.name, x, got, want)
					}
				}
			}
			t.Logf("%s: worst %.2f ulp (float64) at %v", c.name, worst, at)
			if worst > c.maxULP {
				t.Errorf("%s: %.2f ulp at %v, bound %v", c.name, worst, at, c.maxULP)
			}
		})
	}
}

// TestPowSequence checks pow for float32 operands (computed in float64),
// special cases included.
func TestPowSequence(t *testing.T) {
	f := evalMath(t, func(b *builder, x, y string) string { return b.pow64(x, y) })
	rng := rand.New(rand.NewPCG(3, 4))
	worst := 0.0
	for range 4000 {
		x := float64(float32(rng.Float64() * 100))
		y := float64(float32(rng.Float64()*40 - 20))
		want := float64(float32(math.Pow(x, y)))
		got := float64(float32(f(x, y)))
		if u := ulps(got, want, true); u > worst {
			worst = u
		}
	}
	if worst > 1 {
		t.Errorf("pow: %v float32 ulp", worst)
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range [][2]float64{{0, -1}, {math.Copysign(0, -1), -3}, {-2, 3}, {-2, 0.5}, {-8, 2}, {1, nan}, {nan, 0},
		{-1, inf}, {-1, -inf}, {0.5, inf}, {2, -inf}, {-inf, 3}, {-inf, -3}, {inf, 0.5}, {0, 2}, {math.Copysign(0, -1), 3}} {
		got, want := float64(float32(f(c[0], c[1]))), float64(float32(math.Pow(c[0], c[1])))
		if fmt.Sprint(got) != fmt.Sprint(want) || math.Signbit(got) != math.Signbit(want) && !math.IsNaN(want) {
			t.Errorf("pow(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

// Go's amd64 Exp overflows a little early (near 709.6) and its Log loses
// accuracy on subnormals; the references step around both.
func refExp(x, _ float64) float64 {
	if x > 700 {
		return math.Exp(x-700) * math.Exp(700)
	}
	return math.Exp(x)
}

func refLog(x, _ float64) float64 {
	if x < 0x1p-1022 && x > 0 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// Go's math.Asin and math.Acos lose accuracy near ±1 (they form 1 - x·x,
// and Acos is π/2 - Asin), by up to 7 and over 1000 ulp there, so the
// references are Go's atan2 of the same accurately formed sides.
func refAsin(x, _ float64) float64 { return math.Atan2(x, math.Sqrt((1-x)*(1+x))) }
func refAcos(x, _ float64) float64 { return math.Atan2(math.Sqrt((1-x)*(1+x)), x) }

// TestAtan2Sequence checks atan2 on random points of every quadrant and on
// IEEE 754's special cases (signed zeros, infinities, nan).
func TestAtan2Sequence(t *testing.T) {
	f := evalMath(t, func(b *builder, y, x string) string { return b.atan2_64(y, x) })
	rng := rand.New(rand.NewPCG(5, 6))
	worst := 0.0
	for range 4000 {
		y := (rng.Float64() - 0.5) * math.Exp(rng.Float64()*40-20)
		x := (rng.Float64() - 0.5) * math.Exp(rng.Float64()*40-20)
		if u := ulps(f(x, y), math.Atan2(x, y), false); u > worst {
			worst = u
		}
	}
	t.Logf("atan2: worst %.2f ulp (float64)", worst)
	if worst > 3 {
		t.Errorf("atan2: %.2f ulp", worst)
	}
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	for _, c := range [][2]float64{{0, 0}, {0, nz}, {nz, 0}, {nz, nz}, {0, -1}, {nz, -1}, {1, 0}, {-1, nz},
		{inf, inf}, {inf, -inf}, {-inf, inf}, {-inf, -inf}, {1, inf}, {1, -inf}, {-1, -inf}, {inf, 1}, {-inf, -5},
		{nan, 1}, {1, nan}} {
		got, want := f(c[0], c[1]), math.Atan2(c[0], c[1])
		if fmt.Sprint(got) != fmt.Sprint(want) || math.Signbit(got) != math.Signbit(want) && !math.IsNaN(want) {
			t.Errorf("atan2(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}
