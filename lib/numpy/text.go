package numpy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/internal/pyfmt"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.loadtxt and jnp.savetxt: numbers as text, one row per line, as
// NumPy reads and writes them (savetxt's fmt is Python's % formatting,
// through the one formatter, internal/pyfmt).

func init() {
	jstarlark.Register(Module, "loadtxt", jnpLoadtxt)
	jstarlark.Register(Module, "savetxt", jnpSavetxt)
}

// jnp.loadtxt(fname, dtype=float32, comments="#", delimiter=None,
// skiprows=0, usecols=None, unpack=False, ndmin=0, max_rows=None).
func jnpLoadtxt(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var dtypeV, usecolsV, maxRowsV starlark.Value = starlark.None, starlark.None, starlark.None
	var delimV starlark.Value = starlark.None
	comments := "#"
	skiprows, ndmin := 0, 0
	unpack := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fname", &name, "dtype?", &dtypeV, "comments?", &comments,
		"delimiter?", &delimV, "skiprows?", &skiprows, "usecols?", &usecolsV, "unpack?", &unpack, "ndmin?", &ndmin,
		"max_rows?", &maxRowsV); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOrDefault("loadtxt", dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	delim := ""
	if delimV != starlark.None {
		s, ok := starlark.AsString(delimV)
		if !ok || s == "" {
			return nil, fmt.Errorf("loadtxt: delimiter must be a non-empty string or None")
		}
		delim = s
	}
	if ndmin < 0 || ndmin > 2 {
		return nil, fmt.Errorf("loadtxt: ndmin must be 0, 1 or 2, got %d", ndmin)
	}
	var usecols []int
	if usecolsV != starlark.None {
		if n, ok := usecolsV.(starlark.Int); ok {
			c, _ := n.Int64()
			usecols = []int{int(c)}
		} else if usecols, err = jstarlark.ShapeArg("loadtxt", usecolsV); err != nil {
			return nil, fmt.Errorf("loadtxt: usecols must be an int or a sequence of ints")
		}
	}
	maxRows := -1
	if maxRowsV != starlark.None {
		if err := starlark.AsInt(maxRowsV, &maxRows); err != nil {
			return nil, fmt.Errorf("loadtxt: max_rows: %v", err)
		}
	}
	data, err := jstarlark.ReadFile(thread, name, maxFileBytes)
	if err != nil {
		return nil, err
	}
	rows, err := parseText(name, data, comments, delim, skiprows, usecols, maxRows, dt)
	if err != nil {
		return nil, fmt.Errorf("loadtxt: %w", err)
	}
	shape := []int{len(rows), 0}
	var flat starlark.Tuple
	if len(rows) > 0 {
		shape[1] = len(rows[0])
	}
	for _, r := range rows {
		flat = append(flat, r...)
	}
	// As NumPy's _ensure_ndmin_ndarray: below ndmin 2, axes of length 1
	// are squeezed away, then at least ndmin dimensions are kept.
	if len(rows) == 0 {
		shape = []int{0}
		if ndmin == 2 {
			shape = []int{0, 0}
		}
	} else if ndmin < 2 {
		var squeezed []int
		for _, d := range shape {
			if d != 1 {
				squeezed = append(squeezed, d)
			}
		}
		if len(squeezed) < ndmin {
			squeezed = []int{1}
		}
		shape = squeezed
	}
	dev, err := jstarlark.DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	a, err := jstarlark.ArrayFromValue("loadtxt", flat, trace.Type{DType: dt}, dev)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.ReshapeTo(a, shape)
	if err != nil {
		return nil, err
	}
	if unpack && len(shape) == 2 {
		return callJnp("transpose", out, nil, nil)
	}
	return out, nil
}

// parseText splits the lines of a numeric text file into rows of values
// of dt (Starlark ints for integer and bool dtypes, floats otherwise).
func parseText(name string, data []byte, comments, delim string, skiprows int, usecols []int, maxRows int, dt trace.DType) ([][]starlark.Value, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<26)
	var rows [][]starlark.Value
	line := 0
	for sc.Scan() {
		line++
		if line <= skiprows {
			continue
		}
		text := sc.Text()
		if comments != "" {
			if i := strings.Index(text, comments); i >= 0 {
				text = text[:i]
			}
		}
		text = strings.TrimRight(text, "\r")
		var fields []string
		if delim == "" {
			fields = strings.Fields(text)
		} else {
			if strings.TrimSpace(text) == "" {
				continue
			}
			fields = strings.Split(text, delim)
		}
		if len(fields) == 0 {
			continue
		}
		if maxRows >= 0 && len(rows) == maxRows {
			break
		}
		if usecols != nil {
			picked := make([]string, len(usecols))
			for i, c := range usecols {
				k := c
				if k < 0 {
					k += len(fields)
				}
				if k < 0 || k >= len(fields) {
					return nil, fmt.Errorf("%s line %d: column %d does not exist (the line has %d)", name, line, c, len(fields))
				}
				picked[i] = fields[k]
			}
			fields = picked
		}
		row := make([]starlark.Value, len(fields))
		for i, f := range fields {
			v, err := parseNumber(strings.TrimSpace(f), dt)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %w", name, line, err)
			}
			row[i] = v
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("%s line %d: %d values, but the rows before have %d", name, line, len(row), len(rows[0]))
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rows, nil
}

func parseNumber(s string, dt trace.DType) (starlark.Value, error) {
	if dt.IsInteger() || dt.IsBool() {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("could not convert %q to %s", s, dt)
		}
		return starlark.MakeBigInt(n), nil
	}
	if dt.IsComplex() {
		return nil, fmt.Errorf("complex dtypes are not supported by loadtxt")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("could not convert %q to %s", s, dt)
	}
	return starlark.Float(f), nil
}

// jnp.savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n",
// header="", footer="", comments="# ").
func jnpSavetxt(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var x starlark.Value
	var fmtV starlark.Value = starlark.String("%.18e")
	delimiter, newline, header, footer, comments := " ", "\n", "", "", "# "
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fname", &name, "X", &x, "fmt?", &fmtV, "delimiter?", &delimiter,
		"newline?", &newline, "header?", &header, "footer?", &footer, "comments?", &comments); err != nil {
		return nil, err
	}
	a, err := jstarlark.EnsureArray("savetxt", x)
	if err != nil {
		return nil, err
	}
	if a.DType().IsComplex() {
		return nil, fmt.Errorf("savetxt: complex arrays are not supported yet")
	}
	var nrow, ncol int
	switch a.NDim() {
	case 1:
		nrow, ncol = a.Shape()[0], 1
	case 2:
		nrow, ncol = a.Shape()[0], a.Shape()[1]
	default:
		return nil, fmt.Errorf("savetxt: expected a 1-D or 2-D array, got %d-D", a.NDim())
	}
	rowFormat, err := rowFormatOf(fmtV, ncol, delimiter)
	if err != nil {
		return nil, err
	}
	values, err := hostNumbers(a)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	if header != "" {
		out.WriteString(comments + strings.ReplaceAll(header, "\n", "\n"+comments) + newline)
	}
	for r := 0; r < nrow; r++ {
		text, err := pyfmt.Percent(rowFormat, numberTuple(values[r*ncol:(r+1)*ncol]))
		if err != nil {
			return nil, fmt.Errorf("savetxt: fmt %q: %w", rowFormat, err)
		}
		out.WriteString(text + newline)
	}
	if footer != "" {
		out.WriteString(comments + strings.ReplaceAll(footer, "\n", "\n"+comments) + newline)
	}
	return starlark.None, jstarlark.WriteFile(thread, name, []byte(out.String()))
}

// rowFormatOf turns savetxt's fmt into one % format for a whole row, as
// NumPy does: a list of per-column formats joined by the delimiter, one
// format repeated for every column, or a row format with one conversion
// per column.
func rowFormatOf(v starlark.Value, ncol int, delimiter string) (string, error) {
	if s, ok := starlark.AsString(v); ok {
		n := strings.Count(s, "%") - 2*strings.Count(s, "%%")
		switch {
		case n == 1:
			parts := make([]string, ncol)
			for i := range parts {
				parts[i] = s
			}
			return strings.Join(parts, delimiter), nil
		case n != ncol:
			return "", fmt.Errorf("savetxt: fmt has wrong number of %% formats: %s", s)
		}
		return s, nil
	}
	seq, ok := v.(starlark.Indexable)
	if !ok {
		return "", fmt.Errorf("savetxt: fmt must be a string or a sequence of strings, got %s", v.Type())
	}
	if seq.Len() != ncol {
		return "", fmt.Errorf("savetxt: fmt has %d formats for %d columns", seq.Len(), ncol)
	}
	parts := make([]string, ncol)
	for i := range parts {
		s, ok := starlark.AsString(seq.Index(i))
		if !ok {
			return "", fmt.Errorf("savetxt: fmt[%d] is not a string", i)
		}
		parts[i] = s
	}
	return strings.Join(parts, delimiter), nil
}

// hostNumbers reads an array's elements as numbers to format: floats as
// float64 (float32 0.1 stays 0.100000001490116..., as NumPy prints it),
// integers and bools as int64.
func hostNumbers(a *jstarlark.Array) ([]pyfmt.Value, error) {
	floating := a.DType().IsFloat()
	wide := trace.Int64
	if floating {
		wide = trace.Float64
	}
	w, err := jstarlark.Astype(a, wide)
	if err != nil {
		return nil, err
	}
	raw, err := w.HostBytes()
	if err != nil {
		return nil, fmt.Errorf("savetxt: %w", err)
	}
	out := make([]pyfmt.Value, len(raw)/8)
	for i := range out {
		bits := binary.LittleEndian.Uint64(raw[8*i:])
		if floating {
			out[i] = textFloat(math.Float64frombits(bits))
		} else {
			out[i] = textInt(int64(bits))
		}
	}
	return out, nil
}

// Numbers as the formatter sees them.
type (
	textFloat float64
	textInt   int64
	textRow   []pyfmt.Value
)

func numberTuple(vs []pyfmt.Value) pyfmt.Value { return textRow(vs) }

func (f textFloat) Type() string     { return "float" }
func (f textFloat) Str() string      { return pyfmt.ReprFloat(float64(f)) }
func (f textFloat) Repr() string     { return pyfmt.ReprFloat(float64(f)) }
func (f textFloat) Float64() float64 { return float64(f) }

func (n textInt) Type() string         { return "int" }
func (n textInt) Str() string          { return strconv.FormatInt(int64(n), 10) }
func (n textInt) Repr() string         { return n.Str() }
func (n textInt) BigInt() *big.Int     { return big.NewInt(int64(n)) }
func (n textInt) IsBool() bool         { return false }
func (r textRow) Type() string         { return "tuple" }
func (r textRow) Str() string          { return fmt.Sprint([]pyfmt.Value(r)) }
func (r textRow) Repr() string         { return r.Str() }
func (r textRow) Elems() []pyfmt.Value { return r }
