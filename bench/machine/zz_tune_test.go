package machine

import (
	"syscall"
	"testing"
	"time"
)

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func TestTunePeak(t *testing.T) {
	c0 := cpuSeconds()
	var f float64
	for range 20 {
		onEveryCore(func(int, int) { f = fmaLoop(1 << 20) })
	}
	c := cpuSeconds() - c0
	t.Logf("peak %.1f GFLOP/cpu-s", f*20*float64(cores())/c/1e9)
}
