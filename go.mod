module github.com/simdbloom/bloom

go 1.24.0

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/zeebo/xxh3 v1.1.0
)

require golang.org/x/sys v0.41.0 // indirect
