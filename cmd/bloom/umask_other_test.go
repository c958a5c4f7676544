//go:build !unix

package main

import "errors"

// setUmask does nothing where there is no umask.
func setUmask(int) int { return 0 }

// mkfifo cannot make FIFOs here.
func mkfifo(string) error { return errors.ErrUnsupported }
