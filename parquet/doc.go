// Package sbparquet reads, writes, sizes and hashes the Bloom filters stored in
// Parquet files: split block filters, bit for bit as the Parquet format
// specification (BloomFilter.md) defines them, on the blocked.SplitBlock
// engine with its batch kernels.
//
// Code that uses this package usually imports parquet-go as well, whose
// package is named parquet; so this one is named sbparquet, as the pebble
// and redis integrations are sbpebble and sbredis (its import path keeps
// the directory, parquet):
//
//	import (
//		"github.com/parquet-go/parquet-go"
//		sbparquet "github.com/simdbloom/bloom/parquet"
//	)
//
// A Parquet column chunk may carry a Bloom filter at its bloom_filter_offset:
// a Thrift compact-protocol BloomFilterHeader followed by the bitset.
// ReadFilter and WriteFilter read and write exactly that. The filter holds
// 64-bit hashes: XXH64 with seed 0 of each value's plain encoding, which the
// Hash functions compute (INT32, INT64, FLOAT and DOUBLE little-endian;
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY the raw bytes, without a length
// prefix). The Hash...s forms hash a whole column into a slice, ready for
// the batch methods AddHashes and HasHashes.
//
//	f, err := sbparquet.New(ndv, 0.01) // ndv distinct values at 1%
//	hs := make([]uint64, len(values))
//	f.AddHashes(sbparquet.HashInt64s(hs[:0], values))
//	err = sbparquet.WriteFilter(w, f)
//
//	g, err := sbparquet.ReadFilter(r) // at a column chunk's bloom_filter_offset
//	g.HasHash(sbparquet.HashString("Paris"))
//
// ReadFooter reads a Parquet file's footer from an io.ReaderAt: its row
// groups and, for each column chunk, the path, the physical type and where
// the Bloom filter is; ColumnChunk.ReadFilter reads that filter, so a program
// can tell which row groups may hold a value without a Parquet engine.
//
// New and Size choose power-of-two sizes from 32 bytes to 128 MiB, the
// sizes every Parquet reader accepts, by the filter's exact false-positive
// formula. For split block filters outside Parquet files (any size, saved in
// this module's own format) use blocked.NewSplitBlock.
//
// Filters are blocked.SplitBlock values: lookups may run from many goroutines
// at once; adds must not run at the same time as any other method, except
// AddHashAtomic alongside lookups. Errors wrap package bloom's Err values;
// test for them with errors.Is.
package sbparquet
