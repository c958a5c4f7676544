//go:build !unix

package main

import (
	"io/fs"
	"os"
)

// hardLinked is false where the platform does not say.
func hardLinked(fs.FileInfo) bool { return false }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) bool { return true }
