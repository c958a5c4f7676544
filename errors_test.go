package bloom_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	sbparquet "github.com/simdbloom/bloom/parquet"

	"github.com/simdbloom/bloom/internal/errs"

	"github.com/simdbloom/bloom/internal/format"
)

// constructors makes a filter of every kind for n keys at fpr, returning
// only the error.
var constructors = []struct {
	name string
	make func(n uint64, fpr float64) error
}{
	{"bloom.New", func(n uint64, p float64) error { _, err := bloom.New[string](n, p); return err }},
	{"bloom.NewCounting", func(n uint64, p float64) error { _, err := bloom.NewCounting[uint64](n, p); return err }},
	{"bloom.NewCuckoo", func(n uint64, p float64) error { _, err := bloom.NewCuckoo[[]byte](n, p); return err }},
	{"bloom.NewScalable", func(n uint64, p float64) error { _, err := bloom.NewScalable[int32](n, p); return err }},
	{"blocked.New", func(n uint64, p float64) error { _, err := blocked.New(n, p); return err }},
	{"blocked.NewSplitBlock", func(n uint64, p float64) error { _, err := blocked.NewSplitBlock(n, p); return err }},
	{"blocked.NewCounting", func(n uint64, p float64) error { _, err := blocked.NewCounting(n, p); return err }},
	{"cuckoo.New", func(n uint64, p float64) error { _, err := cuckoo.New(n, p); return err }},
	{"sbparquet.New", func(n uint64, p float64) error { _, err := sbparquet.New(n, p); return err }},
	{"blocked.Size", func(n uint64, p float64) error { _, err := blocked.Size(n, p); return err }},
	{"cuckoo.Size", func(n uint64, p float64) error { _, err := cuckoo.Size(n, p); return err }},
	{"sbparquet.Size", func(n uint64, p float64) error { _, err := sbparquet.Size(n, p); return err }},
}

// TestCuckooRateTooLow: a rate inside (0, 1) below what a cuckoo filter
// can reach is ErrFPR, in words that give the real lower bound and say
// why, not "must be in (0, 1)", which the rate is; a rate outside (0, 1)
// still says that.
func TestCuckooRateTooLow(t *testing.T) {
	for _, c := range constructors {
		if !strings.Contains(c.name, "uckoo") {
			continue
		}
		err := c.make(1000, 1e-12)
		msg := fmt.Sprint(err)
		if !errors.Is(err, bloom.ErrFPR) {
			t.Errorf("%s(1000, 1e-12) = %v, want ErrFPR", c.name, err)
		}
		if strings.Contains(msg, "(0, 1)") || !strings.HasPrefix(msg, "bloom: false-positive rate 1e-12 is below 9.3e-10, the lowest a cuckoo filter reaches") {
			t.Errorf("%s(1000, 1e-12): %q; want it to say 1e-12 is below 9.3e-10, the lowest a cuckoo filter reaches", c.name, msg)
		}
		if err := c.make(1000, 2); err == nil || !strings.Contains(err.Error(), "must be in (0, 1)") {
			t.Errorf("%s(1000, 2): %v; want \"must be in (0, 1)\"", c.name, err)
		}
	}
}

// TestOneErrorSet: every package's bad-input errors match the root's values
// and package blocked's, whichever package returned them.
func TestOneErrorSet(t *testing.T) {
	for _, c := range constructors {
		for _, p := range []float64{2, -1, 0, 1, math.NaN(), math.Inf(1)} {
			err := c.make(100, p)
			if !errors.Is(err, bloom.ErrFPR) || !errors.Is(err, errs.ErrFPR) {
				t.Errorf("%s(100, %v) = %v, want ErrFPR", c.name, p, err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "bloom: ") {
				t.Errorf("%s(100, %v): message %q does not start with \"bloom: \"", c.name, p, err)
			}
		}
		err := c.make(0, 0.01)
		if !errors.Is(err, bloom.ErrKeys) || !errors.Is(err, errs.ErrKeys) {
			t.Errorf("%s(0, 0.01) = %v, want ErrKeys", c.name, err)
		}
		if err := c.make(100, 0.01); err != nil {
			t.Errorf("%s(100, 0.01) = %v", c.name, err)
		}
	}
}

// TestErrorValuesShared: each package exports the root's values, not copies.
func TestErrorValuesShared(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want error
	}{
		{"errs.ErrKeys", errs.ErrKeys, bloom.ErrKeys},
		{"errs.ErrFPR", errs.ErrFPR, bloom.ErrFPR},
		{"errs.ErrTooLarge", errs.ErrTooLarge, bloom.ErrTooLarge},
		{"errs.ErrGeometry", errs.ErrGeometry, bloom.ErrGeometry},
		{"errs.ErrMagic", errs.ErrMagic, bloom.ErrMagic},
		{"errs.ErrVersion", errs.ErrVersion, bloom.ErrVersion},
		{"errs.ErrVariant", errs.ErrVariant, bloom.ErrVariant},
		{"errs.ErrChecksum", errs.ErrChecksum, bloom.ErrChecksum},
		{"errs.ErrTruncated", errs.ErrTruncated, bloom.ErrTruncated},
		{"errs.ErrCorrupt", errs.ErrCorrupt, bloom.ErrCorrupt},
		{"errs.ErrByteOrder", errs.ErrByteOrder, bloom.ErrByteOrder},
		{"errs.ErrHashMismatch", errs.ErrHashMismatch, bloom.ErrHashMismatch},
	} {
		if c.got != c.want {
			t.Errorf("%s is not the root's value", c.name)
		}
	}
	all := []error{bloom.ErrKeys, bloom.ErrFPR, bloom.ErrTooLarge, bloom.ErrGeometry, bloom.ErrOption, bloom.ErrFull,
		bloom.ErrMagic, bloom.ErrVersion, bloom.ErrVariant, bloom.ErrChecksum, bloom.ErrTruncated, bloom.ErrCorrupt,
		bloom.ErrByteOrder, bloom.ErrHashMismatch}
	for i, a := range all {
		if !strings.HasPrefix(a.Error(), "bloom: ") {
			t.Errorf("%q does not start with \"bloom: \"", a)
		}
		for _, b := range all[i+1:] {
			if errors.Is(a, b) || a.Error() == b.Error() {
				t.Errorf("%q and %q are not distinct", a, b)
			}
		}
	}
}

// TestGeometryAndSizeErrors: the byte-size constructors refuse 0 with
// ErrGeometry and too much with ErrTooLarge, through every package.
func TestGeometryAndSizeErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"blocked.NewBytes(0, 8)", second(blocked.NewBytes(0, 8)), bloom.ErrGeometry},
		{"blocked.NewBytes(64, 7)", second(blocked.NewBytes(64, 7)), bloom.ErrGeometry},
		{"blocked.NewSplitBlockBytes(0)", second(blocked.NewSplitBlockBytes(0)), bloom.ErrGeometry},
		{"blocked.NewCountingBytes(0)", second(blocked.NewCountingBytes(0)), bloom.ErrGeometry},
		{"blocked.NewBytes(2^64-1, 8)", second(blocked.NewBytes(math.MaxUint64, 8)), bloom.ErrTooLarge},
		{"blocked.NewSplitBlockBytes(2^64-1)", second(blocked.NewSplitBlockBytes(math.MaxUint64)), bloom.ErrTooLarge},
		{"blocked.NewCountingBytes(2^64-1)", second(blocked.NewCountingBytes(math.MaxUint64)), bloom.ErrTooLarge},
		{"cuckoo.NewBuckets(0, 8)", second(cuckoo.NewBuckets(0, 8, cuckoo.SemiSorted)), bloom.ErrGeometry},
		{"cuckoo.NewBuckets(16, 3)", second(cuckoo.NewBuckets(16, 3, cuckoo.SemiSorted)), bloom.ErrGeometry},
		{"cuckoo.NewBuckets(16, 33)", second(cuckoo.NewBuckets(16, 33, cuckoo.Plain)), bloom.ErrGeometry},
		{"cuckoo.NewBuckets(2^33, 8)", second(cuckoo.NewBuckets(1<<33, 8, cuckoo.SemiSorted)), bloom.ErrTooLarge},
		{"bloom.NewScalable growth 0.5", second(bloom.NewScalable[int](100, 0.01, bloom.WithGrowth(0.5))), bloom.ErrOption},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestErrorMessages: an error says "bloom: " once however many of the
// module's errors it wraps, a cuckoo filter's errors count buckets, not
// blocks, and a count of one takes the singular.
func TestErrorMessages(t *testing.T) {
	good := func(b []byte, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	f, _ := bloom.New[string](100, 0.01)
	fb := good(f.MarshalBinary())
	c, _ := cuckoo.NewBuckets(1, 8, cuckoo.Plain)
	cb := good(c.MarshalBinary())
	s, _ := bloom.NewScalable[string](10, 0.01)
	sb := good(s.MarshalBinary())
	crc := func(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
	refix := func(b []byte) []byte { // the header CRC over an edited header
		binary.LittleEndian.PutUint32(b[60:], crc(b[:60]))
		return b
	}
	edit := func(b []byte, off int, v byte) []byte {
		b = append([]byte(nil), b...)
		b[off] = v
		return refix(b)
	}
	tooMany := func(b []byte) []byte { // 2^33 blocks (buckets)
		b = append([]byte(nil), b...)
		b[8], b[9], b[10], b[11], b[12] = 0, 0, 0, 0, 2
		return refix(b)
	}
	var g bloom.Filter[string]
	var gc cuckoo.Filter
	var gs bloom.Scalable[string]
	stage := append([]byte(nil), sb...)
	stage[3*format.HeaderSize] ^= 1 // a bit of stage 0's blocks: its CRC fails, the outer one is made to match
	binary.LittleEndian.PutUint32(stage[32:], crc(stage[format.HeaderSize:]))
	refix(stage)
	cases := []struct {
		name   string
		err    error
		cuckoo bool
	}{
		{"Filter k = 9", g.UnmarshalBinary(edit(fb, 7, 9)), false},
		{"Filter of 2^33 blocks", g.UnmarshalBinary(tooMany(fb)), false},
		{"Filter of 0 blocks", g.UnmarshalBinary(edit(fb, 8, 0)), false},
		{"Filter truncated", g.UnmarshalBinary(fb[:1]), false},
		{"Filter one byte long", g.UnmarshalBinary(append(append([]byte(nil), fb...), 0)), false},
		{"cuckoo of 2^33 buckets", gc.UnmarshalBinary(tooMany(cb)), true},
		{"cuckoo truncated", gc.UnmarshalBinary(cb[:len(cb)-1]), true},
		{"cuckoo 3-bit fingerprints", gc.UnmarshalBinary(edit(cb, 7, 3)), true},
		{"cuckoo 0 buckets", gc.UnmarshalBinary(edit(cb, 8, 0)), true},
		{"Scalable stage damaged", gs.UnmarshalBinary(stage), false},
		{"Size(1, 1e-300)", func() error { _, err := blocked.Size(1, 1e-300); return err }(), false},
		{"cuckoo.Size(1 << 62)", func() error { _, err := cuckoo.Size(1<<62, 0.01); return err }(), true},
		{"cuckoo.NewBuckets(2^33)", func() error { _, err := cuckoo.NewBuckets(1<<33, 8, cuckoo.Plain); return err }(), true},
		{"parquet file of 1 byte", func() error { _, err := sbparquet.ReadFooter(bytes.NewReader([]byte{1}), 1); return err }(), false},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := c.err.Error()
		if n := strings.Count(msg, "bloom: "); n != 1 {
			t.Errorf("%s: %q says \"bloom: \" %d times", c.name, msg, n)
		}
		if c.cuckoo && strings.Contains(msg, "block") {
			t.Errorf("%s: %q: a cuckoo filter has buckets", c.name, msg)
		}
		for _, w := range []string{" 1 keys", " 1 bytes", " 1 blocks", " 1 buckets", " 1 fingerprints"} {
			if strings.Contains(msg, w) {
				t.Errorf("%s: %q: %q", c.name, msg, w)
			}
		}
	}
	if !errors.Is(cases[1].err, bloom.ErrCorrupt) || !errors.Is(cases[1].err, bloom.ErrTooLarge) {
		t.Errorf("a header of 2^33 blocks: %v; want ErrCorrupt and ErrTooLarge", cases[1].err)
	}
	if !errors.Is(cases[9].err, bloom.ErrCorrupt) || !errors.Is(cases[9].err, bloom.ErrChecksum) {
		t.Errorf("a damaged stage: %v; want ErrCorrupt and ErrChecksum", cases[9].err)
	}
}
