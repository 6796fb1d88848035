package cpu

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Host operations: kernels that hand their operands to the jit.Host the
// program was executed with, on the goroutine running the program. Token
// operands and results hold nothing; the order they impose is already the
// order of the program's steps.

func init() {
	registerHostKernel("debug_print", func(e *trace.Eqn, in, _ []*Buffer, host jit.Host) error {
		return host.Print(e, hostArgs(in))
	})
	registerHostKernel("id_tap", idTapKernel)
	registerHostKernel("call", callKernel)
	// A token holds nothing: making one writes nothing.
	registerKernel("create_token", func(*trace.Eqn, []*Buffer, []*Buffer, stopSignal) error { return nil })
}

// hostArgs views the array operands (tokens left out) as HostArgs; the
// bytes are the buffers' own, valid while the host method runs.
func hostArgs(in []*Buffer) []jit.HostArg {
	args := make([]jit.HostArg, 0, len(in))
	for _, b := range in {
		if b.aval.IsToken() {
			continue
		}
		args = append(args, jit.HostArg{AVal: b.aval, Data: b.data})
	}
	return args
}

// idTapKernel sends the operands to the tap and returns them unchanged.
func idTapKernel(e *trace.Eqn, in, out []*Buffer, host jit.Host) error {
	if err := host.Tap(e, hostArgs(in)); err != nil {
		return err
	}
	for i, b := range in {
		if i < len(out) && !b.aval.IsToken() {
			copy(out[i].data, b.data)
		}
	}
	return nil
}

// callKernel runs the callback and writes its results, which the Host has
// already converted to the equation's result types.
func callKernel(e *trace.Eqn, in, out []*Buffer, host jit.Host) error {
	res, err := host.Call(e, hostArgs(in))
	if err != nil {
		return err
	}
	k := 0
	for _, b := range out {
		if b.aval.IsToken() {
			continue
		}
		if k >= len(res) || len(res[k]) != len(b.data) {
			return fmt.Errorf("call: the host returned %d results for %d outputs", len(res), len(out))
		}
		copy(b.data, res[k])
		k++
	}
	return nil
}
