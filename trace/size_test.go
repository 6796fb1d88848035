package trace

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckSize(t *testing.T) {
	for _, c := range []struct {
		aval AVal
		ok   bool
	}{
		{NewAVal(Float32), true},
		{NewAVal(Float32, 0, 1<<62), true},
		{NewAVal(Float32, 1<<20, 1<<20), true},
		{NewAVal(Int8, 1<<30, 1<<31), true},
		{NewAVal(Int8, 1<<31, 1<<31), false},    // 2^62 bytes: over the limit, so offsets still add up
		{NewAVal(Float32, 1<<32, 1<<32), false}, // 2^64 elements: wraps to 0 unchecked
		{NewAVal(Float32, 1<<62, 3), false},     // elements fit, bytes do not
		{NewAVal(Float64, 1<<60), false},
		{NewAVal(Bool, 1<<61), true},
		{NewAVal(Float32, 1<<40), true}, // large, but a count: memory is the backend's to check
	} {
		err := CheckSize(c.aval)
		if (err == nil) != c.ok {
			t.Errorf("CheckSize(%s) = %v, want ok=%v", c.aval, err, c.ok)
		}
	}
}

func TestSizeErrorNamesShapeAndSize(t *testing.T) {
	err := CheckSize(NewAVal(Float32, 1<<32, 1<<32))
	want := "an array of shape (4294967296, 4294967296) and dtype float32 would have 18446744073709551616 elements (73786976294838206464 bytes): more than any array can hold"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// Every primitive's results pass the check, so no shape rule can hand an
// overflowing shape to a backend.
func TestInferRejectsOverflowingResults(t *testing.T) {
	bcast := Lookup("broadcast_in_dim")
	_, _, err := bcast.Infer([]AVal{NewAVal(Float32)}, Params{
		"shape": []int{1 << 62, 3}, "broadcast_dimensions": []int{},
	})
	var se *SizeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "(4611686018427387904, 3)") {
		t.Fatalf("broadcast_in_dim to (2^62, 3): got %v, want a SizeError naming the shape", err)
	}
	reshape := Lookup("reshape")
	_, _, err = reshape.Infer([]AVal{NewAVal(Float32, 0)}, Params{"new_sizes": []int{1 << 32, 1 << 32}})
	if !errors.As(err, &se) {
		t.Fatalf("reshape of 0 elements to (2^32, 2^32): got %v, want a SizeError", err)
	}
}
