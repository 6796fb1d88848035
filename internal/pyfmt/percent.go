package pyfmt

import (
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
)

// Percent is Python's `format % operand`: a Tuple operand spreads over the
// conversions, a Mapping one answers %(key)s, anything else is the one
// argument. Conversions: %s %r %a %c %d %i %u %o %x %X %e %E %f %F %g %G
// and %%, with the flags - + space # 0, a width and a precision (either may
// be *), and the ignored length modifiers h l L.
func Percent(format string, operand Value) (string, error) {
	p := percent{format: []rune(format)}
	if t, ok := operand.(Tuple); ok {
		p.args = t.Elems()
	} else {
		p.args = []Value{operand}
		p.single = true
		if m, ok := operand.(Mapping); ok {
			if _, isText := operand.(Text); !isText {
				p.mapping = m
			}
		}
	}
	var b strings.Builder
	for p.pos < len(p.format) {
		c := p.format[p.pos]
		p.pos++
		if c != '%' {
			b.WriteRune(c)
			continue
		}
		if err := p.conversion(&b); err != nil {
			return "", err
		}
	}
	if p.next < len(p.args) && p.mapping == nil && !p.keyed {
		return "", typeError("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

type percent struct {
	format  []rune
	pos     int
	args    []Value
	single  bool    // the operand was not a tuple
	next    int     // index of the next argument
	mapping Mapping // the operand, when it answers %(key)s
	keyed   bool    // a %(key) conversion replaced args by one value
}

// Flags of one conversion.
const (
	flagLeft = 1 << iota
	flagSign
	flagBlank
	flagAlt
	flagZero
)

type conversion struct {
	flags     int
	width     int // -1 when not given
	precision int // -1 when not given
	conv      rune
	plain     bool // no key, flags, width, precision or length modifier
}

func (p *percent) nextArg() (Value, error) {
	if p.next < len(p.args) {
		p.next++
		return p.args[p.next-1], nil
	}
	return nil, typeError("not enough arguments for format string")
}

func (p *percent) read() (rune, bool) {
	if p.pos >= len(p.format) {
		return 0, false
	}
	p.pos++
	return p.format[p.pos-1], true
}

func (p *percent) conversion(b *strings.Builder) error {
	if p.pos < len(p.format) && p.format[p.pos] == '%' {
		p.pos++
		b.WriteByte('%')
		return nil
	}
	cv := conversion{width: -1, precision: -1, plain: true}
	if p.pos < len(p.format) && p.format[p.pos] == '(' {
		if p.mapping == nil {
			return typeError("format requires a mapping")
		}
		p.pos++
		start, depth := p.pos, 1
		for depth > 0 && p.pos < len(p.format) {
			switch p.format[p.pos] {
			case ')':
				depth--
			case '(':
				depth++
			}
			p.pos++
		}
		if depth > 0 {
			return valueError("incomplete format key")
		}
		v, err := p.mapping.Lookup(string(p.format[start : p.pos-1]))
		if err != nil {
			return err
		}
		p.args, p.next, p.keyed = []Value{v}, 0, true
	}
	c, ok := p.read()
	for ok {
		f := map[rune]int{'-': flagLeft, '+': flagSign, ' ': flagBlank, '#': flagAlt, '0': flagZero}[c]
		if f == 0 {
			break
		}
		cv.flags |= f
		cv.plain = false
		c, ok = p.read()
	}
	if ok && c == '*' {
		n, err := p.starArg()
		if err != nil {
			return err
		}
		if n < 0 {
			cv.flags |= flagLeft
			n = -n
		}
		if n > MaxWidth {
			return valueError("width too big")
		}
		cv.width = n
		c, ok = p.read()
	} else if ok && '0' <= c && c <= '9' {
		cv.width = int(c - '0')
		for c, ok = p.read(); ok && '0' <= c && c <= '9'; c, ok = p.read() {
			cv.width = cv.width*10 + int(c-'0')
			if cv.width > MaxWidth {
				return valueError("width too big")
			}
		}
	}
	if ok && c == '.' {
		cv.precision = 0
		c, ok = p.read()
		if ok && c == '*' {
			n, err := p.starArg()
			if err != nil {
				return err
			}
			if n > MaxWidth {
				return valueError("precision too big")
			}
			cv.precision = max(n, 0)
			c, ok = p.read()
		} else if ok && '0' <= c && c <= '9' {
			cv.precision = int(c - '0')
			for c, ok = p.read(); ok && '0' <= c && c <= '9'; c, ok = p.read() {
				cv.precision = cv.precision*10 + int(c-'0')
				if cv.precision > MaxWidth {
					return valueError("precision too big")
				}
			}
		}
	}
	if ok && (c == 'h' || c == 'l' || c == 'L') {
		cv.plain = false
		c, ok = p.read()
	}
	if !ok {
		return valueError("incomplete format")
	}
	cv.conv = c
	if cv.width >= 0 || cv.precision >= 0 {
		cv.plain = false
	}
	v, err := p.nextArg()
	if err != nil {
		return err
	}
	return p.convert(b, v, cv)
}

func (p *percent) starArg() (int, error) {
	v, err := p.nextArg()
	if err != nil {
		return 0, err
	}
	i, ok := v.(Integer)
	if !ok {
		return 0, typeError("* wants int")
	}
	x := i.BigInt()
	if !x.IsInt64() || x.Int64() > MaxWidth || x.Int64() < -MaxWidth {
		return MaxWidth + 1, nil
	}
	return int(x.Int64()), nil
}

func (p *percent) convert(b *strings.Builder, v Value, cv conversion) error {
	if cv.plain {
		if pc, ok := v.(PlainConverter); ok {
			if text, ok := pc.PlainConversion(byte(cv.conv)); ok {
				b.WriteString(text)
				return nil
			}
		}
	}
	var text string
	numeric := false
	switch cv.conv {
	case 's':
		text = v.Str()
	case 'r':
		text = v.Repr()
	case 'a':
		text = ASCII(v.Repr())
	case 'c':
		r, err := percentChar(v)
		if err != nil {
			return err
		}
		text = string(r)
	case 'd', 'i', 'u', 'o', 'x', 'X':
		x, err := percentInt(v, cv.conv)
		if err != nil {
			return err
		}
		text = intText(x, cv)
		numeric = true
	case 'e', 'E', 'f', 'F', 'g', 'G':
		f, err := percentFloat(v)
		if err != nil {
			return err
		}
		precision := cv.precision
		if precision < 0 {
			precision = 6
		}
		text = floatText(f, byte(cv.conv), precision, cv.flags&flagAlt != 0, false, false)
		numeric = true
	default:
		ch := '?'
		if cv.conv >= 31 && cv.conv <= 126 {
			ch = cv.conv
		}
		return valueError("unsupported format character '%c' (0x%x) at index %d", ch, cv.conv, p.pos-1)
	}
	writePercentField(b, text, cv, numeric)
	return nil
}

// percentChar is %c's argument: an int code point or a one-character
// string.
func percentChar(v Value) (rune, error) {
	if t, ok := v.(Text); ok {
		s := t.Text()
		if r, size := utf8.DecodeRuneInString(s); size > 0 && size == len(s) {
			return r, nil
		}
		return 0, typeError("%%c requires int or char")
	}
	n, err := number(v)
	if err != nil {
		return 0, err
	}
	if n, ok := n.(Integer); ok {
		x := n.BigInt()
		if x.Sign() < 0 || x.Cmp(big.NewInt(utf8.MaxRune)) > 0 {
			return 0, overflowError("%%c arg not in range(0x110000)")
		}
		return rune(x.Int64()), nil
	}
	return 0, typeError("%%c requires int or char")
}

// percentInt is the argument of an integer conversion: %d %i %u truncate a
// float, %o %x %X take only ints.
func percentInt(v Value, conv rune) (*big.Int, error) {
	num, err := number(v)
	if err != nil {
		return nil, err
	}
	switch n := num.(type) {
	case Integer:
		return n.BigInt(), nil
	case Floating:
		if conv == 'o' || conv == 'x' || conv == 'X' {
			break
		}
		f := n.Float64()
		if math.IsNaN(f) {
			return nil, valueError("cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			return nil, overflowError("cannot convert float infinity to integer")
		}
		x, _ := big.NewFloat(math.Trunc(f)).Int(nil)
		return x, nil
	}
	if conv == 'o' || conv == 'x' || conv == 'X' {
		return nil, typeError("%%%c format: an integer is required, not %s", conv, v.Type())
	}
	return nil, typeError("%%%c format: a real number is required, not %s", conv, v.Type())
}

func percentFloat(v Value) (float64, error) {
	num, err := number(v)
	if err != nil {
		return 0, err
	}
	switch n := num.(type) {
	case Integer:
		return intToFloat(n.BigInt())
	case Floating:
		return n.Float64(), nil
	}
	return 0, typeError("must be real number, not %s", v.Type())
}

// intText is _PyUnicode_FormatLong: sign, the 0x/0X/0o prefix under #,
// then the digits zero-padded to the precision.
func intText(x *big.Int, cv conversion) string {
	base, prefix := 10, ""
	switch cv.conv {
	case 'o':
		base, prefix = 8, "0o"
	case 'x':
		base, prefix = 16, "0x"
	case 'X':
		base, prefix = 16, "0X"
	}
	digits := new(big.Int).Abs(x).Text(base)
	if cv.conv == 'X' {
		digits = strings.ToUpper(digits)
	}
	if n := cv.precision - len(digits); n > 0 {
		digits = strings.Repeat("0", n) + digits
	}
	var b strings.Builder
	if x.Sign() < 0 {
		b.WriteByte('-')
	}
	if cv.flags&flagAlt != 0 {
		b.WriteString(prefix)
	}
	b.WriteString(digits)
	return b.String()
}

// writePercentField pads a converted value as unicode_format_arg_output
// does: numbers take the + and space flags and zero padding after their
// sign and prefix; %s %r %a are cut to the precision.
func writePercentField(b *strings.Builder, text string, cv conversion, numeric bool) {
	fill := ' '
	if numeric && cv.flags&flagZero != 0 {
		fill = '0'
	}
	if !numeric && (cv.conv == 's' || cv.conv == 'r' || cv.conv == 'a') && cv.precision >= 0 {
		text = truncateRunes(text, cv.precision)
	}
	sign := ""
	if numeric {
		switch {
		case strings.HasPrefix(text, "-") || strings.HasPrefix(text, "+"):
			sign, text = text[:1], text[1:]
		case cv.flags&flagSign != 0:
			sign = "+"
		case cv.flags&flagBlank != 0:
			sign = " "
		}
	}
	prefix := ""
	if cv.flags&flagAlt != 0 && (cv.conv == 'x' || cv.conv == 'X' || cv.conv == 'o') {
		prefix, text = text[:2], text[2:]
	}
	n := cv.width - len(sign) - len(prefix) - utf8.RuneCountInString(text)
	if cv.flags&flagLeft != 0 {
		b.WriteString(sign + prefix + text)
		writeFill(b, ' ', n)
		return
	}
	if fill == '0' {
		b.WriteString(sign + prefix)
		writeFill(b, '0', n)
	} else {
		writeFill(b, ' ', n)
		b.WriteString(sign + prefix)
	}
	b.WriteString(text)
}
