package jaxsh_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jaxsh/jaxsh"
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
