module github.com/simdbloom/bloom/redis

go 1.24.0

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/simdbloom/bloom v1.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/simdbloom/bloom => ../
