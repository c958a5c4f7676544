//go:build !race

package memlimit

// raceEnabled is false: see race_test.go.
const raceEnabled = false
