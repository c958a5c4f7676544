//go:build race

package main

// raceEnabled: the race detector maps its shadow memory at start-up and as
// the heap grows, so an address-space limit makes it fail before the code
// under test runs.
const raceEnabled = true
