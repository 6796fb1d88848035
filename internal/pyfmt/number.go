package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// numberParts is a formatted number split as Python's calc_number_widths
// lays it out: sign, prefix (0x...), the integer digits (which grouping and
// zero padding apply to), then the rest (a decimal point, fraction,
// exponent, % or a 'c' character).
type numberParts struct {
	negative bool
	prefix   string
	digits   string
	rest     string
}

// layoutNumber writes n under sp: sign, grouping, zero padding between the
// sign and the digits when the fill is '0' with '=' alignment, else padding
// by alignment (default right).
func layoutNumber(b *strings.Builder, n numberParts, sp spec) {
	sign := ""
	switch {
	case n.negative:
		sign = "-"
	case sp.sign == '+':
		sign = "+"
	case sp.sign == ' ':
		sign = " "
	}
	align := sp.align
	if align == 0 {
		align = '>'
	}
	fixed := len(sign) + len(n.prefix) + utf8.RuneCountInString(n.rest)
	minWidth := 0
	if sp.fill == '0' && align == '=' {
		minWidth = sp.width - fixed
	}
	digits := n.digits
	if digits != "" {
		digits = groupDigits(digits, minWidth, sp.grouping, sp.groupSize)
	}
	padding := sp.width - fixed - utf8.RuneCountInString(digits)
	left, middle, right := 0, 0, 0
	if padding > 0 {
		switch align {
		case '<':
			right = padding
		case '^':
			left = padding / 2
			right = padding - left
		case '=':
			middle = padding
		default:
			left = padding
		}
	}
	writeFill(b, sp.fill, left)
	b.WriteString(sign)
	b.WriteString(n.prefix)
	writeFill(b, sp.fill, middle)
	b.WriteString(digits)
	b.WriteString(n.rest)
	writeFill(b, sp.fill, right)
}

// groupDigits inserts sep every size digits from the right (none when sep
// is 0) and pads with zero digits, grouped too, to at least minWidth
// characters, as CPython's _PyUnicode_InsertThousandsGrouping does: the
// result never starts with a separator, so it may exceed minWidth by one.
func groupDigits(digits string, minWidth int, sep byte, size int) string {
	var groups []string // from the right
	remaining := len(digits)
	for sep != 0 {
		l := min(size, max(remaining, minWidth, 1))
		zeros := max(0, l-remaining)
		chars := max(0, min(remaining, l))
		groups = append(groups, strings.Repeat("0", zeros)+digits[remaining-chars:remaining])
		remaining -= chars
		minWidth -= l
		if remaining <= 0 && minWidth <= 0 {
			return joinGroups(groups, sep)
		}
		minWidth--
	}
	l := max(remaining, minWidth, 1)
	zeros := max(0, l-remaining)
	chars := max(0, min(remaining, l))
	groups = append(groups, strings.Repeat("0", zeros)+digits[remaining-chars:remaining])
	return joinGroups(groups, sep)
}

func joinGroups(groups []string, sep byte) string {
	var b strings.Builder
	for i := len(groups) - 1; i >= 0; i-- {
		b.WriteString(groups[i])
		if i > 0 {
			b.WriteByte(sep)
		}
	}
	return b.String()
}

// formatInt writes an int under a parsed spec (int.__format__).
func formatInt(b *strings.Builder, x *big.Int, sp spec, typeName string) error {
	switch sp.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, err := intToFloat(x)
		if err != nil {
			return err
		}
		return formatFloat(b, f, sp)
	}
	if sp.precision >= 0 {
		return valueError("Precision not allowed in integer format specifier")
	}
	if sp.noNegZero {
		return valueError("Negative zero coercion (z) not allowed in integer format specifier")
	}
	n := numberParts{negative: x.Sign() < 0}
	abs := new(big.Int).Abs(x)
	switch sp.typ {
	case 'c':
		if sp.sign != 0 {
			return valueError("Sign not allowed with integer format specifier 'c'")
		}
		if sp.alt {
			return valueError("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if x.Sign() < 0 || x.Cmp(big.NewInt(utf8.MaxRune)) > 0 {
			return overflowError("%%c arg not in range(0x110000)")
		}
		n.negative = false
		n.rest = string(rune(x.Int64()))
	case 'd', 'n':
		n.digits = abs.Text(10)
	case 'b', 'o', 'x', 'X':
		base := map[rune]int{'b': 2, 'o': 8, 'x': 16, 'X': 16}[sp.typ]
		n.digits = abs.Text(base)
		if sp.typ == 'X' {
			n.digits = strings.ToUpper(n.digits)
		}
		if sp.alt {
			n.prefix = "0" + string(sp.typ)
		}
	default:
		return unknownCode(sp.typ, typeName)
	}
	layoutNumber(b, n, sp)
	return nil
}

func unknownCode(c rune, typeName string) error {
	if c > ' ' && c < 0x7f {
		return valueError("Unknown format code '%c' for object of type '%s'", c, typeName)
	}
	return valueError("Unknown format code '\\x%x' for object of type '%s'", c, typeName)
}

// intToFloat converts as Python's int.__float__: correctly rounded, an
// OverflowError past the largest float.
func intToFloat(x *big.Int) (float64, error) {
	f, _ := new(big.Float).SetInt(x).Float64()
	if math.IsInf(f, 0) {
		return 0, overflowError("int too large to convert to float")
	}
	return f, nil
}

// formatFloat writes a float under a parsed spec (float.__format__).
func formatFloat(b *strings.Builder, f float64, sp spec) error {
	typ := sp.typ
	precision := sp.precision
	addDot0 := false
	switch typ {
	case 0:
		addDot0 = true
		typ = 'r'
		if precision >= 0 {
			typ = 'g'
		}
	case 'n':
		typ = 'g'
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
	default:
		return unknownCode(typ, "float")
	}
	pct := typ == '%'
	if pct {
		typ = 'f'
		f *= 100
	}
	if precision < 0 {
		precision = 6
	}
	text := floatText(f, byte(typ), precision, sp.alt, addDot0, sp.noNegZero)
	n := numberParts{}
	if strings.HasPrefix(text, "-") {
		n.negative = true
		text = text[1:]
	}
	i := 0
	for i < len(text) && '0' <= text[i] && text[i] <= '9' {
		i++
	}
	n.digits, n.rest = text[:i], text[i:]
	if pct {
		n.rest += "%"
	}
	layoutNumber(b, n, sp)
	return nil
}

// floatText is CPython's PyOS_double_to_string for the codes e E f F g G and
// r (repr: shortest digits, exponent below 1e-4 and from 1e16): a sign only
// when negative (never for nan), inf and nan in the code's case.
func floatText(f float64, code byte, precision int, alt, addDot0, noNegZero bool) string {
	upper := code == 'E' || code == 'F' || code == 'G'
	code |= 0x20 // lower case
	negative := math.Signbit(f)
	switch {
	case math.IsNaN(f):
		return caseOf("nan", upper)
	case math.IsInf(f, 0):
		if negative {
			return caseOf("-inf", upper)
		}
		return caseOf("inf", upper)
	}
	var digits string
	var decpt int
	switch code {
	case 'e':
		digits, decpt = significantDigits(f, precision+1)
	case 'f':
		digits, decpt = fixedDigits(f, precision)
	case 'g':
		if precision == 0 {
			precision = 1
		}
		digits, decpt = significantDigits(f, precision)
	case 'r':
		digits, decpt = significantDigits(f, -1)
	}
	if noNegZero && strings.Trim(digits, "0") == "" {
		negative = false
	}
	useExp := false
	vend := len(digits)
	switch code {
	case 'e':
		useExp = true
		vend = precision + 1
	case 'f':
		vend = decpt + precision
	case 'g':
		limit := precision
		if addDot0 {
			limit--
		}
		useExp = decpt <= -4 || decpt > limit
		if alt {
			vend = precision
		}
	case 'r':
		useExp = decpt <= -4 || decpt > 16
	}
	exp := 0
	if useExp {
		exp = decpt - 1
		decpt = 1
	}
	vstart := 0
	if decpt <= 0 {
		vstart = decpt - 1
	}
	if !useExp && addDot0 {
		vend = max(vend, decpt+1)
	} else {
		vend = max(vend, decpt)
	}
	var out strings.Builder
	if negative {
		out.WriteByte('-')
	}
	if decpt <= 0 {
		out.WriteString(strings.Repeat("0", decpt-vstart))
		out.WriteByte('.')
		out.WriteString(strings.Repeat("0", -decpt))
	} else {
		out.WriteString(strings.Repeat("0", -vstart))
	}
	if 0 < decpt && decpt <= len(digits) {
		out.WriteString(digits[:decpt])
		out.WriteByte('.')
		out.WriteString(digits[decpt:])
	} else {
		out.WriteString(digits)
	}
	if len(digits) < decpt {
		out.WriteString(strings.Repeat("0", decpt-len(digits)))
		out.WriteByte('.')
		out.WriteString(strings.Repeat("0", vend-decpt))
	} else {
		out.WriteString(strings.Repeat("0", vend-len(digits)))
	}
	s := out.String()
	if strings.HasSuffix(s, ".") && !alt {
		s = s[:len(s)-1]
	}
	if useExp {
		e := "e"
		if upper {
			e = "E"
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		s += e + sign + es
	}
	return s
}

func caseOf(s string, upper bool) string {
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

// significantDigits returns |f| correctly rounded to n significant digits
// (n < 0: the shortest that reads back as f), trailing zeros removed, and
// the position of the decimal point relative to the digits' start (as
// dtoa's decpt: 1.5 is "15", 1). Zero is "0", 1.
func significantDigits(f float64, n int) (string, int) {
	if f == 0 {
		return "0", 1
	}
	prec := n - 1
	if n < 0 {
		prec = -1
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', prec, 64)
	ePos := strings.IndexByte(s, 'e')
	mant, expText := s[:ePos], s[ePos+1:]
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "0", 1
	}
	return digits, exp + 1
}

// fixedDigits returns |f| correctly rounded to n digits after the point,
// leading and trailing zeros removed, with its decimal point position; a
// value that rounds to zero is "0", 1.
func fixedDigits(f float64, n int) (string, int) {
	s := strconv.FormatFloat(math.Abs(f), 'f', n, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	digits := intPart + frac
	decpt := len(intPart)
	trimmed := strings.TrimLeft(digits, "0")
	decpt -= len(digits) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if trimmed == "" {
		return "0", 1
	}
	return trimmed, decpt
}

// ReprFloat is Python's repr of a float: the shortest digits that read back
// as f, in exponent form below 1e-4 and from 1e16, else with a ".0" when
// integral.
func ReprFloat(f float64) string {
	return floatText(f, 'r', 0, false, true, false)
}
