package sbpebble

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	pbloom "github.com/cockroachdb/pebble/v2/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

func key(i int) []byte    { return fmt.Appendf(nil, "key-%09d", i) }
func absent(i int) []byte { return fmt.Appendf(nil, "key-%09d.absent", i) } // between key(i) and key(i+1)

// build returns the filter of n keys written by p's writer.
func build(p pebble.FilterPolicy, n int) []byte {
	w := p.NewWriter(pebble.TableFilter)
	for i := range n {
		w.AddKey(key(i))
	}
	return w.Finish(nil)
}

// TestFilter checks the filter block: a simdbloom Filter encoding without
// a payload CRC, sized at the bits per key, with no false negatives, a
// false-positive rate near the design, and a lookup that allocates nothing.
func TestFilter(t *testing.T) {
	const n = 20000
	f := build(FilterPolicy(10), n)
	h, err := format.Parse(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if h.HasPayloadCRC() || blocked.HashID(h.Hash) != blocked.HashXXH3 || h.K != 8 {
		t.Fatalf("header %+v: want no payload CRC, xxh3, k = 8", h)
	}
	if err := blocked.Verify(f); err != nil {
		t.Fatal(err)
	}
	if bpk := float64(len(f)) * 8 / n; bpk < 10 || bpk > 10.1 {
		t.Fatalf("%.3f bits per key at FilterPolicy(10)", bpk)
	}
	p := FilterPolicy(10)
	for i := range n {
		if !p.MayContain(pebble.TableFilter, f, key(i)) {
			t.Fatalf("false negative for key %d", i)
		}
	}
	fp := 0
	const probes = 200000
	for i := range probes {
		if p.MayContain(pebble.TableFilter, f, absent(i)) {
			fp++
		}
	}
	rate := float64(fp) / probes
	t.Logf("%d keys, %d bytes (%.3f bytes/key), FPR %.4f", n, len(f), float64(len(f))/n, rate)
	if rate > 0.015 {
		t.Fatalf("false-positive rate %.4f at 10 bits per key", rate)
	}
	k := key(7)
	if a := testing.AllocsPerRun(200, func() { p.MayContain(pebble.TableFilter, f, k) }); a != 0 {
		t.Fatalf("MayContain allocates %v times", a)
	}
	// Anything but a filter of this policy answers "maybe".
	for _, bad := range [][]byte{nil, f[:len(f)-1], f[:64], []byte("rocksdb filter bytes")} {
		if !p.MayContain(pebble.TableFilter, bad, absent(1)) {
			t.Fatalf("an unreadable filter of %d bytes answered false", len(bad))
		}
	}
}

// TestWriter checks that consecutive repeats are skipped (the filter is
// the one of the distinct keys), that Finish appends to dst, that a writer
// with no keys gives a filter that answers false, and that a writer can be
// used again after Finish.
func TestWriter(t *testing.T) {
	p := FilterPolicy(10)
	w := p.NewWriter(pebble.TableFilter)
	for i := range 1000 {
		w.AddKey(key(i))
		w.AddKey(key(i))
	}
	prefix := []byte("pebble's block")
	got := w.Finish(bytes.Clone(prefix))
	if !bytes.HasPrefix(got, prefix) {
		t.Fatal("Finish did not append to dst")
	}
	if want := build(p, 1000); !bytes.Equal(got[len(prefix):], want) {
		t.Fatal("repeated keys changed the filter")
	}
	if h, _ := format.Parse(got[len(prefix):], 0); h.Blocks != (1000*10+511)/512 {
		t.Fatalf("%d blocks for 1000 distinct keys", h.Blocks)
	}
	empty := w.Finish(nil)
	if p.MayContain(pebble.TableFilter, empty, key(1)) {
		t.Fatal("the filter of no keys may contain a key")
	}
	w.AddKey(key(5))
	again := w.Finish(nil)
	if !p.MayContain(pebble.TableFilter, again, key(5)) {
		t.Fatal("a writer used again lost its key")
	}
}

// quiet is a Pebble logger that drops Pebble's info messages.
type quiet struct{ t testing.TB }

func (quiet) Infof(format string, args ...any)    {}
func (q quiet) Errorf(format string, args ...any) { q.t.Logf(format, args...) }
func (q quiet) Fatalf(format string, args ...any) { q.t.Fatalf(format, args...) }

// openDB opens a database in dir whose levels all use policy.
func openDB(t testing.TB, dir string, policy pebble.FilterPolicy) *pebble.DB {
	t.Helper()
	// A 64 MiB block cache: Pebble's default (8 MiB in shards) does not
	// keep a 1M-key table's filter block, which every seek then reads.
	cache := pebble.NewCache(64 << 20)
	defer cache.Unref()
	opts := &pebble.Options{DisableAutomaticCompactions: true, Logger: quiet{t}, Cache: cache}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = policy
	}
	db, err := pebble.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// fill writes n keys in batches, flushing each and compacting the first
// ones down, so that tables sit at L0 and at the bottom level.
func fill(t testing.TB, db *pebble.DB, n, batches int) {
	t.Helper()
	per := n / batches
	for b := range batches {
		bt := db.NewBatch()
		for i := b * per; i < (b+1)*per; i++ {
			if err := bt.Set(key(i), key(i), nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := bt.Commit(pebble.NoSync); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		if b == batches/2 {
			if err := db.Compact(context.Background(), key(0), key(n), false); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// levels returns the number of tables per level, for the log.
func levels(db *pebble.DB) string {
	m := db.Metrics()
	s := ""
	for i, l := range m.Levels {
		if l.TablesCount > 0 {
			s += fmt.Sprintf(" L%d:%d", i, l.TablesCount)
		}
	}
	return s
}

// probe looks every present key up (Get, and SeekPrefixGE with the L6
// filters read) and absent ones by SeekPrefixGE, and returns the filter
// metrics the lookups added.
func probe(t *testing.T, db *pebble.DB, n, nabsent int) pebble.FilterMetrics {
	t.Helper()
	before := db.Metrics().Filter
	for i := range n {
		v, c, err := db.Get(key(i))
		if err != nil {
			t.Fatalf("Get(%s): %v", key(i), err)
		}
		if !bytes.Equal(v, key(i)) {
			t.Fatalf("Get(%s) = %q", key(i), v)
		}
		c.Close()
	}
	it, err := db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for i := range n {
		if !it.SeekPrefixGE(key(i)) || !bytes.Equal(it.Key(), key(i)) {
			t.Fatalf("SeekPrefixGE(%s) did not find it", key(i))
		}
	}
	for i := range nabsent {
		if it.SeekPrefixGE(absent(i)) {
			t.Fatalf("SeekPrefixGE(%s) found %s", absent(i), it.Key())
		}
	}
	after := db.Metrics().Filter
	return pebble.FilterMetrics{Hits: after.Hits - before.Hits, Misses: after.Misses - before.Misses}
}

// TestPebbleDB runs the policy in a real database: keys over L0 and the
// bottom level, reopened, every key found, absent keys turned away by the
// filters (Pebble's filter hits); then the same database read with
// Pebble's bloom policy, and a database written with Pebble's bloom read
// with this policy: each finds every key and uses no filter of the other's
// name.
func TestPebbleDB(t *testing.T) {
	const n, nabsent = 20000, 5000
	dir := t.TempDir()
	db := openDB(t, dir, FilterPolicy(10))
	fill(t, db, n, 4)
	t.Logf("tables:%s", levels(db))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openDB(t, dir, FilterPolicy(10))
	m := probe(t, db, n, nabsent)
	t.Logf("simdbloom policy, reopened: filter hits %d, misses %d", m.Hits, m.Misses)
	if m.Hits < nabsent/2 {
		t.Errorf("only %d filter hits for %d absent keys: the filters are not used", m.Hits, nabsent)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openDB(t, dir, pbloom.FilterPolicy(10))
	m = probe(t, db, n, nabsent)
	t.Logf("written by simdbloom, read with Pebble's bloom: filter hits %d, misses %d", m.Hits, m.Misses)
	if m.Hits != 0 || m.Misses != 0 {
		t.Errorf("Pebble's bloom read filters of another name (%d hits, %d misses)", m.Hits, m.Misses)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	dir2 := t.TempDir()
	db = openDB(t, dir2, pbloom.FilterPolicy(10))
	fill(t, db, n, 4)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir2, FilterPolicy(10))
	m = probe(t, db, n, nabsent)
	t.Logf("written by Pebble's bloom, read with simdbloom: filter hits %d, misses %d", m.Hits, m.Misses)
	if m.Hits != 0 || m.Misses != 0 {
		t.Errorf("this policy read filters of another name (%d hits, %d misses)", m.Hits, m.Misses)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestName pins the name filters are stored under: changing it would make
// every existing database's filters unreadable.
func TestName(t *testing.T) {
	if got := FilterPolicy(10).Name(); got != "simdbloom.BlockedBloom.xxh3.v1" {
		t.Fatalf("Name() = %q", got)
	}
	if FilterPolicy(5).Name() != FilterPolicy(20).Name() {
		t.Fatal("the name depends on the bits per key")
	}
}

// TestMayContainRefusesOtherFilters checks that a filter block of another
// key hash or of integer keys (a simdbloom encoding this policy did not
// write), a damaged one, or none answers true for every key, while this
// policy's own filter of the same keys answers false for most absent keys.
func TestMayContainRefusesOtherFilters(t *testing.T) {
	const n = 1000
	hs := make([]uint64, n)
	w := FilterPolicy(10).NewWriter(pebble.TableFilter).(*writer)
	for i := range n {
		w.AddKey(key(i))
	}
	copy(hs, *w.hs)
	own := w.Finish(nil)
	other := func(id blocked.HashID, keys blocked.KeyFamily) []byte {
		f, err := blocked.NewBytes(uint64(len(own)-format.HeaderSize), 8)
		if err != nil {
			t.Fatal(err)
		}
		f.AddHashes(hs)
		f.SetKeyHash(id)
		f.SetKeyFamily(keys)
		b, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cut := bytes.Clone(own)[:len(own)-1]
	p := FilterPolicy(10)
	for name, f := range map[string][]byte{
		"xxh64 hashes":        other(blocked.HashXXH64, blocked.KeysUnrecorded),
		"unspecified hashes":  other(blocked.HashUnspecified, blocked.KeysUnrecorded),
		"integer keys":        other(blocked.HashXXH3, blocked.KeysIntegers),
		"cut":                 cut,
		"empty":               nil,
		"own (control)":       own,
		"byte keys (control)": other(blocked.HashXXH3, blocked.KeysBytes),
	} {
		misses := 0
		for i := range 1000 {
			if !p.MayContain(pebble.TableFilter, f, absent(i)) {
				misses++
			}
		}
		if control := bytes.HasSuffix([]byte(name), []byte("(control)")); control != (misses > 900) {
			t.Errorf("%s: %d of 1000 absent keys answered false", name, misses)
		}
	}
}
