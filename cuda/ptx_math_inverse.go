package cuda

// The inverse trigonometric and hyperbolic functions and cbrt, computed in
// float64 like the others in ptx_math.go and rounded once to the result's
// format. All of them come from one careful atan and from log/log1p:
//
//	atan      |x| > 1 → π/2 - atan(1/|x|); > tan(π/8) → π/4 + atan((a-1)/(a+1));
//	          then one halving t/(1+√(1+t²)) so the odd Taylor series in
//	          |t| ≤ 0.199 needs 13 terms; π/2 and π/4 carried in two parts
//	atan2     atan of the smaller over the larger magnitude, then the
//	          quadrant; IEEE's special cases (zeros, infinities) by select
//	asin      atan2(x, √((1-x)(1+x))), acos atan2(√((1-x)(1+x)), x):
//	          (1-x)(1+x) keeps its accuracy near ±1 where 1-x² would not
//	asinh     log1p(a + a²/(1+√(1+a²))), log(a)+ln2 beyond 2^28
//	acosh     log1p(t + √(2t+t²)) with t = x-1, log(x)+ln2 beyond 2^28
//	atanh     log1p(2a/(1-a))/2
//	cbrt      exp(log|x|/3), then one Newton step y += (a/y² - y)/3
//
// The bounds measured by the test interpreter are in ptx_interp_test.go.

const (
	pio4Hi  = 0.7853981633974483
	pio4Lo  = 3.061616997868383e-17
	tanPio8 = 0.41421356237309503
	twoP28  = 268435456.0
)

// atanSeries returns atan(h) for |h| ≤ 0.2: h·(1 - s/3 + s²/5 - ...), s = h².
func (b *builder) atanSeries(h string) string {
	c := make([]float64, 14)
	for k := range c {
		c[k] = 1 / float64(2*k+1)
		if k%2 == 1 {
			c[k] = -c[k]
		}
	}
	s := b.f64()
	b.op("mul.rn.f64 %s, %s, %s", s, h, h)
	q := b.horner(s, c[1:])
	hs, r := b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, %s", hs, h, s)
	b.op("fma.rn.f64 %s, %s, %s, %s", r, hs, q, h)
	return r
}

// atanPositive returns atan(a) for a ≥ 0 (inf and nan included).
func (b *builder) atanPositive(a string) string {
	inv := b.reg(rPred)
	a1 := b.f64()
	b.op("setp.gt.f64 %s, %s, 0d3FF0000000000000", inv, a)
	b.op("rcp.rn.f64 %s, %s", a1, a)
	b.op("selp.f64 %s, %s, %s, %s", a1, a1, a, inv)
	big := b.reg(rPred)
	t, num, den := b.f64(), b.f64(), b.f64()
	b.op("setp.gt.f64 %s, %s, %s", big, a1, f64Imm(tanPio8))
	b.op("sub.rn.f64 %s, %s, 0d3FF0000000000000", num, a1)
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", den, a1)
	b.op("div.rn.f64 %s, %s, %s", t, num, den)
	b.op("selp.f64 %s, %s, %s, %s", t, t, a1, big)
	// Halve the angle: atan(t) = 2·atan(t/(1+√(1+t²))).
	h, d := b.f64(), b.f64()
	b.op("fma.rn.f64 %s, %s, %s, 0d3FF0000000000000", d, t, t)
	b.op("sqrt.rn.f64 %s, %s", d, d)
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", d, d)
	b.op("div.rn.f64 %s, %s, %s", h, t, d)
	r := b.atanSeries(h)
	b.op("add.rn.f64 %s, %s, %s", r, r, r)
	// + π/4 when reduced by it: the low part first, onto the small term.
	rb := b.f64()
	b.op("add.rn.f64 %s, %s, %s", rb, r, f64Imm(pio4Lo))
	b.op("add.rn.f64 %s, %s, %s", rb, rb, f64Imm(pio4Hi))
	b.op("selp.f64 %s, %s, %s, %s", r, rb, r, big)
	// π/2 - r when the argument was inverted.
	ri := b.f64()
	b.op("sub.rn.f64 %s, %s, %s", ri, f64Imm(2*pio4Lo), r)
	b.op("add.rn.f64 %s, %s, %s", ri, ri, f64Imm(pio2Part1))
	b.op("selp.f64 %s, %s, %s, %s", r, ri, r, inv)
	return r
}

func (b *builder) atan64(x string) string {
	a := b.f64()
	b.op("abs.f64 %s, %s", a, x)
	r := b.atanPositive(a)
	b.op("copysign.f64 %s, %s, %s", r, x, r)
	return b.keepNaN(x, r)
}

// atan2_64 is atan2(y, x) with IEEE 754's special cases: θ = atan of the
// smaller magnitude over the larger, then by quadrant θ, π - θ, π/2 ∓ θ.
func (b *builder) atan2_64(y, x string) string {
	ay, ax := b.f64(), b.f64()
	b.op("abs.f64 %s, %s", ay, y)
	b.op("abs.f64 %s, %s", ax, x)
	steep := b.reg(rPred)
	lo, hi, q := b.f64(), b.f64(), b.f64()
	b.op("setp.gt.f64 %s, %s, %s", steep, ay, ax)
	b.op("min.f64 %s, %s, %s", lo, ay, ax)
	b.op("max.f64 %s, %s, %s", hi, ay, ax)
	b.op("div.rn.f64 %s, %s, %s", q, lo, hi)
	th := b.atanPositive(q)
	p := b.reg(rPred)
	// y = ±0: θ = 0 (0/0 above); both infinite: θ = π/4 (inf/inf).
	b.op("setp.eq.f64 %s, %s, 0d0000000000000000", p, ay)
	b.op("selp.f64 %s, 0d0000000000000000, %s, %s", th, th, p)
	both := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, ay)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", both, ax)
	b.op("and.pred %s, %s, %s", both, both, p)
	b.op("selp.f64 %s, %s, %s, %s", th, f64Imm(pio4Hi), th, both)
	// A negative x (-0 included, so its sign bit) takes the left half-plane.
	neg := b.reg(rPred)
	sx := b.reg(rB64)
	b.op("mov.b64 %s, %s", sx, x)
	b.op("shr.u64 %s, %s, 63", sx, sx)
	b.op("setp.ne.s64 %s, %s, 0", neg, sx)
	sth, r, left := b.f64(), b.f64(), b.f64()
	b.op("neg.f64 %s, %s", sth, th)
	b.op("selp.f64 %s, %s, %s, %s", sth, sth, th, neg)
	b.op("sub.rn.f64 %s, %s, %s", r, f64Imm(2*pio4Lo), sth) // π/2 - (±θ)
	b.op("add.rn.f64 %s, %s, %s", r, r, f64Imm(pio2Part1))
	b.op("sub.rn.f64 %s, %s, %s", left, f64Imm(4*pio4Lo), th) // π - θ
	b.op("add.rn.f64 %s, %s, %s", left, left, f64Imm(2*pio2Part1))
	b.op("selp.f64 %s, %s, %s, %s", left, left, th, neg)
	b.op("selp.f64 %s, %s, %s, %s", r, r, left, steep)
	b.op("copysign.f64 %s, %s, %s", r, y, r)
	r = b.keepNaN(y, r)
	return b.keepNaN(x, r)
}

// sqrtOneMinusSq is √((1-x)(1+x)), accurate near ±1.
func (b *builder) sqrtOneMinusSq(x string) string {
	m, p, r := b.f64(), b.f64(), b.f64()
	b.op("sub.rn.f64 %s, 0d3FF0000000000000, %s", m, x)
	b.op("add.rn.f64 %s, 0d3FF0000000000000, %s", p, x)
	b.op("mul.rn.f64 %s, %s, %s", r, m, p)
	b.op("sqrt.rn.f64 %s, %s", r, r)
	return r
}

func (b *builder) asin64(x string) string { return b.atan2_64(x, b.sqrtOneMinusSq(x)) }
func (b *builder) acos64(x string) string { return b.atan2_64(b.sqrtOneMinusSq(x), x) }

// logPlusLn2 returns log(a) + ln2: the large-argument form of asinh, acosh.
func (b *builder) logPlusLn2(a string) string {
	l := b.log64(a)
	r := b.f64()
	b.op("add.rn.f64 %s, %s, %s", r, l, f64Imm(ln2Lo))
	b.op("add.rn.f64 %s, %s, %s", r, r, f64Imm(ln2Hi))
	return r
}

func (b *builder) asinh64(x string) string {
	a, a2, d, t := b.f64(), b.f64(), b.f64(), b.f64()
	b.op("abs.f64 %s, %s", a, x)
	b.op("mul.rn.f64 %s, %s, %s", a2, a, a)
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", d, a2)
	b.op("sqrt.rn.f64 %s, %s", d, d)
	b.op("add.rn.f64 %s, %s, 0d3FF0000000000000", d, d)
	b.op("div.rn.f64 %s, %s, %s", t, a2, d)
	b.op("add.rn.f64 %s, %s, %s", t, t, a)
	r := b.log1p64(t)
	big := b.reg(rPred)
	b.op("setp.gt.f64 %s, %s, %s", big, a, f64Imm(twoP28))
	b.op("selp.f64 %s, %s, %s, %s", r, b.logPlusLn2(a), r, big)
	b.op("copysign.f64 %s, %s, %s", r, x, r)
	return b.keepNaN(x, r)
}

func (b *builder) acosh64(x string) string {
	t, u := b.f64(), b.f64()
	b.op("sub.rn.f64 %s, %s, 0d3FF0000000000000", t, x)
	b.op("add.rn.f64 %s, %s, 0d4000000000000000", u, t) // 2 + t
	b.op("mul.rn.f64 %s, %s, %s", u, u, t)              // 2t + t²
	b.op("sqrt.rn.f64 %s, %s", u, u)
	b.op("add.rn.f64 %s, %s, %s", u, u, t)
	r := b.log1p64(u)
	big := b.reg(rPred)
	b.op("setp.gt.f64 %s, %s, %s", big, x, f64Imm(twoP28))
	b.op("selp.f64 %s, %s, %s, %s", r, b.logPlusLn2(x), r, big)
	return b.keepNaN(x, r)
}

func (b *builder) atanh64(x string) string {
	a, d, q := b.f64(), b.f64(), b.f64()
	b.op("abs.f64 %s, %s", a, x)
	b.op("sub.rn.f64 %s, 0d3FF0000000000000, %s", d, a)
	b.op("add.rn.f64 %s, %s, %s", q, a, a)
	b.op("div.rn.f64 %s, %s, %s", q, q, d)
	r := b.log1p64(q)
	b.op("mul.rn.f64 %s, %s, 0d3FE0000000000000", r, r)
	// |x| > 1 is nan: log1p's argument is then below -1 except at the
	// rounding edge; say so outright.
	p := b.reg(rPred)
	b.op("setp.gt.f64 %s, %s, 0d3FF0000000000000", p, a)
	b.op("selp.f64 %s, 0dFFF8000000000000, %s, %s", r, r, p)
	b.op("copysign.f64 %s, %s, %s", r, x, r)
	return b.keepNaN(x, r)
}

func (b *builder) cbrt64(x string) string {
	a, l := b.f64(), b.f64()
	b.op("abs.f64 %s, %s", a, x)
	lg := b.log64(a)
	b.op("mul.rn.f64 %s, %s, %s", l, lg, f64Imm(1.0/3))
	y := b.exp64(l)
	// One Newton step on y³ = a: y += (a/y² - y)/3.
	y2, c := b.f64(), b.f64()
	b.op("mul.rn.f64 %s, %s, %s", y2, y, y)
	b.op("div.rn.f64 %s, %s, %s", c, a, y2)
	b.op("sub.rn.f64 %s, %s, %s", c, c, y)
	b.op("fma.rn.f64 %s, %s, %s, %s", y, c, f64Imm(1.0/3), y)
	// 0 and inf are their own roots (the step would divide by them).
	p := b.reg(rPred)
	b.op("setp.eq.f64 %s, %s, 0d0000000000000000", p, a)
	b.op("selp.f64 %s, %s, %s, %s", y, a, y, p)
	b.op("setp.eq.f64 %s, %s, 0d7FF0000000000000", p, a)
	b.op("selp.f64 %s, %s, %s, %s", y, a, y, p)
	b.op("copysign.f64 %s, %s, %s", y, x, y)
	return b.keepNaN(x, y)
}
