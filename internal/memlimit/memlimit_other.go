//go:build !linux

package memlimit

// platformLimits reports no limit beyond an int's where this package cannot
// read one without allocating.
func platformLimits(func(bytes uint64, why string)) {}
