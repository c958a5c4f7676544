//go:build !race

package blocked

// raceEnabled is false: see race_test.go.
const raceEnabled = false
