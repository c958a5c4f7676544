package blocked

import (
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// forEachLevel runs fn as a subtest once for every kernel level this
// processor supports, with cpu.Active set to it.
func forEachLevel(t *testing.T, fn func(t *testing.T)) {
	saved := cpu.Active
	defer func() { cpu.Active = saved }()
	for _, l := range cpu.Usable() {
		cpu.Active = l
		t.Run(l.String(), fn)
	}
}
