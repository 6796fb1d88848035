package cuda

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Memory and cancellation (DESIGN decisions 10 and 11), as on the CPU:
// every allocation of device memory is charged to the device's budget (its
// total memory) and to the budget of the Host the allocating Execute ran
// for, before it is made, so an array the GPU or the interpreter cannot
// hold is an error naming its shape rather than the driver's
// CUDA_ERROR_OUT_OF_MEMORY; the charge returns when the memory is freed.
// An Execute checks its Host's cancellation before queueing each step: a
// cancelled program queues nothing more (kernels already queued run to
// their end: a GPU kernel cannot be stopped from outside).

// newDeviceBudget is the budget of a device of mem bytes.
func newDeviceBudget(d *Device, mem uint64) *jit.Budget {
	return jit.NewBudget(int64(min(mem, 1<<62)), fmt.Sprintf("the memory of %s (%s)", d, d.name))
}

// A deviceCharge is what one allocation took from its budgets.
type deviceCharge struct {
	bytes   int64
	budgets [2]*jit.Budget // the device's, and the host's if it has one
}

// chargeDevice charges n bytes for an array of aval to the device's budget
// and to host's (nil: none). When either refuses, neither keeps a charge.
func chargeDevice(device, host *jit.Budget, n int64, aval trace.AVal) (deviceCharge, error) {
	c := deviceCharge{bytes: n}
	if n == 0 {
		return c, nil
	}
	if device != nil {
		if err := jit.ChargeFreeing(device, n, aval); err != nil {
			return deviceCharge{}, err
		}
		c.budgets[0] = device
	}
	if host != nil {
		if err := jit.ChargeFreeing(host, n, aval); err != nil {
			c.release()
			return deviceCharge{}, err
		}
		c.budgets[1] = host
	}
	return c, nil
}

func (c deviceCharge) release() {
	for _, b := range c.budgets {
		if b != nil {
			b.Release(c.bytes)
		}
	}
}

// cancelledHost returns host's cancellation error once it has been
// cancelled, and nil while its program may go on.
func cancelledHost(host jit.Host) error {
	c := jit.CancellationOf(host)
	if c == nil {
		return nil
	}
	select {
	case <-c.Done():
		return c.Err()
	default:
		return nil
	}
}
