package arrayfmt

import (
	"math/big"
	"strconv"
	"strings"
)

// floatKind names the binary format whose neighbours decide how many digits
// are needed to identify a value uniquely.
type floatKind int

const (
	kindFloat16 floatKind = iota
	kindFloat32
	kindFloat64
)

// decimal is a non-negative decimal number digits × 10^(exp-len(digits)+1):
// digits has no leading or trailing zeros (zero itself is "0") and exp is the
// power of ten of the first digit, as in scientific notation.
type decimal struct {
	digits string
	exp    int
}

// cutoffMode says what a digit limit counts, as in NumPy's Dragon4:
// significant digits (scientific) or digits after the point (positional).
type cutoffMode int

const (
	cutoffSignificant cutoffMode = iota
	cutoffFraction
)

// uniqueDigits reproduces NumPy's Dragon4 in "unique" mode (NumPy >= 1.21)
// for a finite abs >= 0. Dragon4 emits digits until they identify the value
// uniquely, but never stops before the minimum digit and always stops at the
// limit digit; whichever digit it stops at, the last one is rounded to
// nearest, ties to even, so the result is the exact binary value rounded at
// the stopping digit. The shortest digits are that rounding at their own
// length, so only the stopping position has to be found here. In
// cutoffFraction mode limit and minimum count digits after the point (a
// minimum of 0 prints every integer digit exactly: float16 65504 gives
// "65504.", not the shortest "65500."); in cutoffSignificant mode they count
// significant digits. Negative means no limit or no minimum.
func uniqueDigits(abs float64, kind floatKind, mode cutoffMode, limit, minimum int) decimal {
	if abs == 0 {
		return decimal{digits: "0"}
	}
	short := shortestDigits(abs, kind)
	var stop int // position of the shortest's last digit, in the mode's units
	if mode == cutoffFraction {
		stop = len(short.digits) - 1 - short.exp
	} else {
		stop = len(short.digits)
	}
	want := stop
	if minimum >= 0 && want < minimum {
		want = minimum
	}
	if limit >= 0 && want > limit {
		want = limit
	}
	switch {
	case want == stop:
		return short
	case mode == cutoffFraction:
		return parseFixed(strconv.FormatFloat(abs, 'f', want, 64))
	default:
		return parseScientific(strconv.FormatFloat(abs, 'e', max(want-1, 0), 64))
	}
}

// shortestDigits returns the shortest decimal that reads back as abs in its
// own format, the closest one when several have that length.
func shortestDigits(abs float64, kind floatKind) decimal {
	switch kind {
	case kindFloat16:
		return shortestFloat16(abs)
	case kindFloat32:
		return evenOnTie(abs, parseScientific(strconv.FormatFloat(abs, 'e', -1, 32)), 32)
	default:
		return evenOnTie(abs, parseScientific(strconv.FormatFloat(abs, 'e', -1, 64)), 64)
	}
}

// evenOnTie applies Dragon4's tie rule to strconv's shortest digits. When
// the exact value lies exactly halfway between two shortest candidates
// that both read back (float32 2^-12 = 0.000244140625 between 0.00024414062
// and 0.00024414063), strconv may take the upper one; Dragon4 takes the one
// with the even last digit.
func evenOnTie(abs float64, d decimal, bitSize int) decimal {
	n := len(d.digits)
	// One digit more, correctly rounded: a tie shows as a final 5 that is
	// the exact value.
	longer := scientificMantissa(strconv.FormatFloat(abs, 'e', n, 64))
	if longer.digits[n] != '5' {
		return d
	}
	exact, ok := new(big.Rat).SetString(longer.digits[:1] + "." + longer.digits[1:] +
		"e" + strconv.Itoa(longer.exp))
	if !ok || exact.Cmp(new(big.Rat).SetFloat64(abs)) != 0 {
		return d
	}
	even := decimal{digits: longer.digits[:n], exp: longer.exp}
	if (even.digits[n-1]-'0')%2 == 1 {
		even = roundUpLastDigit(even)
	}
	even = trimDecimal(even)
	if even == d {
		return d
	}
	v, err := strconv.ParseFloat(even.digits+"e"+strconv.Itoa(even.exp-len(even.digits)+1), bitSize)
	if err != nil || v != abs {
		return d
	}
	return even
}

// shortestFloat16 finds the shortest round-tripping decimal for a float16,
// which strconv cannot do. At each length n it tries the n-digit truncation
// of the exact value and the next n-digit number above it, exactly the two
// candidates Dragon4 weighs: if both read back as the same float16 the closer
// one wins (ties to an even last digit), otherwise the one that reads back.
// "Reads back" uses round-to-nearest-even, which makes the interval inclusive
// for even mantissas, as NumPy's Dragon4 does.
func shortestFloat16(abs float64) decimal {
	target := float64ToFloat16(abs)
	// A float16 is m × 2^k with m < 2^11 and k >= -24, whose exact decimal
	// has at most 21 significant digits, so 30 digits after the point are
	// the exact value.
	exact := scientificMantissa(strconv.FormatFloat(abs, 'e', 30, 64))
	all, exp := exact.digits, exact.exp
	for n := 1; n <= len(all); n++ {
		down := decimal{digits: all[:n], exp: exp}
		up := roundUpLastDigit(down)
		downOK := readsBackAsFloat16(down, target)
		upOK := readsBackAsFloat16(up, target)
		switch {
		case downOK && upOK:
			if restRoundsUp(all[n:], down.digits[n-1]) {
				return trimDecimal(up)
			}
			return trimDecimal(down)
		case downOK:
			return trimDecimal(down)
		case upOK:
			return trimDecimal(up)
		}
	}
	return trimDecimal(exact)
}

// restRoundsUp decides round-to-nearest for the dropped digits rest after a
// kept digit last: up when rest > one half, to even when exactly one half.
func restRoundsUp(rest string, last byte) bool {
	if rest == "" || rest[0] < '5' {
		return false
	}
	if rest[0] > '5' || strings.TrimRight(rest[1:], "0") != "" {
		return true
	}
	return (last-'0')%2 == 1
}

// roundUpLastDigit adds one unit in the last place of d, carrying.
func roundUpLastDigit(d decimal) decimal {
	b := []byte(d.digits)
	i := len(b) - 1
	for i >= 0 && b[i] == '9' {
		b[i] = '0'
		i--
	}
	if i < 0 {
		return decimal{digits: "1" + string(b), exp: d.exp + 1}
	}
	b[i]++
	return decimal{digits: string(b), exp: d.exp}
}

func readsBackAsFloat16(d decimal, target uint16) bool {
	// Parsing to float64 first cannot double-round here: a decimal of a few
	// digits is never within a float64 ulp of a float16 midpoint unless it is
	// that midpoint exactly, which float64 represents exactly.
	v, err := strconv.ParseFloat(d.digits+"e"+strconv.Itoa(d.exp-len(d.digits)+1), 64)
	return err == nil && float64ToFloat16(v) == target
}

// parseScientific reads strconv's 'e' output ("1.2345e+06") of a non-negative
// number.
func parseScientific(s string) decimal {
	return trimDecimal(scientificMantissa(s))
}

// scientificMantissa splits 'e' output into its digit string and exponent,
// keeping trailing zeros.
func scientificMantissa(s string) decimal {
	mantissa, exponent, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(exponent)
	return decimal{digits: strings.Replace(mantissa, ".", "", 1), exp: exp}
}

// parseFixed reads strconv's 'f' output ("0.00123") of a non-negative number.
func parseFixed(s string) decimal {
	whole, frac, _ := strings.Cut(s, ".")
	digits := whole + frac
	exp := len(whole) - 1
	trimmed := strings.TrimLeft(digits, "0")
	exp -= len(digits) - len(trimmed)
	return trimDecimal(decimal{digits: trimmed, exp: exp})
}

// trimDecimal drops trailing zeros (Dragon4 never emits them) and
// normalises zero to "0".
func trimDecimal(d decimal) decimal {
	d.digits = strings.TrimRight(d.digits, "0")
	if d.digits == "" {
		return decimal{digits: "0"}
	}
	return d
}
