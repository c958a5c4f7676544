//go:build unix

package main

import "syscall"

// setUmask sets the process's umask (the child processes inherit it) and
// returns the old one.
func setUmask(m int) int { return syscall.Umask(m) }
