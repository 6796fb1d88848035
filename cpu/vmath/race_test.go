//go:build race

package vmath

// raceEnabled shrinks the accuracy sweeps: the race detector instruments
// every slice access, and the full sweeps would take minutes.
const raceEnabled = true
