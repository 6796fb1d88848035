package pyfmt

import (
	"strconv"
	"strings"
)

// Format is Python's template.format(*args, **kwargs): literal text with
// {{ and }} for braces, and replacement fields
// {[name][.attr|[key]]...[!conversion][:spec]} where name is a position, a
// keyword, or empty for the next position; the spec may itself hold
// replacement fields, one level deep. kwargs may be nil.
func Format(template string, args []Value, kwargs map[string]Value) (string, error) {
	f := templateFormatter{args: args, kwargs: kwargs}
	var b strings.Builder
	if err := f.build(&b, []rune(template), 2); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Numbering states: a template numbers its fields either automatically
// ({}) or by hand ({0}), never both.
const (
	numberingUnset = iota
	numberingAuto
	numberingManual
)

type templateFormatter struct {
	args      []Value
	kwargs    map[string]Value
	numbering int
	nextAuto  int
}

// build expands s into b; depth counts how many more levels of nested
// fields are allowed.
func (f *templateFormatter) build(b *strings.Builder, s []rune, depth int) error {
	if depth <= 0 {
		return valueError("Max string recursion exceeded")
	}
	pos := 0
	for pos < len(s) {
		// Literal text up to a brace.
		start := pos
		var c rune
		markup := false
		for pos < len(s) {
			c = s[pos]
			pos++
			if c == '{' || c == '}' {
				markup = true
				break
			}
		}
		atEnd := pos >= len(s)
		literal := s[start:pos]
		if markup {
			literal = literal[:len(literal)-1]
		}
		if c == '}' && markup && (atEnd || s[pos] != '}') {
			return valueError("Single '}' encountered in format string")
		}
		if atEnd && c == '{' && markup {
			return valueError("Single '{' encountered in format string")
		}
		b.WriteString(string(literal))
		if !markup {
			continue
		}
		if s[pos] == c {
			b.WriteRune(c)
			pos++
			continue
		}
		next, err := f.field(b, s, pos, depth)
		if err != nil {
			return err
		}
		pos = next
	}
	return nil
}

// field formats the replacement field that starts at s[pos], just after
// its opening brace, and returns the position after its closing brace.
func (f *templateFormatter) field(b *strings.Builder, s []rune, pos, depth int) (int, error) {
	// The name runs to the first '}', ':' or '!' outside brackets.
	start := pos
	var stop rune
scan:
	for pos < len(s) {
		c := s[pos]
		pos++
		switch c {
		case '{':
			return 0, valueError("unexpected '{' in field name")
		case '[':
			for pos < len(s) && s[pos] != ']' {
				pos++
			}
		case '}', ':', '!':
			stop = c
			break scan
		}
	}
	if stop == 0 {
		return 0, valueError("expected '}' before end of string")
	}
	name := s[start : pos-1]
	var conversion rune
	var specText []rune
	if stop == '!' {
		if pos >= len(s) {
			return 0, valueError("end of string while looking for conversion specifier")
		}
		conversion = s[pos]
		pos++
		if pos < len(s) {
			c := s[pos]
			pos++
			if c == '}' {
				stop = c
			} else if c != ':' {
				return 0, valueError("expected ':' after conversion specifier")
			}
		}
	}
	if stop != '}' {
		specStart, count := pos, 1
		for count > 0 {
			if pos >= len(s) {
				return 0, valueError("unmatched '{' in format spec")
			}
			switch s[pos] {
			case '{':
				count++
			case '}':
				count--
			}
			pos++
		}
		specText = s[specStart : pos-1]
	}
	v, err := f.lookup(name)
	if err != nil {
		return 0, err
	}
	switch conversion {
	case 0:
	case 'r':
		v = str(v.Repr())
	case 's':
		v = str(v.Str())
	case 'a':
		v = str(ASCII(v.Repr()))
	default:
		if conversion > ' ' && conversion < 0x7f {
			return 0, valueError("Unknown conversion specifier %c", conversion)
		}
		return 0, valueError("Unknown conversion specifier \\x%x", conversion)
	}
	spec := string(specText)
	if strings.ContainsAny(spec, "{}") {
		var expanded strings.Builder
		if err := f.build(&expanded, specText, depth-1); err != nil {
			return 0, err
		}
		spec = expanded.String()
	}
	return pos, formatValue(b, v, spec)
}

// lookup finds a field's value: its first part names an argument, then
// .attr and [key] parts select within it.
func (f *templateFormatter) lookup(name []rune) (Value, error) {
	i := 0
	for i < len(name) && name[i] != '.' && name[i] != '[' {
		i++
	}
	first, rest := string(name[:i]), name[i:]
	index, isIndex := digitsValue(first)
	if first == "" || isIndex {
		if f.numbering == numberingUnset {
			f.numbering = numberingManual
			if first == "" {
				f.numbering = numberingAuto
			}
		}
		if first == "" {
			if f.numbering == numberingManual {
				return nil, valueError("cannot switch from manual field specification to automatic field numbering")
			}
			index = f.nextAuto
			f.nextAuto++
		} else if f.numbering == numberingAuto {
			return nil, valueError("cannot switch from automatic field numbering to manual field specification")
		}
	}
	var v Value
	if first != "" && !isIndex {
		var ok bool
		if v, ok = f.kwargs[first]; !ok {
			return nil, &Error{"KeyError", "no keyword argument named '" + first + "' for the format field {" + string(name) + "}"}
		}
	} else {
		if index < 0 || index >= len(f.args) {
			return nil, &Error{"IndexError", "Replacement index " + strconv.Itoa(index) + " out of range for positional args tuple"}
		}
		v = f.args[index]
	}
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		var part string
		switch c {
		case '.':
			j := 0
			for j < len(rest) && rest[j] != '.' && rest[j] != '[' {
				j++
			}
			part, rest = string(rest[:j]), rest[j:]
		case '[':
			j := 0
			for j < len(rest) && rest[j] != ']' {
				j++
			}
			if j == len(rest) {
				return nil, valueError("Missing ']' in format string")
			}
			part, rest = string(rest[:j]), rest[j+1:]
		default:
			return nil, valueError("Only '.' or '[' may follow ']' in format field specifier")
		}
		if part == "" {
			return nil, valueError("Empty attribute in format string")
		}
		var err error
		if c == '.' {
			v, err = attr(v, part)
		} else {
			v, err = item(v, part)
		}
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}

func attr(v Value, name string) (Value, error) {
	if a, ok := v.(HasAttrs); ok {
		return a.Attr(name)
	}
	return nil, &Error{"AttributeError", "'" + v.Type() + "' object has no attribute '" + name + "'"}
}

func item(v Value, key string) (Value, error) {
	x, ok := v.(Indexable)
	if !ok {
		return nil, typeError("'%s' object is not subscriptable", v.Type())
	}
	if n, ok := digitsValue(key); ok {
		return x.Index(n)
	}
	return x.Index(key)
}

// digitsValue reads s as a field index: only decimal digits.
func digitsValue(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > MaxWidth {
			return MaxWidth + 1, true
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
