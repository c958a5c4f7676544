package parquet

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cespare/xxhash/v2"
)

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// testValues returns random values plus edge cases.
func testInts(n int) []uint64 {
	r := rand.New(rand.NewPCG(1, 2))
	vs := []uint64{0, 1, math.MaxUint64, 1 << 63, math.MaxInt64, 0x80000000, 0xffffffff, 0x7fffffff}
	for range n {
		vs = append(vs, r.Uint64())
	}
	return vs
}

func TestHashesEqualXXH64(t *testing.T) {
	for _, v := range testInts(10_000) {
		if got, want := HashInt64(int64(v)), xxhash.Sum64(le64(v)); got != want {
			t.Fatalf("HashInt64(%d) = %#x, xxhash.Sum64 = %#x", int64(v), got, want)
		}
		if got, want := HashFloat64(math.Float64frombits(v)), xxhash.Sum64(le64(v)); got != want {
			t.Fatalf("HashFloat64(bits %#x) = %#x, want %#x", v, got, want)
		}
		u := uint32(v)
		if got, want := HashInt32(int32(u)), xxhash.Sum64(le32(u)); got != want {
			t.Fatalf("HashInt32(%d) = %#x, xxhash.Sum64 = %#x", int32(u), got, want)
		}
		if got, want := HashFloat32(math.Float32frombits(u)), xxhash.Sum64(le32(u)); got != want {
			t.Fatalf("HashFloat32(bits %#x) = %#x, want %#x", u, got, want)
		}
	}
	if HashBool(false) != xxhash.Sum64([]byte{0}) || HashBool(true) != xxhash.Sum64([]byte{1}) {
		t.Fatal("HashBool is not XXH64 of one byte 0 or 1")
	}
	for _, s := range []string{"", "a", "hello, parquet", string(make([]byte, 100))} {
		if HashString(s) != xxhash.Sum64([]byte(s)) || HashBytes([]byte(s)) != xxhash.Sum64([]byte(s)) {
			t.Fatalf("HashString/HashBytes(%q) differ from xxhash.Sum64", s)
		}
	}
	// A published XXH64 vector: the empty input with seed 0.
	if HashBytes(nil) != 0xef46db3751d8e999 {
		t.Fatalf("HashBytes(nil) = %#x", HashBytes(nil))
	}
}

func TestBatchHashes(t *testing.T) {
	vs := testInts(1000)
	i64 := make([]int64, len(vs))
	i32 := make([]int32, len(vs))
	f64 := make([]float64, len(vs))
	for i, v := range vs {
		i64[i], i32[i], f64[i] = int64(v), int32(v), math.Float64frombits(v)
	}
	dst := make([]uint64, len(vs)+5)
	for i, h := range HashInt64s(dst, i64) {
		if h != HashInt64(i64[i]) {
			t.Fatalf("HashInt64s[%d] differs", i)
		}
	}
	for i, h := range HashInt32s(dst, i32) {
		if h != HashInt32(i32[i]) {
			t.Fatalf("HashInt32s[%d] differs", i)
		}
	}
	for i, h := range HashFloat64s(dst, f64) {
		if h != HashFloat64(f64[i]) {
			t.Fatalf("HashFloat64s[%d] differs", i)
		}
	}
	if got := HashInt64s(dst, i64); len(got) != len(i64) {
		t.Fatalf("HashInt64s returned %d hashes for %d values", len(got), len(i64))
	}
	short := make([]uint64, 3, 10) // capacity would fit: the length must decide
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("HashInt64s with a short dst did not panic")
			}
			if short[0] != 0 {
				t.Fatal("HashInt64s wrote before panicking")
			}
		}()
		HashInt64s(short, i64[:4])
	}()
}
