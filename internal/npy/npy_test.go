package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The files in testdata were written by NumPy 1.24 (testdata/gen.py).

func readFile(t *testing.T, name string) (*Array, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Read(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return a, raw
}

// TestRoundTripNumPyFiles reads every C-order little-endian file NumPy
// wrote and writes it back: the bytes must be the very bytes np.save wrote.
func TestRoundTripNumPyFiles(t *testing.T) {
	cases := []struct {
		file, dtype string
		shape       []int
	}{
		{"bool.npy", "bool", []int{2, 3}},
		{"int8.npy", "int8", []int{5}},
		{"int16.npy", "int16", []int{3, 4}},
		{"int32.npy", "int32", []int{2, 2}},
		{"int64.npy", "int64", []int{3}},
		{"uint8.npy", "uint8", []int{6}},
		{"uint16.npy", "uint16", []int{3}},
		{"uint32.npy", "uint32", []int{1, 2}},
		{"uint64.npy", "uint64", []int{2}},
		{"float16.npy", "float16", []int{8}},
		{"bfloat16.npy", "bfloat16", []int{4}},
		{"float32.npy", "float32", []int{2, 3, 4}},
		{"float64.npy", "float64", []int{6}},
		{"complex64.npy", "complex64", []int{5}},
		{"complex128.npy", "complex128", []int{3}},
		{"scalar.npy", "float32", []int{}},
		{"empty.npy", "int32", []int{0, 3}},
	}
	for _, c := range cases {
		a, raw := readFile(t, c.file)
		if a.DType != c.dtype || !reflect.DeepEqual(a.Shape, c.shape) {
			t.Errorf("%s: got %s%v, want %s%v", c.file, a.DType, a.Shape, c.dtype, c.shape)
		}
		var out bytes.Buffer
		if err := Write(&out, a); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if !bytes.Equal(out.Bytes(), raw) {
			t.Errorf("%s: written bytes differ from NumPy's\ngot  %q\nwant %q", c.file, out.Bytes(), raw)
		}
	}
}

func TestValues(t *testing.T) {
	a, _ := readFile(t, "int8.npy")
	if got := []int8{int8(a.Data[0]), int8(a.Data[1]), int8(a.Data[4])}; !reflect.DeepEqual(got, []int8{-128, -1, 127}) {
		t.Errorf("int8: %v", got)
	}
	a, _ = readFile(t, "float64.npy")
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:])) }
	if f(0) != math.Pi || !math.Signbit(f(1)) || !math.IsInf(f(2), 1) || !math.IsNaN(f(3)) || f(4) != 5e-324 || f(5) != math.MaxFloat64 {
		t.Errorf("float64 values: %v %v %v %v %v %v", f(0), f(1), f(2), f(3), f(4), f(5))
	}
	a, _ = readFile(t, "bfloat16.npy")
	want := []uint16{0x3F80, 0xC000, 0x3F00, 0x4049}
	for i, w := range want {
		if got := binary.LittleEndian.Uint16(a.Data[2*i:]); got != w {
			t.Errorf("bfloat16[%d] = %#x, want %#x", i, got, w)
		}
	}
}

// Files in other layouts load as the same C-order little-endian values.
func TestLayoutsAndVersions(t *testing.T) {
	a, _ := readFile(t, "fortran.npy")
	if !reflect.DeepEqual(a.Shape, []int{2, 3, 4}) {
		t.Fatalf("fortran shape %v", a.Shape)
	}
	for i := 0; i < 24; i++ {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:])); got != float64(i) {
			t.Fatalf("fortran element %d = %v, want %d", i, got, i)
		}
	}
	a, _ = readFile(t, "bigendian.npy")
	for i := 0; i < 6; i++ {
		if got := int32(binary.LittleEndian.Uint32(a.Data[4*i:])); got != int32(i) {
			t.Fatalf("big-endian element %d = %d", i, got)
		}
	}
	a, _ = readFile(t, "bigendian_c128.npy")
	want := []float64{1, 2, 3, -4}
	for i, w := range want {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:])); got != w {
			t.Fatalf("big-endian complex part %d = %v, want %v", i, got, w)
		}
	}
	a, _ = readFile(t, "v2.npy")
	if a.DType != "int16" || binary.LittleEndian.Uint16(a.Data[8:]) != 4 {
		t.Errorf("version 2.0 file: %s %v", a.DType, a.Data)
	}
	a, _ = readFile(t, "v3.npy")
	if a.DType != "float32" || math.Float32frombits(binary.LittleEndian.Uint32(a.Data[16:])) != 4 {
		t.Errorf("version 3.0 file: %s %v", a.DType, a.Data)
	}
}

func TestNPZ(t *testing.T) {
	for _, name := range []string{"arrays.npz", "compressed.npz"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadNPZ(bytes.NewReader(raw), int64(len(raw)), 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var desc []string
		for _, n := range got {
			desc = append(desc, n.Name+":"+n.Array.DType)
		}
		want := map[string]string{"arrays.npz": "a:int32 b:float64", "compressed.npz": "x:float64 y:bool"}[name]
		if strings.Join(desc, " ") != want {
			t.Errorf("%s: members %v, want %s", name, desc, want)
		}
		// Our own archive of the same arrays reads back identically.
		for _, compress := range []bool{false, true} {
			var buf bytes.Buffer
			if err := WriteNPZ(&buf, got, compress); err != nil {
				t.Fatal(err)
			}
			again, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()), 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again, got) {
				t.Errorf("%s: round trip (compress=%v) differs", name, compress)
			}
		}
	}
}

// Damaged or hostile files are errors, never panics or huge allocations.
func TestBadFiles(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "float32.npy"))
	if err != nil {
		t.Fatal(err)
	}
	hdr := func(h string) []byte {
		b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), 0)
		return append(b, h...)
	}
	cases := map[string][]byte{
		"empty":         nil,
		"no magic":      []byte("PK\x03\x04 not numpy"),
		"version 9":     []byte("\x93NUMPY\x09\x00\x10\x00"),
		"short header":  good[:40],
		"short data":    good[:len(good)-3],
		"structured":    hdr("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }"),
		"object":        hdr("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"),
		"missing shape": hdr("{'descr': '<f4', 'fortran_order': False, }"),
		"huge":          hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }"),
		"overflow":      hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
		"garbage":       hdr("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }"),
	}
	for name, data := range cases {
		if _, err := Read(bytes.NewReader(data), 1<<20); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, name := range []string{"float32.npy", "fortran.npy", "bfloat16.npy", "v3.npy"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data), 1<<20)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, a); err != nil {
			t.Fatalf("read %s%v but cannot write it back: %v", a.DType, a.Shape, err)
		}
		b, err := Read(&out, 0)
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip changed the array: %v", err)
		}
	})
}
