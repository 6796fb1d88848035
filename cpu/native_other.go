//go:build !amd64

package cpu

import (
	"errors"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// No code generator for this architecture: fused kernels run on the block
// machine.
func compileNative(*jit.Kernel, *loopKernel) (fusedRunner, error) {
	return nil, errors.New("cpu: no native code generator for this architecture")
}

func nativeEnabled() bool { return false }

func eagerNative(*trace.Eqn) (fusedRunner, *jit.Kernel) { return nil, nil }
