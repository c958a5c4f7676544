package sbparquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

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
	dst := make([]uint64, 0, len(vs)+5)
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
	// dst-first functions append: what dst holds stays, whatever its
	// capacity, and the hashes follow it.
	for _, c := range []int{3, 5, 10} {
		prefix := append(make([]uint64, 0, c), 7, 8, 9)
		got := HashInt64s(prefix, i64[:4])
		if len(got) != 7 || got[0] != 7 || got[1] != 8 || got[2] != 9 || got[3] != HashInt64(i64[0]) || got[6] != HashInt64(i64[3]) {
			t.Fatalf("HashInt64s after 3 values (cap %d): %v", c, got)
		}
		if got := HashInt32s(prefix[:3], i32[:2]); len(got) != 5 || got[2] != 9 || got[4] != HashInt32(i32[1]) {
			t.Fatalf("HashInt32s after 3 values (cap %d): %v", c, got)
		}
	}
	if got := HashFloat64s(nil, f64[:3]); len(got) != 3 || got[2] != HashFloat64(f64[2]) {
		t.Fatalf("HashFloat64s(nil, 3 values) = %v", got)
	}
}

// TestBatchHashesOverlap checks the batch hashes when dst and the values
// share memory (a caller hashing in one scratch buffer): dst at the values'
// own address, for 8-byte values, hashes in place, each value read before
// its hash replaces it; any other overlap would overwrite values before
// they are read, so it panics, saying so, before writing anything.
func TestBatchHashesOverlap(t *testing.T) {
	vs := testInts(100)
	mem := make([]uint64, 2*len(vs))
	i64 := unsafe.Slice((*int64)(unsafe.Pointer(&mem[0])), len(vs))
	for i, v := range vs {
		i64[i] = int64(v)
	}
	for i, h := range HashInt64s(mem[:0], i64) {
		if h != HashInt64(int64(vs[i])) {
			t.Fatalf("HashInt64s in place: hash %d differs", i)
		}
	}
	f64 := unsafe.Slice((*float64)(unsafe.Pointer(&mem[0])), len(vs))
	for i, v := range vs {
		f64[i] = math.Float64frombits(v)
	}
	for i, h := range HashFloat64s(mem[:0], f64) {
		if h != HashFloat64(math.Float64frombits(vs[i])) {
			t.Fatalf("HashFloat64s in place: hash %d differs", i)
		}
	}
	mustPanic := func(name string, at int, hash func()) {
		t.Helper()
		for i, v := range vs {
			mem[i] = v // as 8-byte values; the int32 case reads half of them
		}
		before := slices.Clone(mem)
		defer func() {
			t.Helper()
			r := recover()
			if r == nil {
				t.Errorf("%s with dst %d words past the values: no panic", name, at)
				return
			}
			if msg := fmt.Sprint(r); !strings.Contains(msg, "overlaps") {
				t.Errorf("%s: panic %q does not say dst overlaps the values", name, msg)
			}
			if !slices.Equal(mem, before) {
				t.Errorf("%s: wrote before panicking", name)
			}
		}()
		hash()
	}
	n := len(vs)
	for _, at := range []int{1, n - 1} {
		mustPanic("HashInt64s", at, func() { HashInt64s(mem[at:at], i64) })
		mustPanic("HashFloat64s", at, func() { HashFloat64s(mem[at:at], f64) })
	}
	for _, at := range []int{0, 1, n/2 - 1} {
		i32 := unsafe.Slice((*int32)(unsafe.Pointer(&mem[0])), n)
		mustPanic("HashInt32s", at, func() { HashInt32s(mem[at:at], i32) })
	}
	// Values and hashes side by side, not overlapping, are fine.
	i32 := unsafe.Slice((*int32)(unsafe.Pointer(&mem[0])), n)
	want := make([]uint64, n)
	for i, v := range i32 {
		want[i] = HashInt32(v)
	}
	if got := HashInt32s(mem[n/2:n/2], i32); !slices.Equal(got, want) {
		t.Error("HashInt32s into the words just past the values differs")
	}
}
