//go:build !linux

package main

// platformMemory knows no memory bounds on this platform (GOMEMLIMIT
// still counts).
func platformMemory() []memLimit { return nil }
