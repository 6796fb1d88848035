package pyfmt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// spec is a parsed format spec:
// [[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type].
type spec struct {
	fill      rune // ' ' unless given (or '0' from the 0 flag)
	fillGiven bool
	align     byte // 0 when not given: each type has its default
	sign      byte // 0, '+', '-' or ' '
	noNegZero bool // z
	alt       bool // #
	width     int  // -1 when not given
	grouping  byte // 0, ',' or '_'
	groupSize int  // 3, or 4 for '_' with b, o, x, X
	precision int  // -1 when not given
	typ       rune // 0 when not given
}

func isAlign(c rune) bool { return c == '<' || c == '>' || c == '=' || c == '^' }

// parseSpec parses s as Python's parse_internal_render_format_spec does for a
// value whose default alignment is defaultAlign and whose type is named
// typeName (for messages).
func parseSpec(s string, defaultAlign byte, defaultType rune, typeName string) (spec, error) {
	sp := spec{fill: ' ', width: -1, precision: -1, typ: defaultType}
	rs := []rune(s)
	pos := 0
	if len(rs) >= 2 && isAlign(rs[1]) {
		sp.fill, sp.fillGiven, sp.align = rs[0], true, byte(rs[1])
		pos = 2
	} else if len(rs) >= 1 && isAlign(rs[0]) {
		sp.align = byte(rs[0])
		pos = 1
	}
	if pos < len(rs) && (rs[pos] == '+' || rs[pos] == '-' || rs[pos] == ' ') {
		sp.sign = byte(rs[pos])
		pos++
	}
	if pos < len(rs) && rs[pos] == 'z' {
		sp.noNegZero = true
		pos++
	}
	if pos < len(rs) && rs[pos] == '#' {
		sp.alt = true
		pos++
	}
	if !sp.fillGiven && pos < len(rs) && rs[pos] == '0' {
		sp.fill = '0'
		if sp.align == 0 && defaultAlign == '>' {
			sp.align = '='
		}
		pos++
	}
	var err error
	var n int
	if n, pos, err = specInteger(rs, pos); err != nil {
		return sp, err
	} else if n >= 0 {
		sp.width = n
	}
	if pos < len(rs) && rs[pos] == ',' {
		sp.grouping = ','
		pos++
	}
	if pos < len(rs) && rs[pos] == '_' {
		if sp.grouping != 0 {
			return sp, valueError("Cannot specify both ',' and '_'.")
		}
		sp.grouping = '_'
		pos++
	}
	if pos < len(rs) && rs[pos] == ',' && sp.grouping == '_' {
		return sp, valueError("Cannot specify both ',' and '_'.")
	}
	if pos < len(rs) && rs[pos] == '.' {
		pos++
		if n, pos, err = specInteger(rs, pos); err != nil {
			return sp, err
		} else if n < 0 {
			return sp, valueError("Format specifier missing precision")
		}
		sp.precision = n
	}
	if len(rs)-pos > 1 {
		return sp, valueError("Invalid format specifier '%s' for object of type '%s'", s, typeName)
	}
	if pos < len(rs) {
		sp.typ = rs[pos]
	}
	sp.groupSize = 3
	if sp.grouping != 0 {
		switch sp.typ {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if sp.grouping == '_' {
				sp.groupSize = 4
				break
			}
			fallthrough
		default:
			return sp, valueError("Cannot specify '%c' with %s.", sp.grouping, quoteTypeCode(sp.typ))
		}
	}
	return sp, nil
}

// specInteger reads the decimal digits at rs[pos:]; n is -1 when there are
// none.
func specInteger(rs []rune, pos int) (n, next int, err error) {
	n = -1
	for ; pos < len(rs) && '0' <= rs[pos] && rs[pos] <= '9'; pos++ {
		if n < 0 {
			n = 0
		}
		n = n*10 + int(rs[pos]-'0')
		if n > MaxWidth {
			return 0, pos, valueError("Too many decimal digits in format string")
		}
	}
	return n, pos, nil
}

// quoteTypeCode writes a type code as Python's messages do: 'x', or
// '\x..' when it is not printable.
func quoteTypeCode(c rune) string {
	if c > ' ' && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("'\\x%x'", c)
}

// pad aligns body in sp.width with sp.fill; align is sp.align or the
// value's default.
func pad(b *strings.Builder, body string, sp spec, align byte) {
	n := sp.width - utf8.RuneCountInString(body)
	if n <= 0 {
		b.WriteString(body)
		return
	}
	left := 0
	switch align {
	case '>', '=':
		left = n
	case '^':
		left = n / 2
	}
	writeFill(b, sp.fill, left)
	b.WriteString(body)
	writeFill(b, sp.fill, n-left)
}

func writeFill(b *strings.Builder, fill rune, n int) {
	for range n {
		b.WriteRune(fill)
	}
}
