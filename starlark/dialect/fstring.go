package dialect

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// An f-string becomes a call of the hidden builtin __fstring__ with a
// str.format template and the values of its replacement fields in source
// order (a field's own value, then those nested in its spec):
//
//	f"loss {loss:.{p}f} at {step=}"  →  __fstring__("loss {:.{}f} at step={!r}", loss, p, step)
//
// The call is placed at the f-string, so a formatting error points there.
// An f-string without fields is its text, a string literal. As in Python
// 3.11, a field's expression may not hold a backslash, a '#', or the
// f-string's own quote; `{{` and `}}` are braces; `{x=}` writes the
// expression's text, then repr(x) unless a conversion or spec says
// otherwise.

// fstringPart is a replacement field of an f-string.
type fstringPart struct {
	expr       syntax.Expr
	conversion byte   // 0, 'r', 's' or 'a'
	spec       string // template text of the spec, nested fields as {}
	nested     []syntax.Expr
}

// fstringParser reads the body of one f-string (between its quotes).
type fstringParser struct {
	p        *parser
	body     string
	raw      bool
	bodyPos  syntax.Position // position of body[0]
	off      int             // next unread byte of body
	template strings.Builder
	args     []syntax.Expr
}

func (p *parser) fstring() syntax.Expr {
	pos, raw := p.val.pos, p.val.raw
	p.advance()
	prefix := 0
	for raw[prefix] != '"' && raw[prefix] != '\'' {
		prefix++
	}
	isRaw := strings.ContainsAny(raw[:prefix], "rR")
	delim := 1
	if len(raw)-prefix >= 6 && raw[prefix+1] == raw[prefix] && raw[prefix+2] == raw[prefix] {
		delim = 3
	}
	fp := &fstringParser{p: p, body: raw[prefix+delim : len(raw)-delim], raw: isRaw, bodyPos: advancePos(pos, raw[:prefix+delim])}
	fp.top()
	if len(fp.args) == 0 {
		text, err := fp.unescapeTemplate()
		if err != nil {
			p.sc.fail(pos, "%v", err)
		}
		return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(text), Value: text}
	}
	template := fp.template.String()
	lit := &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(template), Value: template}
	return hiddenCall("__fstring__", pos, append([]syntax.Expr{lit}, fp.args...)...)
}

// unescapeTemplate turns the template of a field-less f-string back into
// its text.
func (fp *fstringParser) unescapeTemplate() (string, error) {
	t := fp.template.String()
	return strings.NewReplacer("{{", "{", "}}", "}").Replace(t), nil
}

// advancePos returns the position after text, which starts at pos.
func advancePos(pos syntax.Position, text string) syntax.Position {
	for _, r := range text {
		if r == '\n' {
			pos.Line++
			pos.Col = 1
		} else {
			pos.Col++
		}
	}
	return pos
}

func (fp *fstringParser) posAt(off int) syntax.Position {
	return advancePos(fp.bodyPos, fp.body[:off])
}

func (fp *fstringParser) fail(off int, format string, args ...any) {
	fp.p.sc.fail(fp.posAt(off), format, args...)
}

// literal appends the decoded literal text up to the next brace to the
// template, braces escaped; a doubled brace at the top level is one brace.
// inSpec: a '}' ends the text (the end of the spec), a '{' starts a field.
func (fp *fstringParser) literal(inSpec bool) {
	var text strings.Builder
	start := fp.off
	flush := func(end int) {
		s, err := decodeBody(fp.body[start:end], fp.raw, false)
		if err != nil {
			fp.fail(start, "%v", err)
		}
		text.WriteString(s)
	}
	for fp.off < len(fp.body) {
		c := fp.body[fp.off]
		if c == '\\' && !fp.raw && fp.off+1 < len(fp.body) {
			fp.off += 2
			continue
		}
		if c != '{' && c != '}' {
			fp.off++
			continue
		}
		if !inSpec && fp.off+1 < len(fp.body) && fp.body[fp.off+1] == c {
			flush(fp.off + 1)
			fp.off += 2
			start = fp.off
			continue
		}
		if c == '}' && !inSpec {
			fp.fail(fp.off, "f-string: single '}' is not allowed")
		}
		break
	}
	flush(fp.off)
	fp.template.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(text.String()))
}

// top reads the whole body: literal text and fields.
func (fp *fstringParser) top() {
	for {
		fp.literal(false)
		if fp.off >= len(fp.body) {
			return
		}
		fp.off++ // '{'
		part := fp.field(1)
		fp.writeField(&fp.template, part)
	}
}

func (fp *fstringParser) writeField(b *strings.Builder, part fstringPart) {
	b.WriteByte('{')
	if part.conversion != 0 {
		b.WriteByte('!')
		b.WriteByte(part.conversion)
	}
	if part.spec != "" {
		b.WriteByte(':')
		b.WriteString(part.spec)
	}
	b.WriteByte('}')
	fp.args = append(fp.args, part.expr)
	fp.args = append(fp.args, part.nested...)
}

// field reads a replacement field after its '{', through its '}'. level is
// 1 for a field of the f-string, 2 for one nested in a spec.
func (fp *fstringParser) field(level int) fstringPart {
	if level > 2 {
		fp.fail(fp.off, "f-string: expressions nested too deeply")
	}
	exprStart := fp.off
	exprEnd := fp.scanExpr()
	exprText := fp.body[exprStart:exprEnd]
	if strings.TrimSpace(exprText) == "" {
		fp.fail(exprStart, "f-string: empty expression not allowed")
	}
	part := fstringPart{expr: fp.parseExpr(exprText, fp.posAt(exprStart))}
	debugText := ""
	if fp.body[fp.off] == '=' {
		fp.off++
		for fp.off < len(fp.body) && strings.IndexByte(" \t\n\r\f\v", fp.body[fp.off]) >= 0 {
			fp.off++
		}
		debugText = fp.body[exprStart:fp.off]
		if fp.off >= len(fp.body) {
			fp.fail(fp.off, "f-string: expecting '}'")
		}
	}
	if fp.body[fp.off] == '!' {
		fp.off++
		if fp.off >= len(fp.body) {
			fp.fail(fp.off, "f-string: expecting '}'")
		}
		c := fp.body[fp.off]
		if c != 'r' && c != 's' && c != 'a' {
			fp.fail(fp.off, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		part.conversion = c
		fp.off++
		if fp.off >= len(fp.body) || fp.body[fp.off] != ':' && fp.body[fp.off] != '}' {
			fp.fail(fp.off, "f-string: expecting '}'")
		}
	}
	if fp.off < len(fp.body) && fp.body[fp.off] == ':' {
		fp.off++
		var spec strings.Builder
		saved := fp.template
		fp.template = strings.Builder{}
		for {
			fp.literal(true)
			if fp.off >= len(fp.body) || fp.body[fp.off] == '}' {
				break
			}
			fp.off++ // '{'
			nested := fp.field(level + 1)
			savedArgs := fp.args
			fp.args = nil
			fp.writeField(&fp.template, nested)
			part.nested = append(part.nested, fp.args...)
			fp.args = savedArgs
		}
		spec.WriteString(fp.template.String())
		fp.template = saved
		part.spec = spec.String()
	}
	if fp.off >= len(fp.body) || fp.body[fp.off] != '}' {
		fp.fail(fp.off, "f-string: expecting '}'")
	}
	fp.off++
	if debugText != "" {
		fp.template.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(debugText))
		if part.conversion == 0 && part.spec == "" {
			part.conversion = 'r'
		}
	}
	return part
}

// scanExpr finds the end of a field's expression: the first '!', ':', '=' or
// '}' outside brackets and nested strings that is not part of != == <= >=.
func (fp *fstringParser) scanExpr() int {
	var stack []byte
	var quote string
	for ; fp.off < len(fp.body); fp.off++ {
		c := fp.body[fp.off]
		if c == '\\' {
			fp.fail(fp.off, "f-string expression part cannot include a backslash")
		}
		if quote != "" {
			if strings.HasPrefix(fp.body[fp.off:], quote) {
				fp.off += len(quote) - 1
				quote = ""
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = string(c)
			if strings.HasPrefix(fp.body[fp.off:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
				fp.off += 2
			}
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) == 0 {
				if c == '}' {
					return fp.off
				}
				fp.fail(fp.off, "f-string: unmatched '%c'", c)
			}
			open := stack[len(stack)-1]
			if open != map[byte]byte{')': '(', ']': '[', '}': '{'}[c] {
				fp.fail(fp.off, "f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", c, open)
			}
			stack = stack[:len(stack)-1]
		case '#':
			fp.fail(fp.off, "f-string expression part cannot include '#'")
		case '!', ':', '=', '<', '>':
			if len(stack) > 0 {
				continue
			}
			if fp.off+1 < len(fp.body) && fp.body[fp.off+1] == '=' && c != ':' {
				fp.off++ // != == <= >=
				continue
			}
			if c == '<' || c == '>' {
				continue
			}
			return fp.off
		}
	}
	if quote != "" {
		fp.fail(fp.off, "f-string: unterminated string")
	}
	if len(stack) > 0 {
		fp.fail(fp.off, "f-string: unmatched '%c'", stack[len(stack)-1])
	}
	fp.fail(fp.off, "f-string: expecting '}'")
	return 0
}

// parseExpr parses a field's expression text, found at pos, as if it stood
// in parentheses (so it may span lines or be a tuple).
func (fp *fstringParser) parseExpr(text string, pos syntax.Position) syntax.Expr {
	sub, err := newParser(fp.p.opts, pos.Filename(), syntax.FilePortion{Content: []byte(text), FirstLine: pos.Line, FirstCol: pos.Col}, 0)
	if err != nil {
		fp.p.sc.fail(pos, "%v", err)
	}
	sub.sc.depth = 1
	sub.depth = fp.p.depth
	sub.advance()
	x := sub.expr(true)
	if sub.tok != syntax.EOF {
		sub.sc.fail(sub.val.pos, "f-string: expecting '}'")
	}
	for id := range sub.ellipses {
		if fp.p.ellipses == nil {
			fp.p.ellipses = make(map[*syntax.Ident]bool)
		}
		fp.p.ellipses[id] = true
	}
	return x
}
