package jaxsh_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/starlark"
)

// Run a script from a string and read one of its globals.
func ExampleInterpreter_RunString() {
	interp := jaxsh.New(jaxsh.Options{Stdout: os.Stdout})
	globals, err := interp.RunString(context.Background(), "example.star", `
def square(x):
    return x ** 2

print("hello from", argv[0])
table = [square(i) for i in range(5)]
`, nil)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
		return
	}
	fmt.Println(globals["table"])
	// Output:
	// hello from example.star
	// [0, 1, 4, 9, 16]
}

// A runtime error comes back as an error value; FormatError renders the
// traceback the jaxsh command prints.
func ExampleFormatError() {
	interp := jaxsh.New(jaxsh.Options{})
	_, err := interp.RunString(context.Background(), "bad.star", "x = 1\ny = x ** 'two'\n", nil)
	fmt.Println(jaxsh.FormatError(err))
	// Output:
	// Traceback (most recent call last):
	//   bad.star:2:7: in <toplevel>
	// Error: unknown binary op: int ** string
}

// Cancelling the context stops a running script, even an endless loop.
func ExampleInterpreter_RunString_cancel() {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	interp := jaxsh.New(jaxsh.Options{})
	_, err := interp.RunString(ctx, "loop.star", "n = 0\nwhile True:\n    n += 1\n", nil)
	fmt.Println(err)
	// Output:
	// Starlark computation cancelled: context deadline exceeded
}

// Call a jitted function a script defined, with arrays made from Go slices,
// and read the result back as a Go slice.
func ExampleInterpreter_Call() {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{})
	globals, err := interp.RunString(ctx, "affine.star", `
@jit
def affine(w, x, b):
    return w @ x + b
`, nil)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
		return
	}
	w, _ := jaxsh.NewArray(interp, []float32{1, 2, 3, 4, 5, 6}, []int{2, 3})
	x, _ := jaxsh.NewArray(interp, []float32{1, 0, -1}, []int{3})
	b, _ := jaxsh.NewArray(interp, []float32{0.5, 0.5}, []int{2})
	y, err := interp.Call(ctx, globals["affine"], w, x, b)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
		return
	}
	data, shape, err := jaxsh.ToSlice[float32](y)
	fmt.Println(data, shape, err)
	// Output:
	// [-1.5 -1.5] [2] <nil>
}

// Several goroutines may call the same jitted function at once: each call
// runs on its own thread of the interpreter's session.
func ExampleInterpreter_Call_concurrent() {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{})
	globals, err := interp.RunString(ctx, "scale.star", `
@jit
def scale(x, k):
    return x * k
`, nil)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
		return
	}
	results := make([][]int32, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			x, err := jaxsh.NewArray(interp, []int32{1, 2, 3}, []int{3})
			if err != nil {
				fmt.Println(err)
				return
			}
			y, err := interp.Call(ctx, globals["scale"], x, starlark.MakeInt(10*(i+1)))
			if err != nil {
				fmt.Println(jaxsh.FormatError(err))
				return
			}
			results[i], _, _ = jaxsh.ToSlice[int32](y)
		}(i)
	}
	wg.Wait()
	for i, r := range results {
		fmt.Println(i, r)
	}
	// Output:
	// 0 [10 20 30]
	// 1 [20 40 60]
}

// A Go slice's element type picks the array's dtype; ToSlice reads an
// array back only as its own element type.
func ExampleToSlice() {
	interp := jaxsh.New(jaxsh.Options{})
	a, _ := jaxsh.NewArray(interp, []jaxsh.BFloat16{0x3f80, 0xc000}, []int{2}) // 1.0, -2.0
	fmt.Println(a)
	bits, shape, _ := jaxsh.ToSlice[jaxsh.BFloat16](a)
	fmt.Printf("%#04x %v\n", bits, shape)
	_, _, err := jaxsh.ToSlice[float32](a)
	fmt.Println(err)
	// Output:
	// Array([1, -2], dtype=bfloat16)
	// [0x3f80 0xc000] [2]
	// jaxsh.ToSlice: array of dtype bfloat16 read as []float32 (dtype float32)
}
