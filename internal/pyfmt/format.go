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

	// Staging (see Stage): deferred says which values wait for run time;
	// later collects them; inSpec is set while a spec's nested fields are
	// expanded (their values are needed now).
	staging  bool
	deferred func(Value) bool
	later    []Value
	inSpec   bool
}

// A Composite is text with values inside that wait for run time (a
// container of traced arrays): Text[i] comes before Holes[i], and the last
// Text after the last hole. Stage writes each hole as a {!r} field.
type Composite interface {
	Value
	Parts() (text []string, holes []Value)
}

// Stage applies a str.format template to arguments some of whose values
// exist only later (deferred(v) is true, or v is a Composite holding them):
// it formats every field it can now, and returns a template of positional
// fields ({}, {!r}, {:.3f}, ...) for the rest, with the values to apply it
// to later, in order. Format(later template, later values) then gives
// what Format(template, args, kwargs) would have. A spec's nested fields
// must be known now.
func Stage(template string, args []Value, kwargs map[string]Value, deferred func(Value) bool) (string, []Value, error) {
	f := templateFormatter{args: args, kwargs: kwargs, staging: true, deferred: deferred}
	var b strings.Builder
	if err := f.build(&b, []rune(template), 2); err != nil {
		return "", nil, err
	}
	return b.String(), f.later, nil
}

var escapeBraces = strings.NewReplacer("{", "{{", "}", "}}")

// writeText writes literal or formatted text, braces doubled when the
// output is itself a template.
func (f *templateFormatter) writeText(b *strings.Builder, s string) {
	if f.staging && !f.inSpec {
		escapeBraces.WriteString(b, s)
		return
	}
	b.WriteString(s)
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
		f.writeText(b, string(literal))
		if !markup {
			continue
		}
		if s[pos] == c {
			f.writeText(b, string(c))
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
	if f.staging {
		if _, isComposite := v.(Composite); isComposite || f.deferred(v) {
			if f.inSpec {
				return 0, valueError("a format spec cannot use a value known only at run time")
			}
			return pos, f.deferField(b, v, conversion, specText, depth)
		}
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
	spec, err := f.expandSpec(specText, depth)
	if err != nil {
		return 0, err
	}
	if f.staging && !f.inSpec {
		var text strings.Builder
		if err := formatValue(&text, v, spec); err != nil {
			return 0, err
		}
		f.writeText(b, text.String())
		return pos, nil
	}
	return pos, formatValue(b, v, spec)
}

// expandSpec fills the nested fields of a spec.
func (f *templateFormatter) expandSpec(specText []rune, depth int) (string, error) {
	spec := string(specText)
	if !strings.ContainsAny(spec, "{}") {
		return spec, nil
	}
	var expanded strings.Builder
	wasInSpec := f.inSpec
	f.inSpec = true
	err := f.build(&expanded, specText, depth-1)
	f.inSpec = wasInSpec
	return expanded.String(), err
}

// deferField writes the field for a value known only later: a positional field
// with the conversion and the expanded spec, or for a Composite its text
// with a {!r} field per hole.
func (f *templateFormatter) deferField(b *strings.Builder, v Value, conversion rune, specText []rune, depth int) error {
	switch conversion {
	case 0, 'r', 's', 'a':
	default:
		if conversion > ' ' && conversion < 0x7f {
			return valueError("Unknown conversion specifier %c", conversion)
		}
		return valueError("Unknown conversion specifier \\x%x", conversion)
	}
	spec, err := f.expandSpec(specText, depth)
	if err != nil {
		return err
	}
	if c, ok := v.(Composite); ok {
		if spec != "" {
			return unsupportedSpec(v)
		}
		text, holes := c.Parts()
		for i, t := range text {
			escapeBraces.WriteString(b, t)
			if i < len(holes) {
				b.WriteString("{!r}")
				f.later = append(f.later, holes[i])
			}
		}
		return nil
	}
	if strings.ContainsAny(spec, "{}") {
		return valueError("the format spec %q of a value known only at run time cannot hold a brace", spec)
	}
	b.WriteByte('{')
	if conversion != 0 {
		b.WriteByte('!')
		b.WriteRune(conversion)
	}
	if spec != "" {
		b.WriteByte(':')
		b.WriteString(spec)
	}
	b.WriteByte('}')
	f.later = append(f.later, v)
	return nil
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
		return a.Field(name)
	}
	return nil, &Error{"AttributeError", "'" + v.Type() + "' object has no attribute '" + name + "'"}
}

func item(v Value, key string) (Value, error) {
	x, ok := v.(Indexable)
	if !ok {
		return nil, typeError("'%s' object is not subscriptable", v.Type())
	}
	if n, ok := digitsValue(key); ok {
		return x.Item(n)
	}
	return x.Item(key)
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
