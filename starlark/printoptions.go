package starlark

import (
	"sync"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
)

// The print options every array text uses (str, repr, print, the debug
// and callback printers). Like NumPy's, which JAX's arrays print through,
// they belong to the process, not to one interpreter: jnp.set_printoptions
// in one script changes how all arrays print until it is called again.
var currentPrintOptions = struct {
	sync.RWMutex
	o arrayfmt.Options
}{o: arrayfmt.DefaultOptions()}

// PrintOptions returns the current print options.
func PrintOptions() arrayfmt.Options {
	currentPrintOptions.RLock()
	defer currentPrintOptions.RUnlock()
	return currentPrintOptions.o
}

// SetPrintOptions replaces the print options after checking them.
func SetPrintOptions(o arrayfmt.Options) error {
	if err := o.Validate(); err != nil {
		return err
	}
	currentPrintOptions.Lock()
	defer currentPrintOptions.Unlock()
	currentPrintOptions.o = o
	return nil
}

// Text is the array's NumPy str (repr false) or JAX repr (repr true) under
// the options o, for jnp.array_str and jnp.array_repr; a traced array is
// a ConcretizationError.
func (a *Array) Text(o arrayfmt.Options, repr bool) (string, error) {
	if err := o.Validate(); err != nil {
		return "", err
	}
	raw, err := a.hostBytes("formatting an array")
	if err != nil {
		return "", err
	}
	h := arrayfmt.Array{DType: a.DType().Name(), Shape: a.Shape(), Data: typedSlice(a.DType(), raw)}
	if repr {
		return arrayfmt.Repr(h, o), nil
	}
	return arrayfmt.Str(h, o), nil
}
