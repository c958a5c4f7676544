//go:build race

package childtest

// raceEnabled: the race detector maps its shadow memory at start-up and as
// the heap grows, so an address-space or data limit makes it fail
// ("ThreadSanitizer failed to allocate") before the code under test runs.
const raceEnabled = true
