//go:build !linux

package jit

// machineMemory is unknown off Linux: no machine check, only the
// interpreter's own budget.
func machineMemory() int64 { return 1 << 62 }
