package trace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Jaxpr text spells values the way Python's repr does, so that jaxsh's IR
// reads like JAX's. These helpers produce that spelling.

// pyIntTuple prints ints as a Python tuple: (), (3,), (1, 2).
func pyIntTuple(xs []int) string {
	switch len(xs) {
	case 0:
		return "()"
	case 1:
		return "(" + strconv.Itoa(xs[0]) + ",)"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// pyIntList prints ints as a Python list: [], [1, 2].
func pyIntList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// pyTuple wraps already printed items in a Python tuple.
func pyTuple(items []string) string {
	if len(items) == 1 {
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// pyFloat is Python's repr of a float: the shortest digits that read back as
// v, positional for decimal exponents in [-4, 16) and with ".0" when
// integral, scientific otherwise (1e-05, 1e+16, 1.5e+300).
func pyFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	// Shortest round-trip digits in scientific form: "-d.ddde±XX".
	sci := strconv.FormatFloat(v, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(sci, "e")
	exp, _ := strconv.Atoi(expStr)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		esign := "+"
		if exp < 0 {
			esign, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, esign, exp)
	}
	var s string
	switch point := exp + 1; {
	case point <= 0:
		s = "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		s = digits + strings.Repeat("0", point-len(digits)) + ".0"
	default:
		s = digits[:point] + "." + digits[point:]
	}
	return sign + s
}

// pyComplex is Python's repr of a complex number: (1+2j), 3j, (-0-1j).
func pyComplex(c complex128) string {
	re, im := real(c), imag(c)
	imStr := pyFloatForComplex(im) + "j"
	if re == 0 && !math.Signbit(re) {
		return imStr
	}
	if !strings.HasPrefix(imStr, "-") {
		imStr = "+" + imStr
	}
	return "(" + pyFloatForComplex(re) + imStr + ")"
}

// Python prints complex components without the ".0" of integral floats.
func pyFloatForComplex(v float64) string {
	return strings.TrimSuffix(pyFloat(v), ".0")
}

// pyString is Python's repr of a str: single quotes unless the text holds a
// single quote and no double quote, with Python's escapes.
func pyString(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || strconv.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	b.WriteByte(quote)
	return b.String()
}
