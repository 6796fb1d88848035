package cpu

import (
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Host operations: kernels that call back into the host (see jit/host.go),
// on the goroutine running the program.

func init() { registerKernel("debug_print", debugPrintKernel) }

// debugPrintKernel prints its array operands (after a leading token, if
// any) through jit.DebugPrint. Its result is a token, which holds nothing.
func debugPrintKernel(e *trace.Eqn, in, _ []*Buffer) error {
	if len(in) > 0 && in[0].aval.IsToken() {
		in = in[1:]
	}
	args := make([]jit.Buffer, len(in))
	for i, b := range in {
		args[i] = b
	}
	return jit.DebugPrint(e.Params.Str("fmt"), args)
}
