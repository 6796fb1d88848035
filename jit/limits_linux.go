package jit

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// machineMemory is the physical memory, or the memory limit of the
// process's control group (v2 or v1) when that is smaller.
func machineMemory() int64 {
	limit := int64(1) << 62
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil && si.Totalram > 0 {
		limit = int64(si.Totalram) * int64(si.Unit)
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if data, err := os.ReadFile(f); err == nil {
			if v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && v > 0 && v < limit {
				limit = v
			}
		}
	}
	return limit
}
