package sbpebble_test

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	sbpebble "github.com/simdbloom/bloom/pebble"
)

// An LSM table skipping files: with the policy on every level, each table
// Pebble writes carries a simdbloom filter of its keys, and a point lookup
// (Get, SeekPrefixGE) of a key a table does not hold skips the table
// without reading its index or data blocks: a filter hit in Pebble's
// metrics.
func ExampleFilterPolicy() {
	opts := &pebble.Options{FS: vfs.NewMem()} // an in-memory database, for the example
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = sbpebble.FilterPolicy(10) // 10 bits per key: about 1%
	}
	db, err := pebble.Open("", opts)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	for i := 0; i < 2000; i += 2 { // even user ids only
		if err := db.Set(fmt.Appendf(nil, "user/%04d", i), []byte("profile"), pebble.NoSync); err != nil {
			panic(err)
		}
	}
	if err := db.Flush(); err != nil { // write a table, with its filter
		panic(err)
	}
	before := db.Metrics().Filter
	for i := range 100 { // odd ids: within the table's key range, not in it
		if _, _, err := db.Get(fmt.Appendf(nil, "user/%04d", 2*i+1)); err != pebble.ErrNotFound {
			panic(err)
		}
	}
	v, closer, err := db.Get([]byte("user/0042"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("user/0042: %s\n", v)
	closer.Close()
	hits := db.Metrics().Filter.Hits - before.Hits
	fmt.Println("absent keys turned away by the filter, of 100:", hits >= 95)
	// Output:
	// user/0042: profile
	// absent keys turned away by the filter, of 100: true
}
