module github.com/simdbloom/bloom/asm

go 1.24.0

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/simdbloom/bloom v0.0.0-00010101000000-000000000000
	golang.org/x/tools v0.30.0
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/mod v0.23.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

// The generator imports internal/cpu and reads the library's declarations
// (source.go): always this checkout's.
replace github.com/simdbloom/bloom => ../
