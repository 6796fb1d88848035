package numpy

import (
	"fmt"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.frombuffer and jnp.fromstring: arrays from a bytes value's raw
// elements or from numbers written in a string. NumPy's default dtype,
// Python's float, is float64 here: the bytes are read as NumPy reads them.

func init() {
	jstarlark.Register(Module, "frombuffer", jnpFrombuffer)
	jstarlark.Register(Module, "fromstring", jnpFromstring)
}

// bufferDType reads the dtype argument of frombuffer/fromstring: None and
// Python's float mean float64, as in NumPy.
func bufferDType(fn string, v starlark.Value) (trace.DType, error) {
	if v == nil || v == starlark.None {
		return trace.Float64, nil
	}
	if b, ok := v.(*starlark.Builtin); ok && b.Name() == "float" {
		return trace.Float64, nil
	}
	dt, ok, err := jstarlark.UserDType(fn, v)
	if err != nil {
		return trace.InvalidDType, err
	}
	if !ok {
		return trace.Float64, nil
	}
	return dt, nil
}

// jnp.frombuffer(buffer, dtype=float, count=-1, offset=0): the elements of
// dtype stored little-endian in the bytes buffer, from offset on.
func jnpFrombuffer(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "frombuffer"
	var buf starlark.Bytes
	var dtV starlark.Value
	count, offset := -1, 0
	if err := starlark.UnpackArgs(fn, args, kwargs, "buffer", &buf, "dtype?", &dtV, "count?", &count, "offset?", &offset); err != nil {
		return nil, err
	}
	dt, err := bufferDType(fn, dtV)
	if err != nil {
		return nil, err
	}
	if offset < 0 || offset > len(buf) {
		return nil, fmt.Errorf("%s: offset must be non-negative and no greater than buffer length (%d), got %d", fn, len(buf), offset)
	}
	size := dt.Size()
	if dt == trace.Bool {
		size = 1
	}
	data := []byte(string(buf))[offset:]
	n := len(data) / size
	switch {
	case count < 0 && len(data)%size != 0:
		return nil, fmt.Errorf("%s: buffer size (%d bytes after the offset) must be a multiple of element size (%d)", fn, len(data), size)
	case count >= 0 && count > n:
		return nil, fmt.Errorf("%s: buffer is smaller than requested size: %d elements of %d bytes, buffer has %d bytes", fn, count, size, len(data))
	case count >= 0:
		n = count
	}
	dev, err := jstarlark.DefaultDevice()
	if err != nil {
		return nil, err
	}
	return jstarlark.NewArrayFromHost(dev, dt, []int{n}, data[:n*size])
}

// jnp.fromstring(string, dtype=float, count=-1, *, sep): the numbers written
// in string, separated by sep (any whitespace when sep is blank), as an
// array of dtype. As in JAX, sep is required (NumPy's binary mode is gone).
func jnpFromstring(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "fromstring"
	var text string
	var dtV, sepV starlark.Value
	count := -1
	if err := starlark.UnpackArgs(fn, args, kwargs, "string", &text, "dtype?", &dtV, "count?", &count, "sep?", &sepV); err != nil {
		return nil, err
	}
	sep, ok := sepV.(starlark.String)
	if !ok || sep == "" {
		return nil, fmt.Errorf("%s: sep must be a non-empty string (the binary mode of NumPy's fromstring is not supported, as in JAX; use jnp.frombuffer)", fn)
	}
	dt, err := bufferDType(fn, dtV)
	if err != nil {
		return nil, err
	}
	var fields []string
	if strings.TrimSpace(string(sep)) == "" {
		fields = strings.Fields(text)
	} else {
		for _, f := range strings.Split(text, strings.TrimSpace(string(sep))) {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
	}
	if count >= 0 {
		if count > len(fields) {
			return nil, fmt.Errorf("%s: string is smaller than requested size: %d numbers, found %d", fn, count, len(fields))
		}
		fields = fields[:count]
	}
	items := make([]starlark.Value, len(fields))
	for i, f := range fields {
		v, err := parseNumber(f, dt)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		items[i] = v
	}
	if len(items) == 0 {
		return call("zeros", starlark.Tuple{starlark.Tuple{starlark.MakeInt(0)}}, starlark.Tuple{starlark.String("dtype"), jstarlark.DType{DT: dt}})
	}
	return call("array", starlark.Tuple{starlark.NewList(items)}, starlark.Tuple{starlark.String("dtype"), jstarlark.DType{DT: dt}})
}
