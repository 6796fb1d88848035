package cuda

import (
	"strings"

	"math"

	"github.com/jaxsh/jaxsh/trace"
)

// Elementwise primitives in PTX, with the CPU backend's semantics (see
// cpu/elementwise_*.go): integers wrap; integer x/0 is -1 and x%0 is x;
// float max/min propagate nan and return the first operand on ties;
// comparisons are IEEE (ne is true for nan); shifts by the width or more
// give 0 (or the sign fill); float-to-integer conversion truncates and
// saturates, nan giving 0. Float arithmetic uses the .rn forms, which
// ptxas never contracts into fma, so results round as the CPU's do.

func (b *builder) fresh(dt trace.DType) val { return val{b.reg(regKindOf(dt)), dt} }

// elementwise computes one elementwise equation from its operands' values.
func (b *builder) elementwise(e *trace.Eqn, in []val) (val, error) {
	name := e.Prim.Name
	out := e.Out[0].Aval().DType
	dt := in[0].dt
	ct, _ := ctype(dt)
	isF := ct == "f32" || ct == "f64"
	switch name {
	case "add", "sub", "mul":
		r := b.fresh(dt)
		switch {
		case dt == trace.Bool: // never reached: bool arithmetic is refused by the shape rule
			return val{}, unsupported("%s on bool", name)
		case isF:
			b.op("%s.rn.%s %s, %s, %s", name, ct, r.r, in[0].r, in[1].r)
		case name == "mul":
			b.op("mul.lo.%s %s, %s, %s", ct, r.r, in[0].r, in[1].r)
		default:
			b.op("%s.%s %s, %s, %s", name, ct, r.r, in[0].r, in[1].r)
		}
		return b.normalize(r), nil
	case "div":
		if isF {
			r := b.fresh(dt)
			b.op("div.rn.%s %s, %s, %s", ct, r.r, in[0].r, in[1].r)
			return b.normalize(r), nil
		}
		return b.intDivRem(true, in[0], in[1]), nil
	case "rem":
		if isF {
			return val{}, unsupported("rem on %s (fmod)", dt)
		}
		return b.intDivRem(false, in[0], in[1]), nil
	case "max", "min":
		return b.maxMin(name == "max", in[0], in[1]), nil
	case "neg":
		r := b.fresh(dt)
		// PTX's neg takes signed types only; on two's complement bits the
		// signed negation is the unsigned wrap-around 0 - x.
		b.op("neg.%s %s, %s", strings.Replace(ct, "u", "s", 1), r.r, in[0].r)
		return b.normalize(r), nil
	case "abs":
		r := b.fresh(dt)
		if isF {
			b.op("abs.%s %s, %s", ct, r.r, in[0].r)
			return r, nil
		}
		// max(x, -x): abs(INT_MIN) wraps to INT_MIN, as on the CPU.
		b.op("neg.%s %s, %s", ct, r.r, in[0].r)
		b.op("max.%s %s, %s, %s", ct, r.r, r.r, in[0].r)
		return b.normalize(r), nil
	case "sign":
		return b.sign(in[0]), nil
	case "square":
		r := b.fresh(dt)
		if isF {
			b.op("mul.rn.%s %s, %s, %s", ct, r.r, in[0].r, in[0].r)
		} else {
			b.op("mul.lo.%s %s, %s, %s", ct, r.r, in[0].r, in[0].r)
		}
		return b.normalize(r), nil
	case "integer_pow":
		return b.integerPow(in[0], e.Params.Int("y")), nil
	case "floor", "ceil":
		r := b.fresh(dt)
		mode := "rmi"
		if name == "ceil" {
			mode = "rpi"
		}
		b.op("cvt.%s.%s.%s %s, %s", mode, ct, ct, r.r, in[0].r)
		return r, nil
	case "round":
		m, _ := trace.ParamAs[trace.RoundingMethod](e.Params, "rounding_method")
		return b.round(in[0], m == trace.RoundToNearestEven), nil
	case "is_finite":
		p := b.reg(rPred)
		b.op("testp.finite.%s %s, %s", ct, p, in[0].r)
		return b.fromPred(p), nil
	case "eq", "ne", "lt", "le", "gt", "ge":
		cmp := name
		if isF && name == "ne" {
			cmp = "neu" // true when either side is nan
		}
		p := b.reg(rPred)
		b.op("setp.%s.%s %s, %s, %s", cmp, ct, p, in[0].r, in[1].r)
		return b.fromPred(p), nil
	case "and", "or", "xor":
		r := b.fresh(dt)
		b.op("%s.%s %s, %s, %s", name, bitsType(dt), r.r, in[0].r, in[1].r)
		return r, nil
	case "not":
		r := b.fresh(dt)
		if dt == trace.Bool {
			b.op("xor.b32 %s, %s, 1", r.r, in[0].r)
			return r, nil
		}
		b.op("not.%s %s, %s", bitsType(dt), r.r, in[0].r)
		return b.normalize(r), nil
	case "shift_left", "shift_right_logical", "shift_right_arithmetic":
		return b.shift(name, in[0], in[1]), nil
	case "population_count":
		return b.popc(in[0]), nil
	case "select_n":
		return b.selectN(in[0], in[1:]), nil
	case "clamp":
		lo := b.maxMin(true, in[0], in[1])
		return b.maxMin(false, in[2], lo), nil
	case "convert_element_type":
		return b.convert(in[0], e.Params.DType("new_dtype"))
	case "copy":
		return in[0], nil
	}
	if e.Prim.Has(trace.Transcendental) {
		return b.transcendental(name, in, out)
	}
	return val{}, unsupported("%s on %s", name, dt)
}

// fromPred turns a predicate into a bool value.
func (b *builder) fromPred(p string) val {
	r := b.reg(rB32)
	b.op("selp.u32 %s, 1, 0, %s", r, p)
	return val{r, trace.Bool}
}

// intDivRem is integer division or remainder with XLA's answers where C
// leaves them undefined: x/0 = -1, x%0 = x, INT_MIN/-1 = INT_MIN,
// INT_MIN%-1 = 0.
func (b *builder) intDivRem(div bool, x, y val) val {
	dt := x.dt
	ct, _ := ctype(dt)
	bt := bitsType(dt)
	zero, safe := b.reg(rPred), b.fresh(dt)
	b.op("setp.eq.%s %s, %s, 0", ct, zero, y.r)
	b.op("selp.%s %s, 1, %s, %s", bt, safe.r, y.r, zero)
	signed := ct[0] == 's'
	var minus1 string
	if signed {
		minus1 = b.reg(rPred)
		b.op("setp.eq.%s %s, %s, -1", ct, minus1, y.r)
		b.op("selp.%s %s, 1, %s, %s", bt, safe.r, safe.r, minus1)
	}
	r := b.fresh(dt)
	if div {
		b.op("div.%s %s, %s, %s", ct, r.r, x.r, safe.r)
		if signed {
			n := b.fresh(dt)
			b.op("neg.%s %s, %s", ct, n.r, x.r)
			b.op("selp.%s %s, %s, %s, %s", bt, r.r, n.r, r.r, minus1)
		}
		b.op("selp.%s %s, -1, %s, %s", bt, r.r, r.r, zero)
	} else {
		b.op("rem.%s %s, %s, %s", ct, r.r, x.r, safe.r)
		if signed {
			b.op("selp.%s %s, 0, %s, %s", bt, r.r, r.r, minus1)
		}
		b.op("selp.%s %s, %s, %s, %s", bt, r.r, x.r, r.r, zero)
	}
	return b.normalize(r)
}

// maxMin: for floats, max(a, b) = a >= b || isnan(a) ? a : b (and min
// with <=), XLA's CPU semantics.
func (b *builder) maxMin(isMax bool, x, y val) val {
	ct, _ := ctype(x.dt)
	r := b.fresh(x.dt)
	if ct != "f32" && ct != "f64" {
		op := "min"
		if isMax {
			op = "max"
		}
		b.op("%s.%s %s, %s, %s", op, ct, r.r, x.r, y.r)
		return r
	}
	cmp := "le"
	if isMax {
		cmp = "ge"
	}
	p, q := b.reg(rPred), b.reg(rPred)
	b.op("setp.%s.%s %s, %s, %s", cmp, ct, p, x.r, y.r)
	b.op("testp.notanumber.%s %s, %s", ct, q, x.r)
	b.op("or.pred %s, %s, %s", p, p, q)
	b.op("selp.%s %s, %s, %s, %s", ct, r.r, x.r, y.r, p)
	return r
}

// sign: -1, 0 or 1; floats keep ±0 and nan.
func (b *builder) sign(x val) val {
	ct, _ := ctype(x.dt)
	r := b.fresh(x.dt)
	if ct == "u32" {
		p := b.reg(rPred)
		b.op("setp.ne.u32 %s, %s, 0", p, x.r)
		b.op("selp.u32 %s, 1, 0, %s", r.r, p)
		return r
	}
	pos, neg := b.reg(rPred), b.reg(rPred)
	if ct == "f32" || ct == "f64" {
		b.op("setp.gt.%s %s, %s, %s", ct, pos, x.r, fImm(ct, 0))
		b.op("setp.lt.%s %s, %s, %s", ct, neg, x.r, fImm(ct, 0))
		b.op("selp.%s %s, %s, %s, %s", ct, r.r, fImm(ct, 1), x.r, pos)
		b.op("selp.%s %s, %s, %s, %s", ct, r.r, fImm(ct, -1), r.r, neg)
		return r
	}
	b.op("setp.gt.%s %s, %s, 0", ct, pos, x.r)
	b.op("setp.lt.%s %s, %s, 0", ct, neg, x.r)
	bt := bitsType(x.dt)
	b.op("selp.%s %s, 1, 0, %s", bt, r.r, pos)
	b.op("selp.%s %s, -1, %s, %s", bt, r.r, r.r, neg)
	return r
}

// integerPow multiplies in JAX's order: the powers of x for the set bits
// of |y|, lowest first; a negative y gives 1/x^|y|.
func (b *builder) integerPow(x val, y int) val {
	ct, _ := ctype(x.dt)
	isF := ct == "f32" || ct == "f64"
	mul := func(p, q val) val {
		r := b.fresh(x.dt)
		if isF {
			b.op("mul.rn.%s %s, %s, %s", ct, r.r, p.r, q.r)
		} else {
			b.op("mul.lo.%s %s, %s, %s", ct, r.r, p.r, q.r)
		}
		return b.normalize(r)
	}
	if y == 0 {
		v, _ := b.constant(int64(1), x.dt)
		return v
	}
	m := y
	if m < 0 {
		m = -m
	}
	var acc val
	have := false
	for m > 0 {
		if m&1 != 0 {
			if have {
				acc = mul(acc, x)
			} else {
				acc, have = x, true
			}
		}
		m >>= 1
		if m > 0 {
			x = mul(x, x)
		}
	}
	if y < 0 {
		r := b.fresh(acc.dt)
		b.op("rcp.rn.%s %s, %s", ct, r.r, acc.r)
		return b.normalize(r)
	}
	return acc
}

// round: to nearest even (cvt.rni), or half away from zero: t = trunc(x),
// and t + sign(x) when |x - t| >= 0.5 (x - t is exact).
func (b *builder) round(x val, even bool) val {
	ct, _ := ctype(x.dt)
	r := b.fresh(x.dt)
	if even {
		b.op("cvt.rni.%s.%s %s, %s", ct, ct, r.r, x.r)
		return r
	}
	t, d, s := b.reg(regKindOf(x.dt)), b.reg(regKindOf(x.dt)), b.reg(regKindOf(x.dt))
	p := b.reg(rPred)
	b.op("cvt.rzi.%s.%s %s, %s", ct, ct, t, x.r)
	b.op("sub.rn.%s %s, %s, %s", ct, d, x.r, t)
	b.op("abs.%s %s, %s", ct, d, d)
	b.op("setp.ge.%s %s, %s, %s", ct, p, d, fImm(ct, 0.5))
	// copysign(1, x)
	b.op("mov.%s %s, %s", ct, s, fImm(ct, 1))
	b.op("copysign.%s %s, %s, %s", ct, s, x.r, s)
	b.op("add.rn.%s %s, %s, %s", ct, d, t, s)
	b.op("selp.%s %s, %s, %s, %s", ct, r.r, d, t, p)
	return r
}

// shift follows XLA: the amount is unsigned, and an amount of the width or
// more gives 0 (left, logical right) or the sign fill (arithmetic right).
func (b *builder) shift(name string, x, y val) val {
	dt := x.dt
	width := dt.Bits()
	r := b.fresh(dt)
	wide := dt == trace.Int64
	amt := y.r
	if wide {
		// Clamp the 64-bit amount into a 32-bit register; PTX clamps
		// amounts past the register width itself.
		t := b.reg(rB64)
		amt = b.reg(rB32)
		b.op("min.u64 %s, %s, 64", t, y.r)
		b.op("cvt.u32.u64 %s, %s", amt, t)
	} else if width < 32 {
		// The amount as unsigned of its own width: 8-bit -1 is 255.
		t := b.reg(rB32)
		b.op("and.b32 %s, %s, %d", t, y.r, uint32(1)<<width-1)
		amt = t
	}
	bt := bitsType(dt)
	src := x.r
	switch name {
	case "shift_left":
		b.op("shl.%s %s, %s, %s", bt, r.r, src, amt)
	case "shift_right_logical":
		if width < 32 && dt.IsSigned() {
			t := b.reg(rB32)
			b.op("and.b32 %s, %s, %d", t, src, uint32(1)<<width-1)
			src = t
		}
		t := "u32"
		if wide {
			t = "u64"
		}
		b.op("shr.%s %s, %s, %s", t, r.r, src, amt)
	default:
		if width < 32 && !dt.IsSigned() {
			t := b.reg(rB32)
			b.op("cvt.s32.s%d %s, %s", width, t, src)
			src = t
		}
		t := "s32"
		if wide {
			t = "s64"
		}
		b.op("shr.%s %s, %s, %s", t, r.r, src, amt)
	}
	return b.normalize(r)
}

func (b *builder) popc(x val) val {
	dt := x.dt
	r := b.fresh(dt)
	if dt == trace.Int64 {
		t := b.reg(rB32)
		b.op("popc.b64 %s, %s", t, x.r)
		b.op("cvt.u64.u32 %s, %s", r.r, t)
		return r
	}
	src := x.r
	if w := dt.Bits(); w < 32 {
		t := b.reg(rB32)
		b.op("and.b32 %s, %s, %d", t, src, uint32(1)<<w-1)
		src = t
	}
	b.op("popc.b32 %s, %s", r.r, src)
	return r
}

// selectN picks cases[which], clamping an integer which into range.
func (b *builder) selectN(which val, cases []val) val {
	dt := cases[0].dt
	ct, _ := ctype(dt)
	r := b.copyVal(cases[0])
	wt, _ := ctype(which.dt)
	if which.dt == trace.Bool {
		wt = "u32"
	}
	for k := 1; k < len(cases); k++ {
		p := b.reg(rPred)
		b.op("setp.ge.%s %s, %s, %d", wt, p, which.r, k)
		b.op("selp.%s %s, %s, %s, %s", movType(ct), r.r, cases[k].r, r.r, p)
	}
	return r
}

// convert is convert_element_type: integer narrowing wraps, float
// narrowing rounds to nearest even, anything non-zero (nan too) is True,
// float to integer truncates toward zero and saturates (nan gives 0).
func (b *builder) convert(x val, to trace.DType) (val, error) {
	from := x.dt
	fc, _ := ctype(from)
	tc, err := ctype(to)
	if err != nil {
		return val{}, unsupported("convert_element_type to %s", to)
	}
	fromF := fc == "f32" || fc == "f64"
	toF := tc == "f32" || tc == "f64"
	r := b.fresh(to)
	switch {
	case from == to:
		return x, nil
	case to == trace.Bool:
		p := b.reg(rPred)
		if fromF {
			b.op("setp.neu.%s %s, %s, %s", fc, p, x.r, fImm(fc, 0))
		} else {
			b.op("setp.ne.%s %s, %s, 0", fc, p, x.r)
		}
		return b.fromPred(p), nil
	case fromF && toF:
		switch {
		case to == trace.Float16 && from == trace.Float64:
			h := b.reg(rB16)
			b.op("cvt.rn.f16.f64 %s, %s", h, x.r)
			b.op("cvt.f32.f16 %s, %s", r.r, h)
			return r, nil
		case fc == tc:
			b.op("mov.f32 %s, %s", r.r, x.r)
		case tc == "f64":
			b.op("cvt.f64.f32 %s, %s", r.r, x.r)
		default:
			// float64 to bfloat16 rounds twice (through float32).
			b.op("cvt.rn.f32.f64 %s, %s", r.r, x.r)
		}
		return b.normalize(r), nil
	case !fromF && toF:
		if to == trace.Float16 {
			h := b.reg(rB16)
			b.op("cvt.rn.f16.%s %s, %s", fc, h, x.r)
			b.op("cvt.f32.f16 %s, %s", r.r, h)
			return r, nil
		}
		b.op("cvt.rn.%s.%s %s, %s", tc, fc, r.r, x.r)
		return b.normalize(r), nil
	case fromF && !toF:
		// Saturating truncation to the target's range (nan gives 0).
		lo, hi := intRange(to)
		if to == trace.Int64 {
			b.op("cvt.rzi.s64.%s %s, %s", fc, r.r, x.r)
			return r, nil
		}
		if to == trace.Uint32 {
			b.op("cvt.rzi.u32.%s %s, %s", fc, r.r, x.r)
			return r, nil
		}
		b.op("cvt.rzi.s32.%s %s, %s", fc, r.r, x.r)
		if to != trace.Int32 {
			b.op("max.s32 %s, %s, %d", r.r, r.r, lo)
			b.op("min.s32 %s, %s, %d", r.r, r.r, hi)
		}
		return r, nil
	}
	// Integer (or bool) to integer: widen with the source's sign, or
	// truncate, then wrap to the target's width.
	switch {
	case tc == "s64":
		b.op("cvt.%s.%s %s, %s", map[bool]string{true: "s64", false: "u64"}[fc == "s32"], fc, r.r, x.r)
	case fc == "s64":
		b.op("cvt.u32.u64 %s, %s", r.r, x.r)
	default:
		b.op("mov.b32 %s, %s", r.r, x.r)
	}
	return b.normalize(r), nil
}

func intRange(dt trace.DType) (int64, int64) {
	bits := dt.Bits()
	if dt.IsUnsigned() {
		return 0, 1<<bits - 1
	}
	return -(1 << (bits - 1)), 1<<(bits-1) - 1
}

// Reductions' combining step and identity.

func (b *builder) combine(prim string, acc, v val) (val, error) {
	dt := acc.dt
	ct, _ := ctype(dt)
	isF := ct == "f32" || ct == "f64"
	switch prim {
	case "reduce_sum":
		if isF {
			b.op("add.rn.%s %s, %s, %s", ct, acc.r, acc.r, v.r)
		} else {
			b.op("add.%s %s, %s, %s", ct, acc.r, acc.r, v.r)
		}
	case "reduce_prod":
		if isF {
			b.op("mul.rn.%s %s, %s, %s", ct, acc.r, acc.r, v.r)
		} else {
			b.op("mul.lo.%s %s, %s, %s", ct, acc.r, acc.r, v.r)
		}
	case "reduce_max", "reduce_min":
		m := b.maxMin(prim == "reduce_max", acc, v)
		b.op("mov.%s %s, %s", movType(ct), acc.r, m.r)
		return acc, nil
	case "reduce_and":
		b.op("and.%s %s, %s, %s", bitsType(dt), acc.r, acc.r, v.r)
	case "reduce_or":
		b.op("or.%s %s, %s, %s", bitsType(dt), acc.r, acc.r, v.r)
	default:
		return val{}, unsupported("%s", prim)
	}
	return b.normalize(acc), nil
}

// reductionIdentity is the value a reduction of nothing gives.
func reductionIdentity(prim string, dt trace.DType) any {
	switch prim {
	case "reduce_sum", "reduce_or":
		return int64(0)
	case "reduce_prod":
		return int64(1)
	case "reduce_and":
		if dt == trace.Bool {
			return true
		}
		return int64(-1)
	case "reduce_max":
		if dt.IsFloat() {
			return math.Inf(-1)
		}
		lo, _ := intRange(dt)
		if dt == trace.Bool {
			return false
		}
		if dt == trace.Int64 {
			return int64(math.MinInt64)
		}
		return lo
	case "reduce_min":
		if dt.IsFloat() {
			return math.Inf(1)
		}
		_, hi := intRange(dt)
		if dt == trace.Bool {
			return true
		}
		if dt == trace.Int64 {
			return int64(math.MaxInt64)
		}
		return hi
	}
	return int64(0)
}
