// Command embed shows jaxsh embedded in a Go program: a script defines a
// jitted function, Go calls it from several goroutines with arrays made from
// Go slices, and reads the results back as Go slices.
//
//	go run ./examples/embed
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/starlark"
)

const script = `
@jit
def normalize(v, scale):
    # Scale v to unit length, then by scale.
    return v / jnp.sqrt(jnp.sum(v * v)) * scale
`

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{Stdout: w})
	globals, err := interp.RunString(ctx, "normalize.star", script, nil)
	if err != nil {
		return fmt.Errorf("%s", jaxsh.FormatError(err))
	}
	normalize := globals["normalize"]

	// Four goroutines call the same jitted function at once, each on its own
	// thread of the interpreter; the program is compiled once.
	inputs := [][]float32{{3, 4}, {1, 0}, {0, 2}, {6, 8}}
	results := make([][]float32, len(inputs))
	errs := make([]error, len(inputs))
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := jaxsh.NewArray(interp, in, []int{len(in)})
			if err != nil {
				errs[i] = err
				return
			}
			out, err := interp.Call(ctx, normalize, v, starlark.Float(10))
			if err != nil {
				errs[i] = fmt.Errorf("%s", jaxsh.FormatError(err))
				return
			}
			results[i], _, errs[i] = jaxsh.ToSlice[float32](out)
		}()
	}
	wg.Wait()
	for i, in := range inputs {
		if errs[i] != nil {
			return errs[i]
		}
		fmt.Fprintf(w, "normalize(%v, 10) = %v\n", in, results[i])
	}
	return nil
}
