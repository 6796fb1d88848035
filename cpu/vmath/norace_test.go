//go:build !race

package vmath

const raceEnabled = false
