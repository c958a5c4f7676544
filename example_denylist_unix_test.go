//go:build unix

package bloom_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/simdbloom/bloom"
)

// A deny list, Safe Browsing style: a builder writes a filter of the
// blocked hosts to a file (as `bloom build` does from a list), and each
// service maps the file into memory and checks every request against it
// in place, without reading or copying it. A "maybe" is then confirmed
// against the full list (a false positive costs that one look-up); a "no",
// nearly every request, costs one cache line.
func Example_denyList() {
	dir, err := os.MkdirTemp("", "denylist")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "deny.sblm")

	// The builder.
	deny, err := bloom.New[string](100_000, 0.001)
	if err != nil {
		panic(err)
	}
	for _, host := range []string{"malware.example", "phish.example", "tracker.example"} {
		deny.Add(host)
	}
	out, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	if _, err := deny.WriteTo(out); err != nil {
		panic(err)
	}
	if err := out.Close(); err != nil {
		panic(err)
	}

	// A service: map the file read-only and look hosts up in place.
	in, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		panic(err)
	}
	mem, err := syscall.Mmap(int(in.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		panic(err)
	}
	defer syscall.Munmap(mem)
	var view bloom.FilterView[string]
	has := view.Has
	if err := view.Reset(mem); errors.Is(err, bloom.ErrByteOrder) {
		// A big-endian machine cannot look up in place: decode a copy.
		var f bloom.Filter[string]
		if err := f.UnmarshalBinary(mem); err != nil {
			panic(err)
		}
		has = f.Has
	} else if err != nil { // Reset checks the header, in O(1)
		panic(err)
	}
	for _, host := range []string{"phish.example", "go.dev", "tracker.example"} {
		fmt.Println(host, has(host))
	}
	// Output:
	// phish.example true
	// go.dev false
	// tracker.example true
}
