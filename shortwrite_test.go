package bloom

import (
	"io"
	"testing"

	"github.com/simdbloom/bloom/internal/shortwrite"
)

// checkShortWrites writes e to writers that stop after 0, 10, 70 and all
// but one of its bytes (shortwrite.Check).
func checkShortWrites(t *testing.T, name string, e interface {
	MarshalBinary() ([]byte, error)
	WriteTo(io.Writer) (int64, error)
}) {
	t.Helper()
	want, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	shortwrite.Check(t, name+": WriteTo", want, e.WriteTo)
}

func TestWriteToShortWriter(t *testing.T) {
	f := mustNew[string](t, 1000, 0.01)
	f.AddAll(goldenKeys())
	checkShortWrites(t, "Filter[string]", f)
	for _, p := range persistedTypes {
		checkShortWrites(t, p.name, p.build(t, 1))
	}
}
