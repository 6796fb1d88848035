//go:build !linux

package cpu

func adviseHugePages([]uint64) {}
