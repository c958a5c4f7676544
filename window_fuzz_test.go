package bloom

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// FuzzWindowDecode: UnmarshalBinary and ReadFrom of any bytes never panic,
// return one of the format's errors or a Window that answers lookups,
// re-encodes to the bytes it was decoded from, and takes keys.
func FuzzWindowDecode(f *testing.F) {
	clock := &fakeClock{t: t0}
	w, err := NewWindow[string](200, 0.01, time.Hour, WithGenerations(2), WithClock(clock.now))
	if err != nil {
		f.Fatal(err)
	}
	w.Add("a")
	clock.t = t0.Add(40 * time.Minute)
	w.Add("b")
	b, _ := w.MarshalBinary()
	f.Add(b)
	f.Add(b[:len(b)-1])
	f.Add(append(bytes.Clone(b), b...))
	f.Add(flip(b, 70))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		accepted := func(how string, g *Window[string]) {
			g.Has("a")
			g.HasAll([]string{"a", "b"}, make([]bool, 2))
			g.EstimatedFPR()
			if out, err := g.MarshalBinary(); err != nil || !bytes.Equal(out, data[:len(out)]) {
				t.Fatalf("%s: re-encoding differs (%v)", how, err)
			}
			g.Add("c")
			if !g.Has("c") {
				t.Fatalf("%s: key just added not found", how)
			}
		}
		c := &fakeClock{t: t0.Add(time.Duration(len(data)) * time.Minute)}
		g, _ := NewWindow[string](1, 0.5, time.Second, WithClock(c.now))
		if err := g.UnmarshalBinary(data); err != nil {
			if !isFormatError(err) {
				t.Fatalf("UnmarshalBinary: %v is none of the format's errors", err)
			}
		} else {
			accepted("UnmarshalBinary", g)
		}
		var r Window[string]
		n, err := r.ReadFrom(bytes.NewReader(data))
		switch {
		case err == io.EOF:
			if len(data) != 0 || n != 0 {
				t.Fatalf("ReadFrom: io.EOF after %d of %d bytes", n, len(data))
			}
		case err != nil:
			if !isFormatError(err) {
				t.Fatalf("ReadFrom: %v is none of the format's errors", err)
			}
		default:
			accepted("ReadFrom", &r)
		}
	})
}
