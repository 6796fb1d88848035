// Package npy reads and writes NumPy's .npy files (format versions 1.0,
// 2.0 and 3.0) and .npz archives of them.
//
// An Array here is always little-endian and in C (row-major) order: files
// in big-endian byte order or Fortran order are converted when read, so
// callers never see either. Writing produces exactly the bytes np.save
// writes for the same array (version 1.0 unless the header needs more, the
// header padded with spaces to a multiple of 64 bytes and ended by '\n').
//
// bfloat16 has no NumPy type code: JAX (through ml_dtypes) saves it as
// two-byte void, '<V2', and jnp.load reads every two-byte void back as
// bfloat16. This package does the same.
package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// An Array is a dense array as stored in a .npy file.
type Array struct {
	// DType is the element type by its NumPy name: bool, int8, int16,
	// int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16,
	// float32, float64, complex64 or complex128.
	DType string
	Shape []int
	// Data holds the elements in C order, little-endian.
	Data []byte
}

// A dtypeInfo ties a NumPy name to its descr (as np.save writes it) and
// the size of one element.
type dtypeInfo struct {
	name  string
	descr string
	size  int
}

var dtypes = []dtypeInfo{
	{"bool", "|b1", 1},
	{"int8", "|i1", 1},
	{"int16", "<i2", 2},
	{"int32", "<i4", 4},
	{"int64", "<i8", 8},
	{"uint8", "|u1", 1},
	{"uint16", "<u2", 2},
	{"uint32", "<u4", 4},
	{"uint64", "<u8", 8},
	{"float16", "<f2", 2},
	{"bfloat16", "<V2", 2},
	{"float32", "<f4", 4},
	{"float64", "<f8", 8},
	{"complex64", "<c8", 8},
	{"complex128", "<c16", 16},
}

func byName(name string) (dtypeInfo, bool) {
	for _, d := range dtypes {
		if d.name == name {
			return d, true
		}
	}
	return dtypeInfo{}, false
}

// parseDescr maps a descr string to a dtype and whether the file's bytes
// are big-endian. Byte order '=' and '|' mean the writer's native order,
// which for every machine NumPy writes .npy files on that we accept is
// stated by the character itself only for multi-byte types: '=' is taken as
// little-endian, as on every platform Go runs on here.
func parseDescr(descr string) (dtypeInfo, bool, error) {
	if len(descr) < 3 {
		return dtypeInfo{}, false, fmt.Errorf("unsupported dtype descr %q", descr)
	}
	order, code := descr[0], descr[1:]
	var big bool
	switch order {
	case '<', '=', '|':
	case '>':
		big = true
	default:
		return dtypeInfo{}, false, fmt.Errorf("unsupported dtype descr %q", descr)
	}
	if code == "V2" {
		d, _ := byName("bfloat16")
		return d, big, nil
	}
	for _, d := range dtypes {
		if d.descr[1:] == code {
			return d, big, nil
		}
	}
	return dtypeInfo{}, false, fmt.Errorf("unsupported dtype descr %q (jaxsh reads bool, signed and unsigned integers, float16/32/64, bfloat16 as '<V2', complex64/128)", descr)
}

// ItemSize is the size in bytes of one element of the named dtype, or 0 if
// the name is not one this package stores.
func ItemSize(dtype string) int {
	d, _ := byName(dtype)
	return d.size
}

var magic = []byte("\x93NUMPY")

// Size is the number of elements of a shape, or an error when it
// overflows.
func size(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		if d != 0 && n > math.MaxInt/d {
			return 0, fmt.Errorf("shape %v has too many elements", shape)
		}
		n *= d
	}
	return n, nil
}

// maxHeader bounds the header text we accept: NumPy itself refuses
// headers over 10,000 bytes unless told otherwise.
const maxHeader = 1 << 16

// Read reads one .npy array. limit bounds the bytes of data it will
// allocate (0: no bound), so that a hostile header cannot ask for more
// memory than the caller allows.
func Read(r io.Reader, limit int64) (*Array, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, fmt.Errorf("not a .npy file: %w", noEOF(err))
	}
	if !bytes.Equal(pre[:6], magic) {
		return nil, errors.New("not a .npy file (no \\x93NUMPY magic)")
	}
	major, minor := pre[6], pre[7]
	var hlen int
	switch major {
	case 1:
		var l [2]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, fmt.Errorf("truncated .npy header: %w", noEOF(err))
		}
		hlen = int(binary.LittleEndian.Uint16(l[:]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, fmt.Errorf("truncated .npy header: %w", noEOF(err))
		}
		hlen = int(binary.LittleEndian.Uint32(l[:]))
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d (jaxsh reads 1.0, 2.0 and 3.0)", major, minor)
	}
	if hlen > maxHeader {
		return nil, fmt.Errorf(".npy header of %d bytes is too long", hlen)
	}
	head := make([]byte, hlen)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, fmt.Errorf("truncated .npy header: %w", noEOF(err))
	}
	h, err := parseHeader(string(head))
	if err != nil {
		return nil, fmt.Errorf("bad .npy header: %w", err)
	}
	d, big, err := parseDescr(h.descr)
	if err != nil {
		return nil, err
	}
	n, err := size(h.shape)
	if err != nil {
		return nil, err
	}
	if n > math.MaxInt/d.size {
		return nil, fmt.Errorf("shape %v has too many elements", h.shape)
	}
	nbytes := n * d.size
	if limit > 0 && int64(nbytes) > limit {
		return nil, fmt.Errorf("array of shape %v and dtype %s needs %d bytes, more than the %d allowed", h.shape, d.name, nbytes, limit)
	}
	data := make([]byte, nbytes)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("truncated .npy data: want %d bytes for shape %v of %s: %w", nbytes, h.shape, d.name, noEOF(err))
	}
	if big {
		swapBytes(data, d)
	}
	if h.fortran && len(h.shape) > 1 {
		data = fortranToC(data, h.shape, d.size)
	}
	return &Array{DType: d.name, Shape: h.shape, Data: data}, nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// swapBytes turns big-endian elements little-endian in place. Complex
// numbers swap each of their two parts.
func swapBytes(data []byte, d dtypeInfo) {
	w := d.size
	if strings.HasPrefix(d.name, "complex") {
		w /= 2
	}
	if w == 1 {
		return
	}
	for i := 0; i+w <= len(data); i += w {
		e := data[i : i+w]
		for a, b := 0, w-1; a < b; a, b = a+1, b-1 {
			e[a], e[b] = e[b], e[a]
		}
	}
}

// fortranToC reorders column-major elements into row-major order.
func fortranToC(data []byte, shape []int, item int) []byte {
	out := make([]byte, len(data))
	rank := len(shape)
	// Strides of the Fortran layout, in elements.
	fstride := make([]int, rank)
	s := 1
	for i := 0; i < rank; i++ {
		fstride[i] = s
		s *= shape[i]
	}
	idx := make([]int, rank)
	n := len(data) / item
	for c := 0; c < n; c++ {
		f := 0
		for i := 0; i < rank; i++ {
			f += idx[i] * fstride[i]
		}
		copy(out[c*item:(c+1)*item], data[f*item:(f+1)*item])
		for i := rank - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

// Write writes a as np.save would: the same header text, padding and
// data bytes.
func Write(w io.Writer, a *Array) error {
	d, ok := byName(a.DType)
	if !ok {
		return fmt.Errorf("cannot save dtype %s to .npy", a.DType)
	}
	n, err := size(a.Shape)
	if err != nil {
		return err
	}
	if len(a.Data) != n*d.size {
		return fmt.Errorf("array of shape %v and dtype %s has %d data bytes, want %d", a.Shape, a.DType, len(a.Data), n*d.size)
	}
	head := "{'descr': '" + d.descr + "', 'fortran_order': False, 'shape': " + shapeText(a.Shape) + ", }"
	bw := bufio.NewWriter(w)
	// Version 1.0 has a two-byte header length; NumPy moves to 2.0 only
	// when the header does not fit.
	pre := 10
	version := byte(1)
	if total := pad64(pre + len(head) + 1); total-pre > math.MaxUint16 {
		pre, version = 12, 2
	}
	total := pad64(pre + len(head) + 1)
	hlen := total - pre
	bw.Write(magic)
	bw.Write([]byte{version, 0})
	if version == 1 {
		binary.Write(bw, binary.LittleEndian, uint16(hlen))
	} else {
		binary.Write(bw, binary.LittleEndian, uint32(hlen))
	}
	bw.WriteString(head)
	bw.WriteString(strings.Repeat(" ", hlen-len(head)-1))
	bw.WriteByte('\n')
	bw.Write(a.Data)
	return bw.Flush()
}

func pad64(n int) int { return (n + 63) / 64 * 64 }

// shapeText writes a shape as a Python tuple: (), (3,), (3, 4).
func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	if len(shape) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
