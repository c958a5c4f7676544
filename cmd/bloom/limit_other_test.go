//go:build !linux

package main

// limitChild does nothing: the tests that limit a child's memory run on
// Linux only (limit_linux_test.go).
func limitChild() {}
