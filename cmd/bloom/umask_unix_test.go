//go:build unix

package main

import "syscall"

// setUmask sets the process's umask (the child processes inherit it) and
// returns the old one.
func setUmask(m int) int { return syscall.Umask(m) }

// mkfifo makes a FIFO at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
