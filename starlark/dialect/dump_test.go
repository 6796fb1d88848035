package dialect

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// dumpTree renders a syntax tree as text, one field per line: every
// exported field of every node, every Position (file, line and column, or
// "invalid"), literal values with their Go types, and nil and empty lists
// told apart. Two trees are identical when their dumps are. Comments are
// included only when withComments is set; unexported fields never are.
func dumpTree(root any, withComments bool) string {
	d := &dumper{withComments: withComments}
	d.value(reflect.ValueOf(root), 0)
	return d.b.String()
}

type dumper struct {
	b            strings.Builder
	withComments bool
}

var (
	positionType = reflect.TypeFor[syntax.Position]()
	tokenType    = reflect.TypeFor[syntax.Token]()
	bigIntType   = reflect.TypeFor[*big.Int]()
	nodeType     = reflect.TypeFor[syntax.Node]()
)

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

// value writes v, whose label the caller has already written without a
// newline.
func (d *dumper) value(v reflect.Value, depth int) {
	switch {
	case !v.IsValid():
		d.b.WriteString("nil\n")
		return
	case v.Type() == positionType:
		d.b.WriteString(positionText(v.Interface().(syntax.Position)) + "\n")
		return
	case v.Type() == tokenType:
		d.b.WriteString(tokenText(v.Interface().(syntax.Token)) + "\n")
		return
	case v.Type() == bigIntType:
		if v.IsNil() {
			d.b.WriteString("(*big.Int)nil\n")
		} else {
			d.b.WriteString("*big.Int " + v.Interface().(*big.Int).String() + "\n")
		}
		return
	}

	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			d.b.WriteString("nil\n")
			return
		}
		d.value(v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			d.b.WriteString(v.Type().String() + "(nil)\n")
			return
		}
		d.b.WriteString(v.Type().String() + "\n")
		d.fields(v.Elem(), depth+1)
		if d.withComments && v.Type().Implements(nodeType) {
			d.comments(v.Interface().(syntax.Node).Comments(), depth+1)
		}
	case reflect.Struct:
		d.b.WriteString(v.Type().String() + "\n")
		d.fields(v, depth+1)
	case reflect.Slice:
		if v.IsNil() {
			d.b.WriteString("nil slice\n")
			return
		}
		d.b.WriteString(fmt.Sprintf("%d elements\n", v.Len()))
		for i := 0; i < v.Len(); i++ {
			d.b.WriteString(strings.Repeat("  ", depth+1) + fmt.Sprintf("[%d] ", i))
			d.value(v.Index(i), depth+1)
		}
	case reflect.String:
		d.b.WriteString(strconv.Quote(v.String()) + "\n")
	case reflect.Float64:
		d.b.WriteString(v.Type().String() + " " + strconv.FormatFloat(v.Float(), 'g', -1, 64) + "\n")
	default:
		d.b.WriteString(fmt.Sprintf("%s %v\n", v.Type(), v.Interface()))
	}
}

func (d *dumper) fields(v reflect.Value, depth int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		if !field.IsExported() {
			continue
		}
		d.b.WriteString(strings.Repeat("  ", depth) + field.Name + ": ")
		d.value(v.Field(i), depth)
	}
}

func (d *dumper) comments(c *syntax.Comments, depth int) {
	if c == nil {
		return
	}
	for _, group := range []struct {
		name string
		list []syntax.Comment
	}{{"Before", c.Before}, {"Suffix", c.Suffix}, {"After", c.After}} {
		for _, comment := range group.list {
			d.line(depth, "comment %s %s %q", group.name, positionText(comment.Start), comment.Text)
		}
	}
}

func positionText(p syntax.Position) string {
	if !p.IsValid() {
		return fmt.Sprintf("invalid:%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename(), p.Line, p.Col)
}

// tokenText names a token, including the dialect's own, which
// syntax.Token.String cannot.
func tokenText(t syntax.Token) string {
	if t > syntax.YIELD {
		return "dialect " + describe(t)
	}
	return "token " + t.String()
}

// firstDifference describes the first line where two dumps differ, with a
// little context.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			from := max(0, i-6)
			return fmt.Sprintf("dump line %d:\ncontext:\n%s\nupstream: %s\ndialect:  %s",
				i+1, strings.Join(w[from:i], "\n"), wl, gl)
		}
	}
	return ""
}
