package blocked

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The golden files in testdata/golden were written by the amd64 build
// (go test -run Golden -update ./blocked/). The same test on a big-endian
// machine (GOARCH=s390x under qemu) decodes them, checks every key and
// re-encodes them byte for byte, which proves both byte orders write the
// same format.

var updateGolden = flag.Bool("update", false, "rewrite the golden encodings in testdata/golden (little-endian machines only)")

// golden describes one golden encoding: how to build it from known hashes.
type golden struct {
	file    string
	variant variant
	id      HashID
	build   func(t testing.TB) (e encodable, present []uint64)
}

var goldens = []golden{
	{"filter-k8.sblm", variantFilter, HashUnspecified, func(t testing.TB) (encodable, []uint64) {
		hs := randomHashes(50, 101)
		f := mustBytes(t, 8*64, 8)
		f.AddHashes(hs)
		return f, hs
	}},
	{"filter-k16.sblm", variantFilter, 200, func(t testing.TB) (encodable, []uint64) {
		hs := randomHashes(30, 102)
		f := mustBytes(t, 5*64, 16)
		for _, h := range hs {
			f.AddHash(h)
		}
		return f, hs
	}},
	{"splitblock.sblm", variantSplitBlock, HashXXH64, func(t testing.TB) (encodable, []uint64) {
		hs := randomHashes(40, 103)
		s := mustSplit(t, 7*splitBlockBytes)
		s.AddHashes(hs)
		return s, hs
	}},
	{"counting.sblm", variantCounting, HashUnspecified, func(t testing.TB) (encodable, []uint64) {
		hs := randomHashes(60, 104)
		c := mustCounting(t, 4*64)
		for i, h := range hs {
			for range i%3 + 1 {
				c.AddHash(h)
			}
		}
		for _, h := range hs[:10] {
			c.RemoveHash(h)
		}
		return c, hs[10:]
	}},
}

func TestGoldenEncodings(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", g.file)
			built, present := g.build(t)
			fresh, err := marshalHash(built, g.id)
			if err != nil {
				t.Fatal(err)
			}
			if *updateGolden {
				if !littleEndian {
					t.Fatal("golden files are written on little-endian machines only")
				}
				if err := os.WriteFile(path, fresh, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// (a) Built here from the same hashes: the same bytes.
			if !bytes.Equal(fresh, want) {
				t.Fatalf("encoding built on this machine differs from the golden file (%d vs %d bytes)", len(fresh), len(want))
			}
			h, err := parseHeader(want)
			if err != nil {
				t.Fatal(err)
			}
			if h.variant != g.variant || h.Hash != g.id {
				t.Fatalf("header %+v", h)
			}
			// (b) Decoded every way: the keys are there and it re-encodes byte for byte.
			decoders := map[string]func() (readable, error){
				"UnmarshalBinary": func() (readable, error) {
					e := codecOf(g.variant).fresh()
					return e, e.UnmarshalBinary(want)
				},
				"ReadFrom": func() (readable, error) {
					e := codecOf(g.variant).fresh()
					_, err := decodeFrom(e, noLenReader{bytes.NewReader(want)})
					return e, err
				},
			}
			if littleEndian {
				v, err := codecOf(g.variant).view(alignedCopy(want, 0))
				if err != nil {
					t.Fatalf("view: %v", err)
				}
				checkHas(t, "view", v, present)
			}
			for how, dec := range decoders {
				e, err := dec()
				if err != nil {
					t.Fatalf("%s: %v", how, err)
				}
				checkHas(t, how, e, present)
				again, _ := e.MarshalBinary()
				if !bytes.Equal(again, want) {
					t.Fatalf("%s: re-encoding differs from the golden file", how)
				}
				var buf bytes.Buffer
				if _, err := e.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), want) {
					t.Fatalf("%s: streamed re-encoding differs from the golden file (%v)", how, err)
				}
			}
		})
	}
}

// codecOf returns the test codec of a variant.
func codecOf(v variant) codec {
	for _, c := range codecs {
		if c.variant == v {
			return c
		}
	}
	panic("no codec")
}
