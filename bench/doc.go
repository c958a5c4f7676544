// Package bench compares simdbloom with other Go filters in one process:
// lookup and add speed (BenchmarkLookup, BenchmarkAdd, BenchmarkFloor),
// accuracy at the benchmarks' load (TestPeerAccuracy) and the README's plot
// (TestPlotLookup). The peers are github.com/bits-and-blooms/bloom/v3,
// github.com/parquet-go/parquet-go/bloom, github.com/holiman/bloomfilter/v2
// and github.com/FastFilter/xorfilter. It is a separate module so that users
// of simdbloom never download them:
//
//	cd bench && go test -run '^$' -bench . -count 6 -timeout 60m . > bench.txt
package bench
