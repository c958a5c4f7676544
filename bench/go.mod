module github.com/simdbloom/bloom/bench

go 1.24.9

require (
	github.com/FastFilter/xorfilter v0.4.2-0.20260120015552-4e5a4d9df65a
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/holiman/bloomfilter/v2 v2.0.3
	github.com/parquet-go/parquet-go v0.32.0
	github.com/simdbloom/bloom v0.0.0
	github.com/zeebo/xxh3 v1.1.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/simdbloom/bloom => ../
