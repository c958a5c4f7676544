package bloom

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/zeebo/xxh3"
)

func le64(x uint64) []byte { return binary.LittleEndian.AppendUint64(nil, x) }

func TestHashUint64MatchesXXH3(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []uint64{0, 1, math.MaxUint64, 1 << 63, 0xffffffff, 1 << 32}
	for range 100_000 {
		xs = append(xs, r.Uint64())
	}
	for _, x := range xs {
		if got, want := HashUint64(x), xxh3.Hash(le64(x)); got != want {
			t.Fatalf("HashUint64(%#x) = %#x, xxh3 = %#x", x, got, want)
		}
	}
}

type myString string
type myBytes []byte
type myInt int16
type myUint uint

func TestHashTypes(t *testing.T) {
	check := func(name string, got, want uint64) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %#x, want %#x", name, got, want)
		}
	}
	check("string", Hash("hello"), xxh3.HashString("hello"))
	check("[]byte", Hash([]byte("hello")), xxh3.Hash([]byte("hello")))
	check("empty string", Hash(""), xxh3.Hash(nil))
	check("named string", Hash(myString("hello")), xxh3.HashString("hello"))
	check("named bytes", Hash(myBytes("hello")), xxh3.Hash([]byte("hello")))
	neg := xxh3.Hash(le64(math.MaxUint64)) // -1 sign-extended
	check("int", Hash(-1), neg)
	check("int8", Hash(int8(-1)), neg)
	check("int16", Hash(int16(-1)), neg)
	check("int32", Hash(int32(-1)), neg)
	check("int64", Hash(int64(-1)), neg)
	check("named int16", Hash(myInt(-1)), neg)
	check("uint8", Hash(uint8(200)), xxh3.Hash(le64(200)))
	check("uint16", Hash(uint16(60000)), xxh3.Hash(le64(60000)))
	check("uint32", Hash(uint32(1<<31)), xxh3.Hash(le64(1<<31)))
	check("uint", Hash(uint(12345)), xxh3.Hash(le64(12345)))
	check("uintptr", Hash(uintptr(99)), xxh3.Hash(le64(99)))
	check("named uint", Hash(myUint(7)), xxh3.Hash(le64(7)))
	check("uint8 not sign-extended", Hash(uint8(255)), xxh3.Hash(le64(255)))
}

func TestHashAllocs(t *testing.T) {
	b := []byte("some key bytes")
	s := "some key string"
	for name, fn := range map[string]func(){
		"string": func() { Hash(s) }, "bytes": func() { Hash(b) }, "uint64": func() { Hash(uint64(5)) },
		"named": func() { Hash(myBytes(b)) }, "int8": func() { Hash(int8(3)) },
	} {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("Hash(%s) allocates %v times", name, a)
		}
	}
}
