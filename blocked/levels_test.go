package blocked

import (
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// forEachLevel runs fn as a subtest once for every kernel level this
// processor supports (up to the one SIMDBLOOM_CPU chose), each in a child
// process of its own with cpu.Active set to it: an illegal instruction in
// one level's kernels fails that level's subtest, and the other levels still
// run. Code of the test outside fn runs again in every child, so keep the
// level loop outermost and the work inside fn.
func forEachLevel(t *testing.T, fn func(t *testing.T)) {
	t.Helper()
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) { fn(t) })
}
