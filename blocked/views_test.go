package blocked

// newView, newSplitBlockView and newCountingView return a new view Reset to
// b, or nil and Reset's error.
func newView(b []byte) (*FilterView, error) {
	v := new(FilterView)
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

func newSplitBlockView(b []byte) (*SplitBlockView, error) {
	v := new(SplitBlockView)
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

func newCountingView(b []byte) (*CountingView, error) {
	v := new(CountingView)
	if err := v.Reset(b); err != nil {
		return nil, err
	}
	return v, nil
}

// The fields of the encoding a view holds, for the tests (the views export
// only lookups and fill figures).
func (v *FilterView) keyHash() HashID          { return v.f.hash }
func (v *FilterView) keyFamily() KeyFamily     { return v.f.keys }
func (v *FilterView) numBlocks() uint64        { return v.f.NumBlocks() }
func (v *SplitBlockView) keyHash() HashID      { return v.s.hash }
func (v *SplitBlockView) keyFamily() KeyFamily { return v.s.keys }
func (v *SplitBlockView) numBlocks() uint64    { return v.s.NumBlocks() }
func (v *CountingView) keyHash() HashID        { return v.c.hash }
func (v *CountingView) keyFamily() KeyFamily   { return v.c.keys }
func (v *CountingView) numBlocks() uint64      { return v.c.NumBlocks() }
