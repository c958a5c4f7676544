package main

import (
	"fmt"
	"io"
	"os"
)

// loadFile returns the bytes of the file name: memory-mapped where the
// platform can (no copy: a filter of any size is used in place), read into
// memory otherwise. release unmaps or drops them.
func loadFile(name string) (b []byte, mapped bool, release func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false, nil, badFile(fileError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, nil, badFile(fileError(err))
	}
	if st.IsDir() {
		return nil, false, nil, badFile(fmt.Errorf("%s is a directory", name))
	}
	if st.Mode().IsRegular() {
		if b, unmap, ok := mapFile(f, st.Size()); ok {
			return b, true, func() { unmap() }, nil
		}
	}
	b, err = io.ReadAll(f)
	if err != nil {
		return nil, false, nil, badFile(fmt.Errorf("%s: %w", name, err))
	}
	return b, false, func() {}, nil
}
