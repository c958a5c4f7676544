package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	sbparquet "github.com/simdbloom/bloom/parquet"
)

// encoder is any filter the library can save.
type encoder interface{ MarshalBinary() ([]byte, error) }

// must returns v, failing t on err.
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// typedFiles returns, named, one filter of every typed variant over keys
// of type K, each holding the keys 0..99 (as K).
func typedFiles[K bloom.Key](t *testing.T, key func(i int) K) map[string]encoder {
	f := must[*bloom.Filter[K]](t)(bloom.New[K](1000, 0.01))
	s := must[*bloom.Scalable[K]](t)(bloom.NewScalable[K](40, 0.01))
	c := must[*bloom.Counting[K]](t)(bloom.NewCounting[K](1000, 0.01))
	q := must[*bloom.Cuckoo[K]](t)(bloom.NewCuckoo[K](1000, 0.01))
	for i := range 100 {
		f.Add(key(i))
		s.Add(key(i)) // 100 keys at 40 planned: more than one stage
		c.Add(key(i))
		if err := q.Add(key(i)); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]encoder{"filter": f, "scalable": s, "counting": c, "cuckoo": q}
}

// bloom info describes every valid file the library writes: each variant
// (Filter, Scalable, Counting, Cuckoo, SplitBlock), over each key family
// (strings, []byte, integers of any width, and the engines' files, which
// record none), with the variant, the key family, its size and checksums
// "ok", exit 0. It refused a Scalable of integer keys with advice for Go
// code ("decode it with a key type of its family").
func TestInfoDescribesEveryFile(t *testing.T) {
	dir := t.TempDir()
	type file struct{ variant, keys string }
	files := map[string]file{}
	save := func(name string, e encoder, f file) {
		b, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	for name, e := range typedFiles(t, func(i int) string { return string(rune('a' + i)) }) {
		save(name+"-string", e, file{name, "byte strings"})
	}
	for name, e := range typedFiles(t, func(i int) []byte { return []byte{byte(i)} }) {
		save(name+"-bytes", e, file{name, "byte strings"})
	}
	for name, e := range typedFiles(t, func(i int) uint64 { return uint64(i) << 40 }) {
		save(name+"-uint64", e, file{name, "integers"})
	}
	for name, e := range typedFiles(t, func(i int) int8 { return int8(i) }) {
		save(name+"-int8", e, file{name, "integers"})
	}
	bf := must[*blocked.Filter](t)(blocked.New(1000, 0.01))
	bs := must[*blocked.SplitBlock](t)(blocked.NewSplitBlock(1000, 0.01))
	bc := must[*blocked.Counting](t)(blocked.NewCounting(1000, 0.01))
	cf := must[*cuckoo.Filter](t)(cuckoo.New(1000, 0.01))
	pq := must[*blocked.SplitBlock](t)(sbparquet.New(1000, 0.01))
	for i := range uint64(100) {
		bf.AddHash(i * 0x9e3779b97f4a7c15)
		bs.AddHash(i * 0x9e3779b97f4a7c15)
		bc.AddHash(i * 0x9e3779b97f4a7c15)
		if err := cf.AddHash(i * 0x9e3779b97f4a7c15); err != nil {
			t.Fatal(err)
		}
		pq.AddHash(i * 0x9e3779b97f4a7c15)
	}
	save("blocked-filter", bf, file{"filter", "unrecorded"})
	save("blocked-splitblock", bs, file{"split-block", "unrecorded"})
	save("blocked-counting", bc, file{"counting", "unrecorded"})
	save("cuckoo-filter", cf, file{"cuckoo", "unrecorded"})
	save("parquet-splitblock", pq, file{"split-block", "unrecorded"})

	for name, want := range files {
		p := filepath.Join(dir, name)
		code, out, errs := runChild(t, "info", "--json", p)
		if code != 0 || errs != "" {
			t.Errorf("info --json %s: exit %d, stderr %q; want it described", name, code, errs)
			continue
		}
		var info filterInfo
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Errorf("info --json %s: %v: %s", name, err, out)
			continue
		}
		st, _ := os.Stat(p)
		if info.Variant != want.variant || info.KeyFamily != want.keys || info.Checksums != "ok" || info.Bytes != st.Size() || info.File != p {
			t.Errorf("info --json %s: %s; want variant %q, key family %q, checksums ok, %d bytes", name, out, want.variant, want.keys, st.Size())
		}
		if want.variant != "cuckoo" && (info.FillRatio == nil || *info.FillRatio <= 0 || info.EstimatedFPR == nil || *info.EstimatedFPR <= 0) {
			t.Errorf("info --json %s: %s; want a fill ratio and an estimated FPR above 0", name, out)
		}
		if want.variant == "scalable" && info.Stages < 2 {
			t.Errorf("info --json %s: %d stages, want 2 or more", name, info.Stages)
		}
		code, out, errs = runChild(t, "info", p)
		if code != 0 || errs != "" || row(out, "variant") != want.variant || row(out, "key family") != want.keys {
			t.Errorf("info %s: exit %d, stderr %q, stdout:\n%s", name, code, errs, out)
		}
	}
}

// row returns the value of the row named name in bloom info's text, or "".
func row(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, name+"  "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
