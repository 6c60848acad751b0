internal import CCairo

// Cairo's group (offscreen layer) and clear-operator calls, kept beside CairoCalls.swift so that
// parallel work on that file does not collide. Every other cairo_* call is in CairoCalls.swift.

extension CairoContext {
    func pushGroup() { cairo_push_group(raw) }
    func popGroupAndPaint(alpha: Double) {
        cairo_pop_group_to_source(raw)
        cairo_paint_with_alpha(raw, alpha)
    }
    func setOperatorClear() { cairo_set_operator(raw, CAIRO_OPERATOR_CLEAR) }
    func setOperatorOver() { cairo_set_operator(raw, CAIRO_OPERATOR_OVER) }
}
