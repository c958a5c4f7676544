//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "os"

// mapFile does not map files on this platform: the caller reads them.
func mapFile(*os.File, int64) ([]byte, func() error, bool) { return nil, nil, false }
