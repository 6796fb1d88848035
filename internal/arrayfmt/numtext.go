package arrayfmt

import (
	"math"
	"strconv"
	"strings"
)

// trimMode is NumPy's `trim` argument of format_float_positional and
// format_float_scientific: what to do with a number that has no digits
// after the point (in unique mode Dragon4 never produces trailing zeros,
// so this is the only case where the modes differ for us).
type trimMode int

const (
	trimKeep         trimMode = iota // 'k': keep the point and any padding zeros: "1."
	trimZeros                        // '.': "1."
	trimLeaveOneZero                 // '0': "1.0"
	trimPointZeros                   // '-': "1"
)

// numberStyle holds the padding arguments of NumPy's Dragon4 formatters.
type numberStyle struct {
	minDigits int      // pad the fraction with zeros to at least this many digits
	trim      trimMode // see trimMode
	padLeft   int      // pad with spaces so sign and integer part take this width
	padRight  int      // pad with spaces so the fraction takes this width (positional)
	expDigits int      // minimum exponent digits (scientific); at least 2
	plus      bool     // '+' before non-negative numbers (Dragon4's sign=True)
}

// signText is the sign Dragon4 prints: "-" for a set sign bit (-0.0
// included), "+" for the others when plus is asked for.
func signText(negative, plus bool) string {
	switch {
	case negative:
		return "-"
	case plus:
		return "+"
	}
	return ""
}

// positionalParts splits d into its integer part, preceded by sign, and its
// fraction digits, both as NumPy's positional format prints them.
func positionalParts(sign string, d decimal) (whole, fraction string) {
	switch {
	case d.exp < 0:
		return sign + "0", strings.Repeat("0", -d.exp-1) + d.digits
	case len(d.digits) <= d.exp+1:
		return sign + d.digits + strings.Repeat("0", d.exp+1-len(d.digits)), ""
	default:
		return sign + d.digits[:d.exp+1], d.digits[d.exp+1:]
	}
}

// formatPositional is NumPy's dragon4_positional for already chosen digits.
func formatPositional(negative bool, d decimal, st numberStyle) string {
	whole, fraction := positionalParts(signText(negative, st.plus), d)
	return assemble(whole, fraction, "", st)
}

// scientificParts splits d into its leading digit, preceded by sign, its
// fraction digits and exponent text ("+05"), as NumPy's scientific format
// prints them.
func scientificParts(sign string, d decimal, expDigits int) (whole, fraction, exponent string) {
	expSign := "+"
	exp := d.exp
	if exp < 0 {
		expSign = "-"
		exp = -exp
	}
	expText := strconv.Itoa(exp)
	if pad := max(expDigits, 2) - len(expText); pad > 0 {
		expText = strings.Repeat("0", pad) + expText
	}
	return sign + d.digits[:1], d.digits[1:], expSign + expText
}

// formatScientific is NumPy's dragon4_scientific for already chosen digits.
func formatScientific(negative bool, d decimal, st numberStyle) string {
	whole, fraction, exponent := scientificParts(signText(negative, st.plus), d, st.expDigits)
	return assemble(whole, fraction, "e"+exponent, st)
}

// assemble joins the parts with the point, applying zero padding, trimming
// and space padding in the order Dragon4 does.
func assemble(whole, fraction, exponent string, st numberStyle) string {
	if len(fraction) < st.minDigits {
		fraction += strings.Repeat("0", st.minDigits-len(fraction))
	}
	var b strings.Builder
	if pad := st.padLeft - len(whole); pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	b.WriteString(whole)
	switch {
	case fraction != "":
		b.WriteString(".")
		b.WriteString(fraction)
	case st.trim == trimLeaveOneZero:
		b.WriteString(".0")
		fraction = "0"
	case st.trim != trimPointZeros:
		b.WriteString(".")
	}
	b.WriteString(exponent)
	if pad := st.padRight - len(fraction); pad > 0 && exponent == "" {
		b.WriteString(strings.Repeat(" ", pad))
	}
	return b.String()
}

// scalarFloatStr is str() of a NumPy float scalar (np.float16/32/64): the
// shortest round-tripping digits, positional with at least one fraction
// digit when 1e-4 <= |v| < 1e16 (or zero), otherwise scientific without a
// bare point ("1e-05", "1.5e+16"). The bounds are compared with the exact
// value, so float32(1e-4), just below 1e-4, prints "1e-04" as NumPy does.
func scalarFloatStr(v float64, kind floatKind) string {
	if text, ok := nonFiniteText(v); ok {
		return text
	}
	abs := math.Abs(v)
	d := uniqueDigits(abs, kind, cutoffFraction, -1, -1)
	if abs == 0 || (abs >= 1e-4 && abs < 1e16) {
		return formatPositional(math.Signbit(v), d, numberStyle{trim: trimLeaveOneZero})
	}
	return formatScientific(math.Signbit(v), d, numberStyle{trim: trimPointZeros})
}

// scalarComplexStr is str() of a NumPy complex scalar (np.complex64/128),
// as numpy/core/src/multiarray/scalartypes.c.src builds it: each part with
// the float scalar rule but with a bare point dropped ("1", "1e-05"), the
// imaginary part signed; "(re+imj)", or just "imj" when the real part is
// +0. nan is never signed; inf and nan in the imaginary part of the
// parenthesised form get their "+".
func scalarComplexStr(re, im float64, kind floatKind) string {
	if re == 0 && !math.Signbit(re) {
		return scalarPartStr(im, kind, false) + "j"
	}
	return "(" + scalarPartStr(re, kind, false) + scalarPartStr(im, kind, true) + "j)"
}

// scalarPartStr is one part of a complex scalar's str; plus prints "+"
// before non-negative numbers, inf and nan.
func scalarPartStr(v float64, kind floatKind, plus bool) string {
	if text, ok := nonFiniteText(v); ok {
		if plus && text[0] != '-' {
			text = "+" + text
		}
		return text
	}
	abs := math.Abs(v)
	d := uniqueDigits(abs, kind, cutoffFraction, -1, -1)
	st := numberStyle{trim: trimPointZeros, plus: plus}
	if abs == 0 || (abs >= 1e-4 && abs < 1e16) {
		return formatPositional(math.Signbit(v), d, st)
	}
	return formatScientific(math.Signbit(v), d, st)
}

// nonFiniteText spells nan and infinities as NumPy does: nan never has a
// sign, -inf does.
func nonFiniteText(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}

// bfloat16Text is how ml_dtypes prints a bfloat16 scalar, for both repr and
// str: C++ `ostream << float`, i.e. printf's %g with 6 significant digits
// (trailing zeros removed, exponent form below 1e-4 or from 1e6), with the
// sign of nan dropped. NumPy's array printer has no formatter for this
// dtype (ml_dtypes registers it under np.generic, not np.floating), so
// arrays print each element with this repr and no column padding.
func bfloat16Text(v float64) string {
	if text, ok := nonFiniteText(v); ok {
		return text
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
