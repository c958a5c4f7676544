//go:build !race

package childtest

// raceEnabled is false: see race.go.
const raceEnabled = false
