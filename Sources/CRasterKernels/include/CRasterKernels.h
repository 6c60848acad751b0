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

/// Field values of one row of an upright quad, eight columns at a time: column `k`'s value is
/// `(upper[first[k]] * weight_first[k] + upper[second[k]] * weight_second[k]) * weight_top +
/// (lower[first[k]] * weight_first[k] + lower[second[k]] * weight_second[k]) * weight_bottom`, the single-precision
/// operations of `Rasterizer.sampleRow` (no fused multiply-adds), so the same values. `upper` and `lower` are rows of
/// `width` texels; every index is in `0..<width`, and `first` and `second` grow or fall with `k` (an upright quad's
/// columns). Eight columns whose texels lie within sixteen are read with two loads and permutes; others one by
/// one. Only on a CPU with AVX2.
void mapraster_sdf_sample_upright_row_avx2(const float *upper, const float *lower, int64_t width, float weight_top,
                                           float weight_bottom, const int32_t *first, const int32_t *second,
                                           const float *weight_first, const float *weight_second, int64_t count,
                                           float *field);

/// An affine distance-field quad as `Rasterizer.rasterizeDistanceField` samples it: the inverse transform from
/// pixel centres to texels (u = a x + c y + tx, v = b x + d y + ty), the texels drawn (`min_u..<max_u`,
/// `min_v..<max_v`, each already less its epsilon), and the texture's size.
typedef struct {
    double a, b, c, d, tx, ty;
    double min_u, max_u, min_v, max_v;
    int64_t width, height;
} mapraster_sdf_affine;

/// Field values of one row of an affine quad, columns `x0..<x0 + count` (pixel centres at `x + 0.5`, row centre
/// `y`): the bilinear blend of `alphas` (`width` by `height`, a transparent border) as `Texture.sampleAlpha`
/// blends it, operation for operation in the same precisions (no fused multiply-adds), and -infinity where the
/// centre maps outside the texels drawn. Any architecture.
void mapraster_sdf_sample_affine_row(const mapraster_sdf_affine *quad, const float *alphas, int64_t x0, double y,
                                     int64_t count, float *field);

/// `mapraster_sdf_sample_affine_row` four columns at a time, lane by lane the same operations (so the same values).
/// Only on a CPU with AVX2.
void mapraster_sdf_sample_affine_row_avx2(const mapraster_sdf_affine *quad, const float *alphas, int64_t x0,
                                          double y, int64_t count, float *field);

#endif
