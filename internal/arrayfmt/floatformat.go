package arrayfmt

import (
	"math"
	"strings"
)

// floatFormat is NumPy's FloatingFormat (numpy/core/arrayprint.py) with
// floatmode='maxprec' and sign='-' (or sign='+', for the imaginary parts of
// complex numbers): one format chosen from all the values that will be
// shown, so that the printed column lines up.
type floatFormat struct {
	kind       floatKind
	plus       bool // sign='+': "+1.", "+inf", "+nan"
	scientific bool // exponent notation for every element
	precision  int  // cutoff: digits after the point (or after the first digit)
	style      numberStyle
}

// newFloatFormat follows FloatingFormat.fillFormat. values are the elements
// that will be printed (after summarisation), as float64; plus selects
// sign='+'.
func newFloatFormat(values []float64, kind floatKind, plus bool, o Options) *floatFormat {
	f := &floatFormat{kind: kind, plus: plus, precision: o.Precision}
	var finite []float64
	var minAbs, maxAbs float64
	nonZero := false
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		finite = append(finite, v)
		if a := math.Abs(v); a != 0 {
			if !nonZero || a < minAbs {
				minAbs = a
			}
			if !nonZero || a > maxAbs {
				maxAbs = a
			}
			nonZero = true
		}
	}
	if nonZero {
		f.scientific = maxAbs >= 1e8 ||
			(!o.SuppressSmall && (minAbs < 1e-4 || ratioOver1000(maxAbs, minAbs, kind)))
	}

	switch {
	case len(finite) == 0:
		f.style = numberStyle{trim: trimZeros}
	case f.scientific:
		// First pass at full precision: the widest fraction sets how many
		// digits every element gets, and the longest exponent its width.
		maxFraction, maxWhole, maxExponent := 0, 0, 0
		for _, v := range finite {
			whole, fraction, exponent := scientificParts(signText(math.Signbit(v), plus), f.digits(v, -1), 0)
			maxWhole = max(maxWhole, len(whole))
			maxFraction = max(maxFraction, len(fraction))
			maxExponent = max(maxExponent, len(exponent))
		}
		f.precision = maxFraction
		expSize := maxExponent - 1 // the exponent text includes its sign
		f.style = numberStyle{
			minDigits: maxFraction,
			trim:      trimKeep,
			padLeft:   maxWhole,
			padRight:  expSize + 2 + maxFraction, // only used to size nan/inf
			expDigits: expSize,
			plus:      plus,
		}
	default:
		maxWhole, maxFraction := 0, 0
		for _, v := range finite {
			whole, fraction := positionalParts(signText(math.Signbit(v), plus), f.digits(v, -1))
			maxWhole = max(maxWhole, len(whole))
			maxFraction = max(maxFraction, len(fraction))
		}
		f.style = numberStyle{trim: trimZeros, padLeft: maxWhole, padRight: maxFraction, plus: plus}
	}

	// nan and inf are right-aligned in the column; widen it if they do not
	// fit ("-inf" needs one more place than "inf"). With sign='+' NumPy
	// always reserves that place ("+inf"); "+nan" is no longer.
	if len(finite) != len(values) {
		negInf := plus
		for _, v := range values {
			negInf = negInf || math.IsInf(v, -1)
		}
		infLen := len("inf")
		if negInf {
			infLen++
		}
		offset := f.style.padRight + 1 // +1 for the point
		f.style.padLeft = max(f.style.padLeft, len("nan")-offset, infLen-offset)
	}
	return f
}

// digits runs Dragon4 on |v| with this format's cutoff and the given
// minimum number of fraction digits (-1: none).
func (f *floatFormat) digits(v float64, minimum int) decimal {
	if f.scientific {
		if minimum >= 0 {
			minimum++ // significant digits: the first one plus the fraction
		}
		return uniqueDigits(math.Abs(v), f.kind, cutoffSignificant, f.precision+1, minimum)
	}
	return uniqueDigits(math.Abs(v), f.kind, cutoffFraction, f.precision, minimum)
}

// format prints one element of the column.
func (f *floatFormat) format(v float64) string {
	if text, ok := nonFiniteText(v); ok {
		if f.plus && text[0] != '-' {
			text = "+" + text
		}
		width := f.style.padLeft + f.style.padRight + 1
		if pad := width - len(text); pad > 0 {
			return strings.Repeat(" ", pad) + text
		}
		return text
	}
	// The second pass asks for at least style.minDigits fraction digits:
	// the column's widest fraction in scientific notation, 0 in positional
	// (floatmode 'maxprec'). Dragon4 fills them with further digits of the
	// exact value, not zeros: float32 0.1 next to 1e-5 prints 1.00000001e-01.
	if f.scientific {
		return formatScientific(math.Signbit(v), f.digits(v, f.style.minDigits), f.style)
	}
	return formatPositional(math.Signbit(v), f.digits(v, f.style.minDigits), f.style)
}

// ratioOver1000 evaluates NumPy's `max_val/min_val > 1000.` where both are
// scalars of the array's dtype, so the quotient is rounded to that dtype:
// float32 division for float32, and for float16 a float32 division rounded
// to float16 (NumPy's half arithmetic). This decides the notation for
// borderline columns like float16 [1.001, 1001.].
func ratioOver1000(maxAbs, minAbs float64, kind floatKind) bool {
	switch kind {
	case kindFloat16:
		q := float32(maxAbs) / float32(minAbs)
		return float16ToFloat64(float64ToFloat16(float64(q))) > 1000
	case kindFloat32:
		return float32(float32(maxAbs)/float32(minAbs)) > 1000
	default:
		return maxAbs/minAbs > 1000
	}
}
