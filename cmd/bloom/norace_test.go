//go:build !race

package main

// raceEnabled is false: see race_test.go.
const raceEnabled = false
