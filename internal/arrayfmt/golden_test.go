package arrayfmt

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
)

// The golden files come from the real NumPy via testdata/gen_golden.py;
// regenerate them with:
//
//	cd internal/arrayfmt/testdata && /usr/bin/python3 gen_golden.py

type goldenOptions struct {
	Precision int  `json:"precision"`
	Threshold int  `json:"threshold"`
	EdgeItems int  `json:"edgeitems"`
	LineWidth int  `json:"linewidth"`
	Suppress  bool `json:"suppress"`
}

type goldenCase struct {
	Name    string            `json:"name"`
	DType   string            `json:"dtype"`
	Shape   []int             `json:"shape"`
	Data    []json.RawMessage `json:"data"`
	Options goldenOptions     `json:"options"`
	Str     string            `json:"str"`
	Repr    string            `json:"repr"`
}

type goldenScalar struct {
	DType string  `json:"dtype"`
	Bits  string  `json:"bits"`
	Str   string  `json:"str"`
	Sci8  string  `json:"sci8"`
	Pos8  *string `json:"pos8"`
}

func readGolden(t *testing.T, path string, into any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// decodeData turns the golden file's flat data (floats as hex bit patterns,
// so nan, -0.0 and every bit survive JSON) into the Go slice for dtype.
func decodeData(dtype string, items []json.RawMessage) (any, error) {
	bits := func(i int, size int) (uint64, error) {
		var s string
		if err := json.Unmarshal(items[i], &s); err != nil {
			return 0, err
		}
		return strconv.ParseUint(s, 0, size)
	}
	integer := func(i int) (int64, error) {
		var v int64
		err := json.Unmarshal(items[i], &v)
		return v, err
	}
	n := len(items)
	var err error
	switch dtype {
	case "bool":
		out := make([]bool, n)
		for i := range out {
			if e := json.Unmarshal(items[i], &out[i]); e != nil {
				err = e
			}
		}
		return out, err
	case "float16", "bfloat16":
		out := make([]uint16, n)
		for i := range out {
			b, e := bits(i, 16)
			out[i], err = uint16(b), errors(err, e)
		}
		return out, err
	case "float32":
		out := make([]float32, n)
		for i := range out {
			b, e := bits(i, 32)
			out[i], err = math.Float32frombits(uint32(b)), errors(err, e)
		}
		return out, err
	case "float64":
		out := make([]float64, n)
		for i := range out {
			b, e := bits(i, 64)
			out[i], err = math.Float64frombits(b), errors(err, e)
		}
		return out, err
	}
	ints := make([]int64, n)
	for i := range ints {
		v, e := integer(i)
		ints[i], err = v, errors(err, e)
	}
	switch dtype {
	case "int8":
		return convertInts[int8](ints), err
	case "int16":
		return convertInts[int16](ints), err
	case "int32":
		return convertInts[int32](ints), err
	case "int64":
		return ints, err
	case "uint8":
		return convertInts[uint8](ints), err
	case "uint16":
		return convertInts[uint16](ints), err
	case "uint32":
		return convertInts[uint32](ints), err
	}
	return nil, fmt.Errorf("unknown dtype %q", dtype)
}

func errors(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

func convertInts[T int8 | int16 | int32 | uint8 | uint16 | uint32](xs []int64) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

func TestGoldenArrays(t *testing.T) {
	n := checkArrayCases(t, "testdata/arrays.json")
	if n < 80 {
		t.Fatalf("only %d golden cases", n)
	}
}

// TestGoldenScalars checks the digit generation alone on values spread over
// every magnitude: NumPy scalar str(), and format_float_scientific /
// format_float_positional with precision 8, unique=True, trim='.' (what a
// one-element column prints before padding).
func TestGoldenScalars(t *testing.T) {
	checkScalars(t, "testdata/scalars.json")
}

// checkArrayCases compares Str and Repr with every case of a golden file
// and returns the number of cases.
func checkArrayCases(t *testing.T, path string) int {
	t.Helper()
	var file struct {
		Cases []goldenCase `json:"cases"`
	}
	readGolden(t, path, &file)
	failures := 0
	for _, c := range file.Cases {
		data, err := decodeData(c.DType, c.Data)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		a := Array{DType: c.DType, Shape: c.Shape, Data: data}
		o := Options{
			Precision:     c.Options.Precision,
			Threshold:     c.Options.Threshold,
			EdgeItems:     c.Options.EdgeItems,
			LineWidth:     c.Options.LineWidth,
			SuppressSmall: c.Options.Suppress,
		}
		for _, check := range []struct {
			what      string
			got, want string
		}{{"Str", Str(a, o), c.Str}, {"Repr", Repr(a, o), c.Repr}} {
			if check.got != check.want && failures < 20 {
				failures++
				t.Errorf("%s: %s\n got: %q\nwant: %q\n got:\n%s\nwant:\n%s",
					c.Name, check.what, check.got, check.want, check.got, check.want)
			}
		}
	}
	return len(file.Cases)
}

// checkScalars compares the digit generation with every value of a scalar
// golden file.
func checkScalars(t *testing.T, path string) {
	t.Helper()
	var file struct {
		Scalars []goldenScalar `json:"scalars"`
	}
	readGolden(t, path, &file)
	kinds := map[string]floatKind{"float16": kindFloat16, "float32": kindFloat32, "float64": kindFloat64}
	failures := 0
	for _, s := range file.Scalars {
		b, err := strconv.ParseUint(s.Bits, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		var v float64
		switch s.DType {
		case "float16":
			v = float16ToFloat64(uint16(b))
		case "bfloat16":
			v = bfloat16ToFloat64(uint16(b))
		case "float32":
			v = float64(math.Float32frombits(uint32(b)))
		default:
			v = math.Float64frombits(b)
		}
		check := func(what, got, want string) {
			if got != want && failures < 30 {
				failures++
				t.Errorf("%s %s (%v): %s got %q want %q", s.DType, s.Bits, v, what, got, want)
			}
		}
		if s.DType == "bfloat16" {
			check("str", bfloat16Text(v), s.Str)
			continue
		}
		kind := kinds[s.DType]
		check("str", scalarFloatStr(v, kind), s.Str)
		neg := math.Signbit(v)
		sci := uniqueDigits(math.Abs(v), kind, cutoffSignificant, 9, -1)
		check("sci8", formatScientific(neg, sci, numberStyle{trim: trimZeros}), s.Sci8)
		if s.Pos8 != nil {
			pos := uniqueDigits(math.Abs(v), kind, cutoffFraction, 8, -1)
			check("pos8", formatPositional(neg, pos, numberStyle{trim: trimZeros}), *s.Pos8)
		}
	}
}
