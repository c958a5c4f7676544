package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// writeOutput writes the output file name ("-": stdout) with write, as cp
// and sort -o do, and returns the bytes written:
//   - a new file gets mode 0666 minus the umask; an existing file keeps its
//     mode (and, where the platform allows, its owner);
//   - a symbolic link is written through: its target is replaced, not the
//     link, and a dangling link creates its target;
//   - a regular file is written to a temporary file in its directory (the
//     link target's directory), renamed into place once complete, so that a
//     failed write leaves the old file, or none, and never a partial one;
//   - a file with other hard links, whose owner cannot be kept, or in a
//     directory bloom cannot create files in, is written in place, as cp
//     does, so that it stays the same file;
//   - a device, pipe or socket (/dev/stdout, /dev/null) is written as it is.
//
// A directory, or an existing file bloom may not write, is an error.
//
// ready is called with the bytes written once they are all written, before
// a temporary file is renamed into place: an error of ready (a report that
// cannot be printed) is returned as it is, and the temporary file is
// removed, so the command fails without leaving a new file. A file
// written in place is written by then.
func writeOutput(name string, stdout io.Writer, write func(io.Writer) (int64, error), ready func(n int64) error) (int64, error) {
	if name == "-" {
		n, err := writeBuffered(stdout, write)
		if err == nil {
			err = ready(n)
		}
		return n, err
	}
	var readyErr error
	n, err := writeFileOutput(name, write, func(n int64) error {
		readyErr = ready(n)
		return readyErr
	})
	if readyErr != nil {
		return 0, readyErr
	}
	if err != nil {
		// The name given, and the system's reason: not the temporary
		// file's name, nor the call that failed.
		var pe *os.PathError
		var le *os.LinkError
		if errors.As(err, &pe) {
			err = pe.Err
		} else if errors.As(err, &le) {
			err = le.Err
		}
		return 0, badFile(fmt.Errorf("writing %s: %w", name, err))
	}
	return n, nil
}

// writeBuffered calls write with a buffer on w, and flushes it.
func writeBuffered(w io.Writer, write func(io.Writer) (int64, error)) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	n, err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	return n, err
}

// writeFileOutput is writeOutput for a file name.
func writeFileOutput(name string, write func(io.Writer) (int64, error), ready func(n int64) error) (int64, error) {
	st, err := os.Stat(name) // through links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st = nil
	case err != nil:
		return 0, err
	case st.IsDir():
		return 0, errors.New("is a directory")
	case !st.Mode().IsRegular():
		return writeInPlace(name, write, ready)
	}
	target, err := resolveLinks(name)
	if err != nil {
		return 0, err
	}
	if st != nil {
		// Refuse what cp refuses: a file bloom may not write (a read-only
		// file is not replaced behind its owner's back).
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		f.Close()
		if hardLinked(st) {
			return writeInPlace(target, write, ready)
		}
	}
	tmp, err := createTemp(target)
	if err != nil {
		if st != nil && errors.Is(err, fs.ErrPermission) {
			return writeInPlace(target, write, ready) // the file is writable, its directory is not
		}
		return 0, err
	}
	if st != nil {
		err = tmp.Chmod(st.Mode().Perm())
		if err == nil && !keepOwner(tmp, st) {
			tmp.Close()
			os.Remove(tmp.Name())
			return writeInPlace(target, write, ready)
		}
	}
	var n int64
	if err == nil {
		n, err = writeBuffered(tmp, write)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ready(n)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	return n, nil
}

// writeInPlace opens name for writing, truncating a regular file, writes
// it, and calls ready.
func writeInPlace(name string, write func(io.Writer) (int64, error), ready func(n int64) error) (int64, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return 0, err
	}
	n, err := writeBuffered(f, write)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ready(n)
	}
	return n, err
}

// createTemp creates a new file for target in target's directory, named
// .BASE.RANDOM, with mode 0666 minus the umask (os.CreateTemp's are 0600).
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		p := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no unused temporary name in %s", dir)
}

// resolveLinks returns the file name refers to once symbolic links are
// followed, the file itself or the one a dangling link would create.
func resolveLinks(name string) (string, error) {
	for range 40 {
		dir, err := filepath.EvalSymlinks(filepath.Dir(name))
		if err != nil {
			return "", err
		}
		name = filepath.Join(dir, filepath.Base(name))
		fi, err := os.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		link, err := os.Readlink(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(dir, link)
		}
		name = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", name)
}
