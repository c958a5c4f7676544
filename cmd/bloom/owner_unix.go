//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// hardLinked reports whether the file st describes has other names, which
// a rename would leave holding the old contents.
func hardLinked(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink > 1
}

// keepOwner gives f the owner and group of the file st describes, and
// reports whether f has them (a user can give a file only to itself).
func keepOwner(f *os.File, st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	if ft, err := f.Stat(); err == nil {
		if t, ok := ft.Sys().(*syscall.Stat_t); ok && t.Uid == s.Uid && t.Gid == s.Gid {
			return true
		}
	}
	return f.Chown(int(s.Uid), int(s.Gid)) == nil
}
