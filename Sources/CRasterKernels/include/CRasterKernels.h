#ifndef MAPRASTER_RASTER_KERNELS_H
#define MAPRASTER_RASTER_KERNELS_H

#include <stdint.h>

/// The constants of a distance-field quad's shading, as MapGraphics' `Rasterizer.DistanceFieldPainter` holds
/// them: the colour (premultiplied channels 0...1, alpha last), the opacity, the band's edges, the fill's edges
/// for a halo (`has_inner`), and the field value from which a halo is transparent.
typedef struct {
    float red, green, blue, alpha;
    float opacity;
    float edge0, edge1;
    float fill0, fill1;
    float clear;
    int32_t has_inner;
} mapraster_sdf_shading;

/// 1 when this CPU runs AVX2 (and the kernels below may be called), else 0.
int32_t mapraster_has_avx2(void);

/// Shades field values `field[0..<count]` with `shading` and blends them over the premultiplied ARGB words
/// (native-endian 32-bit, any alignment) at `row`, eight at a time: lane by lane the single-precision operations
/// of `DistanceFieldPainter.shadeRow` (no fused multiply-adds), so the same words. Only on a CPU with AVX2.
void mapraster_sdf_shade_row_avx2(const mapraster_sdf_shading *shading, const float *field, int64_t count,
                                  void *row);

#endif
