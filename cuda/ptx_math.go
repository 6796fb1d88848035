package cuda

import (
	"math"

	"github.com/jaxsh/jaxsh/trace"
)

// Transcendental functions.
//
// PTX's fast instructions are approximations: ex2.approx.f32 has a
// relative error of about 2 ulp over its range (and exp(x) through it adds
// the rounding of x·log2(e), an error of up to |x·log2 e| half-ulps of the
// exponent, so ~100 ulp near the overflow bound); lg2.approx.f32 and
// sin.approx.f32 have absolute error bounds (about 2^-22.6 and 2^-20.9),
// which are unbounded relative errors near log's zero at 1 and sin's zeros,
// and sin.approx is only specified on [-π, π]; tanh.approx.f32 has a
// relative error near 2^-11. None is close enough to the CPU backend's
// float32 results (cpu/vmath: ≤ 1-2 ulp), so none is used.
//
// Instead every function is computed in float64 with range reduction and
// polynomials whose truncation error is below 2^-53, then rounded once to
// the value's format. For float32 (and float16, bfloat16) results the
// error is therefore at most 0.5 ulp from the final rounding plus a
// relative error below 2^-45 from the float64 computation: ≤ 1 ulp, and
// correctly rounded in all but rare near-halfway cases. For float64
// results, the bounds measured by running the generated PTX through the
// test interpreter (ptx_interp_test.go) against Go's math package on
// random inputs — the largest error seen, including the reference's own
// rounding — are:
//
//	exp 2 ulp, exp2 1 ulp   Cody–Waite reduction by ln2, degree-13 Taylor
//	log 1 ulp               x = m·2^e, m in [√½, √2), 2·atanh series in s = (m-1)/(m+1)
//	log1p, expm1 3 ulp      Kahan's log(u)·x/(u-1) and (u-1)·x/log(u)
//	sin, cos 1 ulp          3-part Cody–Waite reduction by π/2, degree 19/20 Taylor;
//	                        checked for |x| ≤ 1e6 (no Payne–Hanek reduction yet:
//	                        accuracy falls off for |x| beyond about 2^30)
//	tan                     sin/cos: ≤ 3 ulp (not measured)
//	tanh 4 ulp              expm1(2|x|)/(expm1(2|x|)+2)
//	logistic 2 ulp          1/(1+exp(-x))
//	sinh 4 ulp, cosh 2 ulp  from expm1 and exp
//	sqrt 0.5 ulp            sqrt.rn (IEEE); rsqrt: 1/sqrt in float64, as the CPU
//	pow                     float32 and narrower only: exp(y·log x) in float64,
//	                        ≤ 1 float32 ulp measured
//	atan, atan2 2 ulp       see ptx_math_inverse.go
//	asin 2, acos 3 ulp      atan2 of (x, √((1-x)(1+x))) and its mirror
//	asinh 2, acosh 1 ulp    log1p forms, log(x)+ln2 beyond 2^28
//	atanh 3 ulp, cbrt 1 ulp log1p(2a/(1-a))/2; exp(log|x|/3) and a Newton step
//
// Float64 throughput is half of float32 on the data-centre GPUs this
// targets (A100, H100, H200); on GPUs with 1/64-rate float64 a float32
// polynomial path would be the next step.

const (
	ln2Hi      = 0.6931471805599453
	ln2Lo      = 2.3190468138462996e-17
	log2e      = 1.4426950408889634
	twoOverPi  = 0.6366197723675814
	pio2Part1  = 1.5707963267948966
	pio2Part2  = 6.123233995736766e-17
	pio2Part3  = -1.4973849048591698e-33
	sqrt2      = math.Sqrt2
	expHiClamp = 710.0
	expLoClamp = -746.0
)

// transcendental computes a float function of in (all of one float dtype).
func (b *builder) transcendental(name string, in []val, out trace.DType) (val, error) {
	dt := in[0].dt
	ct, err := ctype(dt)
	if err != nil || (ct != "f32" && ct != "f64") {
		return val{}, unsupported("%s on %s", name, dt)
	}
	if name == "sqrt" {
		r := b.fresh(dt)
		b.op("sqrt.rn.%s %s, %s", ct, r.r, in[0].r)
		return b.normalize(r), nil
	}
	if name == "pow" && ct == "f64" {
		return val{}, unsupported("pow on float64 (needs a double-double log)")
	}
	if len(in) == 2 && in[1].dt != dt {
		return val{}, unsupported("%s with a %s exponent", name, in[1].dt)
	}
	// Compute in float64.
	xs := make([]string, len(in))
	for i, v := range in {
		xs[i] = b.toF64(v)
	}
	var r string
	switch name {
	case "exp":
		r = b.exp64(xs[0])
	case "exp2":
		r = b.exp2_64(xs[0])
	case "log":
		r = b.log64(xs[0])
	case "log1p":
		r = b.log1p64(xs[0])
	case "expm1":
		r = b.expm1_64(xs[0])
	case "sin":
		r = b.sincos64(xs[0], false)
	case "cos":
		r = b.sincos64(xs[0], true)
	case "tan":
		s, c := b.sincos64(xs[0], false), b.sincos64(xs[0], true)
		r = b.f64()
		b.op("div.rn.f64 %s, %s, %s", r, s, c)
	case "tanh":
		r = b.tanh64(xs[0])
	case "logistic":
		r = b.logistic64(xs[0])
	case "sinh":
		r = b.sinh64(xs[0])
	case "cosh":
		r = b.cosh64(xs[0])
	case "rsqrt":
		r = b.f64()
		b.op("sqrt.rn.f64 %s, %s", r, xs[0])
		b.op("rcp.rn.f64 %s, %s", r, r)
	case "pow":
		r = b.pow64(xs[0], xs[1])
	case "atan":
		r = b.atan64(xs[0])
	case "atan2":
		r = b.atan2_64(xs[0], xs[1])
	case "asin":
		r = b.asin64(xs[0])
	case "acos":
		r = b.acos64(xs[0])
	case "asinh":
		r = b.asinh64(xs[0])
	case "acosh":
		r = b.acosh64(xs[0])
	case "atanh":
		r = b.atanh64(xs[0])
	case "cbrt":
		r = b.cbrt64(xs[0])
	default:
		return val{}, unsupported("%s on %s", name, dt)
	}
	return b.fromF64(r, dt), nil
}

func (b *builder) f64() string { return b.reg(rF64) }

func (b *builder) toF64(v val) string {
	if regKindOf(v.dt) == rF64 {
		return v.r
	}
	r := b.f64()
	b.op("cvt.f64.f32 %s, %s", r, v.r)
	return r
}

// fromF64 rounds a float64 result once to dt.
func (b *builder) fromF64(r string, dt trace.DType) val {
	switch dt {
	case trace.Float64:
		return val{r, dt}
	case trace.Float16:
		h := b.reg(rB16)
		f := b.reg(rF32)
		b.op("cvt.rn.f16.f64 %s, %s", h, r)
		b.op("cvt.f32.f16 %s, %s", f, h)
		return val{f, dt}
	}
	f := b.reg(rF32)
	b.op("cvt.rn.f32.f64 %s, %s", f, r) // bfloat16: rounded again below
	return b.normalize(val{f, dt})
}

// horner returns c[0] + x·(c[1] + x·(c[2] + ...)) with fma.
func (b *builder) horner(x string, c []float64) string {
	p := b.f64()
	b.op("mov.f64 %s, %s", p, f64Imm(c[len(c)-1]))
	for i := len(c) - 2; i >= 0; i-- {
		b.op("fma.rn.f64 %s, %s, %s, %s", p, p, x, f64Imm(c[i]))
	}
	return p
}

// taylorExp are 1/k! for k = 0..13.
func taylorExp() []float64 {
	c := make([]float64, 14)
	f := 1.0
	for k := range c {
		if k > 0 {
			f *= float64(k)
		}
		c[k] = 1 / f
	}
	return c
}

// pow2 returns 2^n for an integer-valued float64 n in [-1022, 1023].
func (b *builder) pow2(n string) string {
	i := b.reg(rB64)
	r := b.f64()
	b.op("cvt.rni.s64.f64 %s, %s", i, n)
	b.op("add.s64 %s, %s, 1023", i, i)
	b.op("shl.b64 %s, %s, 52", i, i)
	b.op("mov.b64 %s, %s", r, i)
	return r
}

// scale returns p·2^n for an integer-valued n in [-1100, 1100], in two
// exact steps so that neither factor overflows and a subnormal result is
// rounded once.
func (b *builder) scale(p, n string) string {
	n1, n2 := b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", n1, n) // n/2
	b.op("cvt.rmi.f64.f64 %s, %s", n1, n1)
	b.op("sub.rn.f64 %s, %s, %s", n2, n, n1)
	r := b.f64()
	b.op("mul.rn.f64 %s, %s, %s", r, p, b.pow2(n1))
	b.op("mul.rn.f64 %s, %s, %s", r, r, b.pow2(n2))
	return r
}

// keepNaN returns x where x is nan, else r.
func (b *builder) keepNaN(x, r string) string {
	p := b.reg(rPred)
	b.op("testp.notanumber.f64 %s, %s", p, x)
	b.op("selp.f64 %s, %s, %s, %s", r, x, r, p)
	return r
}

// exp64: n = rint(x/ln2), r = x - n·ln2 (two fma steps), exp(r)·2^n.
func (b *builder) exp64(x string) string {
	c := b.f64()
	b.op("max.f64 %s, %s, %s", c, x, f64Imm(expLoClamp))
	b.op("min.f64 %s, %s, %s", c, c, f64Imm(expHiClamp))
	n, r := b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, %s", n, c, f64Imm(log2e))
	b.op("cvt.rni.f64.f64 %s, %s", n, n)
	b.op("neg.f64 %s, %s", r, n)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, r, f64Imm(ln2Hi), c)
	nn := b.f64()
	b.op("neg.f64 %s, %s", nn, n)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, nn, f64Imm(ln2Lo), r)
	p := b.horner(r, taylorExp())
	return b.keepNaN(x, b.scale(p, n))
}

// exp2_64: n = rint(x), f = x - n (exact), exp(f·ln2)·2^n.
func (b *builder) exp2_64(x string) string {
	c := b.f64()
	b.op("max.f64 %s, %s, %s", c, x, f64Imm(-1100))
	b.op("min.f64 %s, %s, %s", c, c, f64Imm(1100))
	n, f := b.f64(), b.f64()
	b.op("cvt.rni.f64.f64 %s, %s", n, c)
	b.op("sub.rn.f64 %s, %s, %s", f, c, n)
	b.op("mul.rn.f64 %s, %s, %s", f, f, f64Imm(ln2Hi))
	p := b.horner(f, taylorExp())
	return b.keepNaN(x, b.scale(p, n))
}

// log64: x = m·2^e with m in [√½, √2); log m = 2·atanh(s), s = f/(2+f),
// f = m - 1 (exact); log x = e·ln2 + log m.
func (b *builder) log64(x string) string {
	// Subnormals: scale by 2^54 first.
	sub := b.reg(rPred)
	xs, adj := b.f64(), b.f64()
	b.op("setp.lt.f64 %s, %s, %s", sub, x, f64Imm(0x1p-1022))
	b.op("mul.rn.f64 %s, %s, %s", xs, x, f64Imm(0x1p54))
	b.op("selp.f64 %s, %s, %s, %s", xs, xs, x, sub)
	b.op("selp.f64 %s, %s, %s, %s", adj, f64Imm(-54), f64Imm(0), sub)
	bits, eb, mb := b.reg(rB64), b.reg(rB64), b.reg(rB64)
	b.op("mov.b64 %s, %s", bits, xs)
	b.op("shr.u64 %s, %s, 52", eb, bits)
	b.op("and.b64 %s, %s, 2047", eb, eb)
	b.op("add.s64 %s, %s, -1023", eb, eb)
	b.op("and.b64 %s, %s, 4503599627370495", mb, bits) // mantissa bits
	b.op("or.b64 %s, %s, 4607182418800017408", mb, mb) // exponent of 1.0
	m, e := b.f64(), b.f64()
	b.op("mov.b64 %s, %s", m, mb)
	b.op("cvt.rn.f64.s64 %s, %s", e, eb)
	b.op("add.rn.f64 %s, %s, %s", e, e, adj)
	big := b.reg(rPred)
	b.op("setp.gt.f64 %s, %s, %s", big, m, f64Imm(sqrt2))
	mh, e1 := b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", mh, m)
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", e1, e)
	b.op("selp.f64 %s, %s, %s, %s", m, mh, m, big)
	b.op("selp.f64 %s, %s, %s, %s", e, e1, e, big)
	f, d, s, r2 := b.f64(), b.f64(), b.f64(), b.f64()
	b.op("sub.rn.f64 %s, %s, 0d3FF0000000000000", f, m)
	b.op("add.rn.f64 %s, %s, 0d4000000000000000", d, f)
	b.op("div.rn.f64 %s, %s, %s", s, f, d)
	b.op("mul.rn.f64 %s, %s, %s", r2, s, s)
	// log m = 2s·(1 + R/3 + R²/5 + ... + R^10/21), R = s², |s| < 0.1716.
	c := make([]float64, 11)
	for k := range c {
		c[k] = 1 / float64(2*k+1)
	}
	q := b.horner(r2, c[1:]) // 1/3 + R/5 + ...
	t, twoS, lm := b.f64(), b.f64(), b.f64()
	b.op("add.rn.f64 %s, %s, %s", twoS, s, s)
	b.op("mul.rn.f64 %s, %s, %s", t, twoS, r2)
	b.op("fma.rn.f64 %s, %s, %s, %s", lm, t, q, twoS)
	res := b.f64()
	b.op("fma.rn.f64 %s, %s, %s, %s", res, e, f64Imm(ln2Lo), lm)
	b.op("fma.rn.f64 %s, %s, %s, %s", res, e, f64Imm(ln2Hi), res)
	// Special cases: log(0) = -inf, log(x<0) = nan, log(inf) = inf.
	p := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d0000000000000000", p, x)
	b.op("selp.f64 %s, 0dFFF0000000000000, %s, %s", res, res, p)
	b.op("setp.lt.f64 %s, %s, 0d0000000000000000", p, x)
	b.op("selp.f64 %s, 0dFFF8000000000000, %s, %s", res, res, p)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, x)
	b.op("selp.f64 %s, %s, %s, %s", res, x, res, p)
	return b.keepNaN(x, res)
}

// log1p64: u = 1+x; log(u)·x/(u-1), or x where u == 1 (Kahan).
func (b *builder) log1p64(x string) string {
	u, d, r := b.f64(), b.f64(), b.f64()
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", u, x)
	l := b.log64(u)
	b.op("sub.rn.f64 %s, %s, 0d3FF0000000000000", d, u)
	b.op("div.rn.f64 %s, %s, %s", r, x, d)
	b.op("mul.rn.f64 %s, %s, %s", r, r, l)
	p := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d3FF0000000000000", p, u)
	b.op("selp.f64 %s, %s, %s, %s", r, x, r, p)
	// u = inf (x = inf): log(u) = inf.
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, u)
	b.op("selp.f64 %s, %s, %s, %s", r, l, r, p)
	// x = -1: -inf; x < -1: nan (log's own answers for u <= 0).
	b.op("setp.le.f64 %s, %s, 0d0000000000000000", p, u)
	b.op("selp.f64 %s, %s, %s, %s", r, l, r, p)
	return b.keepNaN(x, r)
}

// expm1_64: u = exp(x); (u-1)·x/log(u), x where u == 1, -1 where u-1 is
// -1, inf where u is (Kahan).
func (b *builder) expm1_64(x string) string {
	u := b.exp64(x)
	d, r := b.f64(), b.f64()
	b.op("sub.rn.f64 %s, %s, 0d3FF0000000000000", d, u)
	l := b.log64(u)
	b.op("div.rn.f64 %s, %s, %s", r, x, l)
	b.op("mul.rn.f64 %s, %s, %s", r, r, d)
	p := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d3FF0000000000000", p, u)
	b.op("selp.f64 %s, %s, %s, %s", r, x, r, p)
	b.op("setp.eq.f64 %s, %s, 0dBFF0000000000000", p, d)
	b.op("selp.f64 %s, %s, %s, %s", r, d, r, p)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, u)
	b.op("selp.f64 %s, %s, %s, %s", r, u, r, p)
	return b.keepNaN(x, r)
}

// sincos64 is sin(x), or cos(x): k = rint(x·2/π), r = x - k·π/2 with π/2
// in three parts (fma), then the polynomial of the quadrant k mod 4.
func (b *builder) sincos64(x string, cos bool) string {
	k, nk, r, r2 := b.f64(), b.f64(), b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, %s", k, x, f64Imm(twoOverPi))
	b.op("cvt.rni.f64.f64 %s, %s", k, k)
	b.op("neg.f64 %s, %s", nk, k)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, nk, f64Imm(pio2Part1), x)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, nk, f64Imm(pio2Part2), r)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, nk, f64Imm(pio2Part3), r)
	b.op("mul.rn.f64 %s, %s, %s", r2, r, r)
	// sin r = r + r³·(-1/3! + r²/5! - ... - r^16/19!)
	// cos r = 1 - r²/2 + r⁴·(1/4! - r²/6! + ... + r^16/20!)
	var cs, cc []float64
	f := 1.0
	for n := 2; n <= 20; n++ {
		f *= float64(n)
		sgn := 1.0 // the sign of r^n/n! in the series: (-1)^floor(n/2)
		if (n/2)%2 == 1 {
			sgn = -1
		}
		if n%2 == 1 {
			cs = append(cs, sgn/f)
		} else if n >= 4 {
			cc = append(cc, sgn/f)
		}
	}
	ps := b.horner(r2, cs)
	pc := b.horner(r2, cc)
	s, c, t, h := b.f64(), b.f64(), b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, %s", t, r, r2)
	b.op("fma.rn.f64 %s, %s, %s, %s", s, t, ps, r)
	b.op("mul.rn.f64 %s, %s, %s", t, r2, r2)
	b.op("fma.rn.f64 %s, %s, 0dBFE0000000000000, 0d3FF0000000000000", h, r2) // 1 - r²/2
	b.op("fma.rn.f64 %s, %s, %s, %s", c, t, pc, h)
	// Quadrant.
	q := b.reg(rB64)
	b.op("cvt.rzi.s64.f64 %s, %s", q, k)
	if cos {
		b.op("add.s64 %s, %s, 1", q, q)
	}
	qa, qb := b.reg(rB64), b.reg(rB64)
	b.op("and.b64 %s, %s, 1", qa, q)
	b.op("and.b64 %s, %s, 2", qb, q)
	odd, neg := b.reg(rPred), b.reg(rPred)
	b.op("setp.ne.s64 %s, %s, 0", odd, qa)
	b.op("setp.ne.s64 %s, %s, 0", neg, qb)
	res, nr := b.f64(), b.f64()
	b.op("selp.f64 %s, %s, %s, %s", res, c, s, odd)
	b.op("neg.f64 %s, %s", nr, res)
	b.op("selp.f64 %s, %s, %s, %s", res, nr, res, neg)
	return res
}

// tanh64: t = expm1(2|x|)/(expm1(2|x|)+2) with the sign of x; 1 for
// |x| > 20, where tanh rounds to 1.
func (b *builder) tanh64(x string) string {
	a, a2, d, t := b.f64(), b.f64(), b.f64(), b.f64()
	b.op("abs.f64 %s, %s", a, x)
	b.op("min.f64 %s, %s, 0d4034000000000000", a2, a) // min(|x|, 20)
	b.op("add.rn.f64 %s, %s, %s", a2, a2, a2)
	e := b.expm1_64(a2)
	b.op("add.rn.f64 %s, %s, 0d4000000000000000", d, e)
	b.op("div.rn.f64 %s, %s, %s", t, e, d)
	p := b.reg(rPred)
	b.op("setp.gt.f64 %s, %s, 0d4034000000000000", p, a)
	b.op("selp.f64 %s, 0d3FF0000000000000, %s, %s", t, t, p)
	b.op("copysign.f64 %s, %s, %s", t, x, t)
	return b.keepNaN(x, t)
}

// logistic64 = 1/(1+exp(-x)).
func (b *builder) logistic64(x string) string {
	n := b.f64()
	b.op("neg.f64 %s, %s", n, x)
	e := b.exp64(n)
	r := b.f64()
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", r, e)
	b.op("rcp.rn.f64 %s, %s", r, r)
	return r
}

// sinh64: for |x| < 1, (e + e/(e+1))/2 with e = expm1(|x|); else
// (exp|x| - 1/exp|x|)/2; the sign of x.
func (b *builder) sinh64(x string) string {
	a := b.f64()
	b.op("abs.f64 %s, %s", a, x)
	e := b.expm1_64(a)
	s, t := b.f64(), b.f64()
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", t, e)
	b.op("div.rn.f64 %s, %s, %s", t, e, t)
	b.op("add.rn.f64 %s, %s, %s", s, e, t)
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", s, s)
	u := b.exp64(a)
	l, w := b.f64(), b.f64()
	b.op("rcp.rn.f64 %s, %s", w, u)
	b.op("sub.rn.f64 %s, %s, %s", l, u, w)
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", l, l)
	p := b.reg(rPred)
	b.op("setp.lt.f64 %s, %s, 0d3FF0000000000000", p, a)
	b.op("selp.f64 %s, %s, %s, %s", s, s, l, p)
	b.op("copysign.f64 %s, %s, %s", s, x, s)
	return b.keepNaN(x, s)
}

// cosh64 = (exp|x| + 1/exp|x|)/2.
func (b *builder) cosh64(x string) string {
	a := b.f64()
	b.op("abs.f64 %s, %s", a, x)
	u := b.exp64(a)
	w, r := b.f64(), b.f64()
	b.op("rcp.rn.f64 %s, %s", w, u)
	b.op("add.rn.f64 %s, %s, %s", r, u, w)
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", r, r)
	return r
}

// pow64 is C99 pow for bases and exponents that came from float32 or
// narrower: exp(y·log|x|) in float64, then the sign and special cases.
func (b *builder) pow64(x, y string) string {
	a, t := b.f64(), b.f64()
	b.op("abs.f64 %s, %s", a, x)
	l := b.log64(a)
	b.op("mul.rn.f64 %s, %s, %s", t, y, l)
	r := b.exp64(t)
	// y an integer? odd?
	yi, yh, yhi := b.f64(), b.f64(), b.f64()
	b.op("cvt.rzi.f64.f64 %s, %s", yi, y)
	isInt, isOdd := b.reg(rPred), b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, %s", isInt, yi, y)
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", yh, y)
	b.op("cvt.rzi.f64.f64 %s, %s", yhi, yh)
	b.op("setp.ne.f64 %s, %s, %s", isOdd, yhi, yh)
	b.op("and.pred %s, %s, %s", isOdd, isOdd, isInt)
	neg := b.reg(rPred)
	b.op("setp.lt.f64 %s, %s, 0d0000000000000000", neg, x)
	// x < 0: odd integer y gives -r, other integers r, non-integers nan.
	nr := b.f64()
	b.op("neg.f64 %s, %s", nr, r)
	p := b.reg(rPred)
	b.op("and.pred %s, %s, %s", p, neg, isOdd)
	b.op("selp.f64 %s, %s, %s, %s", r, nr, r, p)
	b.op("not.pred %s, %s", p, isInt)
	b.op("and.pred %s, %s, %s", p, p, neg)
	// An infinite y is an even integer here; -inf < x < 0 with a
	// non-integer y is nan.
	b.op("selp.f64 %s, 0dFFF8000000000000, %s, %s", r, r, p)
	// x = ±0: y < 0 gives inf (±inf for odd y), y > 0 gives 0 (±0).
	zero := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d0000000000000000", zero, x)
	z := b.f64()
	b.op("setp.lt.f64 %s, %s, 0d0000000000000000", p, y)
	b.op("selp.f64 %s, 0d7FF0000000000000, 0d0000000000000000, %s", z, p)
	zs := b.f64()
	b.op("copysign.f64 %s, %s, %s", zs, x, z)
	b.op("selp.f64 %s, %s, %s, %s", z, zs, z, isOdd)
	b.op("selp.f64 %s, %s, %s, %s", r, z, r, zero)
	// x = -inf: |x|^y with the sign of odd y (exp handles |x| = inf).
	// pow(x, ±0) = 1 and pow(1, y) = 1, even for nan; pow(-1, ±inf) = 1.
	one := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d0000000000000000", one, y)
	b.op("setp.eq.f64 %s, %s, 0d3FF0000000000000", p, x)
	b.op("or.pred %s, %s, %s", one, one, p)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, a)
	inf := b.reg(rPred)
	b.op("abs.f64 %s, %s", t, y)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", inf, t)
	b.op("setp.eq.f64 %s, %s, 0dBFF0000000000000", p, x)
	b.op("and.pred %s, %s, %s", p, p, inf)
	b.op("or.pred %s, %s, %s", one, one, p)
	// nan in either operand (other than the cases above) gives nan.
	nan := b.reg(rPred)
	b.op("setp.nan.f64 %s, %s, %s", nan, x, y)
	b.op("selp.f64 %s, 0dFFF8000000000000, %s, %s", r, r, nan)
	b.op("selp.f64 %s, 0d3FF0000000000000, %s, %s", r, r, one)
	return r
}
