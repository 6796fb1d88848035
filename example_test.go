package jaxsh_test

import (
	"context"
	"fmt"
	"os"
	"strings"
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

// A Go function registered as a global can be an id_tap callback: it
// receives the runtime value every time the compiled program runs.
func ExampleFunc() {
	var mu sync.Mutex
	var seen []float32
	record := jaxsh.Func("record", func(_ context.Context, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		data, _, err := jaxsh.ToSlice[float32](args[0])
		if err != nil {
			return nil, err
		}
		mu.Lock()
		seen = append(seen, data...)
		mu.Unlock()
		return starlark.None, nil
	})
	interp := jaxsh.New(jaxsh.Options{Globals: starlark.StringDict{"record": record}})
	_, err := interp.RunString(context.Background(), "tap.star", `
f = jit(lambda x: id_tap(record, x * 2) + 1)
for i in range(3):
    f(jnp.float32(i))
`, nil)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
	}
	fmt.Println(seen) // the end of the script waited for every tap
	// Output:
	// [0 2 4]
}

// Two goroutines, each with its own Thread, call jitted functions that
// print: each sees its own prints in its own order, while both run at once.
func ExampleThread() {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{})
	globals, err := interp.RunString(ctx, "steps.star", `
@jit
def step(x, i):
    print("step", i, "sum", x.sum())
    return x + 1
`, nil)
	if err != nil {
		fmt.Println(jaxsh.FormatError(err))
		return
	}
	outs := make([]strings.Builder, 2)
	var wg sync.WaitGroup
	for g := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			th, err := interp.NewThread(fmt.Sprint("g", g), &outs[g])
			if err != nil {
				fmt.Println(err)
				return
			}
			var x starlark.Value
			x, _ = jaxsh.NewArray(interp, []float32{float32(g), 0}, []int{2})
			for i := 0; i < 3; i++ {
				// Returns at once; the next call's input is still being computed.
				if x, err = th.Call(ctx, globals["step"], x, starlark.MakeInt(i)); err != nil {
					fmt.Println(jaxsh.FormatError(err))
					return
				}
			}
			if err := th.Close(); err != nil {
				fmt.Println(err)
			}
		}()
	}
	wg.Wait()
	for g := range outs {
		fmt.Printf("goroutine %d:\n%s", g, outs[g].String())
	}
	// Output:
	// goroutine 0:
	// step 0 sum 0.0
	// step 1 sum 2.0
	// step 2 sum 4.0
	// goroutine 1:
	// step 0 sum 1.0
	// step 1 sum 3.0
	// step 2 sum 5.0
}
