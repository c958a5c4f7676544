package bloom

import (
	"bytes"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
)

// TestEngineByEncoding: doc.go promises that Counting and Cuckoo, which
// have no Engine method, reach their engines through the encoding: the
// typed filter's bytes decode into the engine (blocked.Counting,
// cuckoo.Filter), which answers the same hashes and encodes them back to
// the same bytes, and the engine's bytes decode into the typed filter.
func TestEngineByEncoding(t *testing.T) {
	keys := []string{"alice", "bob", "carol", "dave"}
	c, _ := NewCounting[string](100, 0.01)
	k, _ := NewCuckoo[string](100, 0.01)
	c.AddAll(keys)
	if _, err := k.AddAll(keys); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		typed  interface{ MarshalBinary() ([]byte, error) }
		engine interface {
			UnmarshalBinary([]byte) error
			MarshalBinary() ([]byte, error)
			HasHash(uint64) bool
		}
		back interface{ UnmarshalBinary([]byte) error }
	}{
		{"Counting", c, new(blocked.Counting), new(Counting[string])},
		{"Cuckoo", k, new(cuckoo.Filter), new(Cuckoo[string])},
	} {
		b, err := tc.typed.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.engine.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: the engine refuses the typed filter's bytes: %v", tc.name, err)
		}
		for _, key := range keys {
			if !tc.engine.HasHash(Hash(key)) {
				t.Errorf("%s: the engine lacks %q", tc.name, key)
			}
		}
		again, err := tc.engine.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%s: the engine re-encodes other bytes (%v)", tc.name, err)
		}
		if err := tc.back.UnmarshalBinary(again); err != nil {
			t.Fatalf("%s: the typed filter refuses the engine's bytes: %v", tc.name, err)
		}
	}
}
