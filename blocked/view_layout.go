package blocked

import "unsafe"

// The root package's FilterView[K].Has hands its blocked.FilterView to the
// typed kernels as the *Filter it holds, converting the pointer. That is
// only sound while a FilterView is its Filter and nothing else: this does
// not compile otherwise (an index out of range or a negative constant), on
// every platform.
func _() {
	var x [1]struct{}
	_ = x[unsafe.Offsetof(FilterView{}.f)]
	_ = x[unsafe.Sizeof(FilterView{})-unsafe.Sizeof(Filter{})]
	_ = x[unsafe.Sizeof(Filter{})-unsafe.Sizeof(FilterView{})]
}
