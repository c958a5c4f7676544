// Package interop tests simdbloom's Parquet split block filters against an
// independent implementation, github.com/parquet-go/parquet-go. It is a
// separate module so that users of simdbloom never download parquet-go.
//
//	cd parquet/interop && go test ./...
package interop
