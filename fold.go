package bloom

// Fold returns a new filter of 1/2^times the size holding every key of f:
// the filter New would have made at that size with the same keys added,
// bit for bit (see blocked.Filter.Fold); f is unchanged. The block count
// must divide by 2^times, else an error wrapping ErrGeometry names it; the
// filters New makes fold several times (blocked.Size), those of a few
// hundred blocks or fewer maybe not at all. Use it to shrink a filter
// sized for more keys than it received before sending it, or to bring
// filters of different sizes to one before Union (which also folds a
// larger argument itself). The zero Filter is ErrGeometry.
func (f *Filter[K]) Fold(times int) (*Filter[K], error) {
	g, err := f.engine().Fold(times)
	if err != nil {
		return nil, err
	}
	return &Filter[K]{typedFilter{f: g, kind: f.kind}}, nil
}

// FoldTo returns f folded as many times as its EstimatedFPR stays at or
// under fpr (a copy of f if not once); f is unchanged. fpr outside (0, 1]
// is ErrFPR, the zero Filter ErrGeometry.
func (f *Filter[K]) FoldTo(fpr float64) (*Filter[K], error) {
	g, err := f.engine().FoldTo(fpr)
	if err != nil {
		return nil, err
	}
	return &Filter[K]{typedFilter{f: g, kind: f.kind}}, nil
}
