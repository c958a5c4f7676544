package bloom

// newView returns a new FilterView[K] Reset to b, or nil and Reset's error.
func newView[K Key](b []byte) (*FilterView[K], error) {
	v := new(FilterView[K])
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

// newCountingView returns a new CountingView[K] Reset to b, or nil and
// Reset's error.
func newCountingView[K Key](b []byte) (*CountingView[K], error) {
	v := new(CountingView[K])
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}
