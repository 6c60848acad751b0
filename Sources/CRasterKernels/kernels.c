#include "CRasterKernels.h"

#include <math.h>

// Every product and sum is rounded on its own, as Swift computes them: never contracted into a fused
// multiply-add, whatever the target.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)

/// One axis of the sampler at `c` (texel units, inside the quad), as `rasterizeDistanceField`'s `sampled`:
/// `TexelAxis.linear` at `c - 0.5` with a transparent border, as two texels clamped into `count` and their
/// weights, a texel outside weighing 0. The floor by truncation, as the coordinate is within a few texels.
static inline void sdf_axis(double c, int64_t count, int64_t *first, int64_t *second, float *weight_first,
                            float *weight_second) {
    double cu = c - 0.5;
    int64_t t = (int64_t)cu;
    int64_t i = (double)t > cu ? t - 1 : t;
    float f = (float)(cu - (double)i);
    int64_t j = i + 1;
    *first = i < 0 ? 0 : (i > count - 1 ? count - 1 : i);
    *second = j < 0 ? 0 : (j > count - 1 ? count - 1 : j);
    *weight_first = i >= 0 && i < count ? 1.0f - f : 0.0f;
    *weight_second = j >= 0 && j < count ? f : 0.0f;
}

/// The field value at column `x` (its integer coordinate) of a row whose `c y` and `d y` are given.
static inline float sdf_affine_value(const mapraster_sdf_affine *q, const float *alphas, int64_t x, double cy,
                                     double dy) {
    double centre = (double)x + 0.5;
    double u = q->a * centre + cy + q->tx;
    double v = q->b * centre + dy + q->ty;
    if (!(u >= q->min_u && u < q->max_u && v >= q->min_v && v < q->max_v)) return -INFINITY;
    int64_t c0, c1, r0, r1;
    float cw0, cw1, rw0, rw1;
    sdf_axis(u, q->width, &c0, &c1, &cw0, &cw1);
    sdf_axis(v, q->height, &r0, &r1, &rw0, &rw1);
    const float *top = alphas + r0 * q->width;
    const float *bottom = alphas + r1 * q->width;
    float upper = top[c0] * cw0 + top[c1] * cw1;
    float lower = bottom[c0] * cw0 + bottom[c1] * cw1;
    return upper * rw0 + lower * rw1;
}

void mapraster_sdf_sample_affine_row(const mapraster_sdf_affine *q, const float *alphas, int64_t x0, double y,
                                     int64_t count, float *field) {
    const double cy = q->c * y;
    const double dy = q->d * y;
    for (int64_t k = 0; k < count; k++) field[k] = sdf_affine_value(q, alphas, x0 + k, cy, dy);
}

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <string.h>

int32_t mapraster_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

#define AVX2 __attribute__((target("avx2")))

/// `smoothstep(e0, e1, x)` as the painter computes it: `max(q, 0)` as `0 >= q ? 0 : q`, `min(t, 1)` as
/// `1 < t ? 1 : t`, then `t * t * (3 - 2 * t)`.
AVX2 static inline __m256 smoothstep8(float e0, float e1, __m256 x) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 one = _mm256_set1_ps(1.0f);
    if (e1 == e0) return _mm256_blendv_ps(one, zero, _mm256_cmp_ps(x, _mm256_set1_ps(e0), _CMP_LT_OQ));
    __m256 t = _mm256_div_ps(_mm256_sub_ps(x, _mm256_set1_ps(e0)), _mm256_set1_ps(e1 - e0));
    t = _mm256_blendv_ps(t, zero, _mm256_cmp_ps(zero, t, _CMP_GE_OQ));
    t = _mm256_blendv_ps(t, one, _mm256_cmp_ps(one, t, _CMP_LT_OQ));
    return _mm256_mul_ps(_mm256_mul_ps(t, t), _mm256_sub_ps(_mm256_set1_ps(3.0f), _mm256_mul_ps(_mm256_set1_ps(2.0f), t)));
}

/// 0 where `v <= 0`, 1 where `v > 1`, else `v`.
AVX2 static inline __m256 clamped8(__m256 v) {
    v = _mm256_blendv_ps(v, _mm256_setzero_ps(), _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LE_OQ));
    return _mm256_blendv_ps(v, _mm256_set1_ps(1.0f), _mm256_cmp_ps(v, _mm256_set1_ps(1.0f), _CMP_GT_OQ));
}

/// One channel of `PixelBuffer.blend`: the destination byte at `shift` times `keep` plus `source` times 255,
/// clamped to 0...255 and rounded half up, back at `shift`.
AVX2 static inline __m256i channel8(__m256i words, __m256 source, __m256 keep, int shift) {
    const __m256i byte = _mm256_set1_epi32(0xFF);
    __m256 d = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(words, shift), byte));
    __m256 v = _mm256_add_ps(_mm256_mul_ps(source, _mm256_set1_ps(255.0f)), _mm256_mul_ps(d, keep));
    v = _mm256_blendv_ps(v, _mm256_setzero_ps(), _mm256_cmp_ps(_mm256_setzero_ps(), v, _CMP_GE_OQ));
    v = _mm256_blendv_ps(v, _mm256_set1_ps(255.0f), _mm256_cmp_ps(_mm256_set1_ps(255.0f), v, _CMP_LT_OQ));
    __m256i n = _mm256_and_si256(_mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.0f))),
                                 _mm256_set1_epi32(0x3FFFFF));
    __m256 half = _mm256_cmp_ps(_mm256_sub_ps(v, _mm256_cvtepi32_ps(n)), _mm256_set1_ps(0.5f), _CMP_EQ_OQ);
    n = _mm256_add_epi32(n, _mm256_and_si256(_mm256_castps_si256(half), _mm256_set1_epi32(1)));
    return _mm256_slli_epi32(n, shift);
}

/// Eight pixels' words after the shading of field values `d` where `drawn` (DistanceFieldPainter.shade4).
AVX2 static inline __m256i shade8(const mapraster_sdf_shading *s, __m256 d, __m256i words, __m256 drawn) {
    __m256 coverage;
    if (s->has_inner) {
        __m256 fill = smoothstep8(s->edge0, s->edge1, d);
        __m256 rest = _mm256_sub_ps(_mm256_set1_ps(1.0f), smoothstep8(s->fill0, s->fill1, d));
        coverage = _mm256_mul_ps(_mm256_blendv_ps(fill, rest, _mm256_cmp_ps(rest, fill, _CMP_LT_OQ)),
                                 _mm256_set1_ps(s->opacity));
    } else {
        coverage = _mm256_mul_ps(smoothstep8(s->edge0, s->edge1, d), _mm256_set1_ps(s->opacity));
    }
    __m256 alpha = _mm256_mul_ps(_mm256_set1_ps(s->alpha), coverage);
    __m256 a = clamped8(alpha);
    __m256 red = clamped8(_mm256_mul_ps(_mm256_set1_ps(s->red), alpha));
    __m256 green = clamped8(_mm256_mul_ps(_mm256_set1_ps(s->green), alpha));
    __m256 blue = clamped8(_mm256_mul_ps(_mm256_set1_ps(s->blue), alpha));
    __m256 keep = _mm256_sub_ps(_mm256_set1_ps(1.0f), a);
    __m256i out = _mm256_or_si256(_mm256_or_si256(channel8(words, a, keep, 24), channel8(words, red, keep, 16)),
                                  _mm256_or_si256(channel8(words, green, keep, 8), channel8(words, blue, keep, 0)));
    __m256 use = _mm256_and_ps(drawn, _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GT_OQ));
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(words), _mm256_castsi256_ps(out), use));
}

AVX2 void mapraster_sdf_shade_row_avx2(const mapraster_sdf_shading *s, const float *field, int64_t count,
                                       void *pixels) {
    unsigned char *row = pixels;
    const __m256 edge0 = _mm256_set1_ps(s->edge0);
    const __m256 clear = _mm256_set1_ps(s->clear);
    for (int64_t k = 0; k < count; k += 8) {
        int64_t n = count - k < 8 ? count - k : 8;
        __m256 d;
        __m256i words;
        float lanes[8];
        uint32_t kept[8];
        if (n == 8) {
            d = _mm256_loadu_ps(field + k);
        } else {
            for (int i = 0; i < 8; i++) lanes[i] = i < n ? field[k + i] : -INFINITY;
            d = _mm256_loadu_ps(lanes);
        }
        // Below the lower edge every shading is transparent, and a halo is transparent from `clear` on.
        __m256 drawn = _mm256_and_ps(_mm256_cmp_ps(d, edge0, _CMP_GE_OQ), _mm256_cmp_ps(d, clear, _CMP_LT_OQ));
        if (_mm256_movemask_ps(drawn) == 0) continue;
        if (n == 8) {
            words = _mm256_loadu_si256((const __m256i *)(row + 4 * k));
            _mm256_storeu_si256((__m256i *)(row + 4 * k), shade8(s, d, words, drawn));
        } else {
            for (int i = 0; i < 8; i++) {
                kept[i] = 0;
                if (i < n) memcpy(&kept[i], row + 4 * (k + i), 4);
            }
            words = _mm256_loadu_si256((const __m256i *)kept);
            _mm256_storeu_si256((__m256i *)kept, shade8(s, d, words, drawn));
            memcpy(row + 4 * k, kept, 4 * (size_t)n);
        }
    }
}

AVX2 void mapraster_sdf_sample_upright_row_avx2(const float *upper, const float *lower, int64_t width,
                                                float weight_top, float weight_bottom, const int32_t *first,
                                                const int32_t *second, const float *weight_first,
                                                const float *weight_second, int64_t count, float *field) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i seven = _mm256_set1_epi32(7);
    const __m256 top = _mm256_set1_ps(weight_top);
    const __m256 bottom = _mm256_set1_ps(weight_bottom);
    int64_t k = 0;
    for (; k + 8 <= count; k += 8) {
        // The columns' texels grow or fall with k, so the eight lie between the ends' first and second.
        int32_t low = first[k] < first[k + 7] ? first[k] : first[k + 7];
        int32_t high = second[k] > second[k + 7] ? second[k] : second[k + 7];
        if (high - low >= 16) break;
        // Sixteen texels from `low`, those past the row's end masked (read as 0, never picked).
        __m256i room = _mm256_set1_epi32((int32_t)(width - low));
        __m256i mask0 = _mm256_cmpgt_epi32(room, lanes);
        __m256i mask1 = _mm256_cmpgt_epi32(room, _mm256_add_epi32(lanes, _mm256_set1_epi32(8)));
        __m256 upper0 = _mm256_maskload_ps(upper + low, mask0);
        __m256 upper1 = _mm256_maskload_ps(upper + low + 8, mask1);
        __m256 lower0 = _mm256_maskload_ps(lower + low, mask0);
        __m256 lower1 = _mm256_maskload_ps(lower + low + 8, mask1);
        __m256i base = _mm256_set1_epi32(low);
        __m256i f = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(first + k)), base);
        __m256i s = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(second + k)), base);
        __m256 fHigh = _mm256_castsi256_ps(_mm256_cmpgt_epi32(f, seven));
        __m256 sHigh = _mm256_castsi256_ps(_mm256_cmpgt_epi32(s, seven));
        __m256 upperF = _mm256_blendv_ps(_mm256_permutevar8x32_ps(upper0, f), _mm256_permutevar8x32_ps(upper1, f), fHigh);
        __m256 upperS = _mm256_blendv_ps(_mm256_permutevar8x32_ps(upper0, s), _mm256_permutevar8x32_ps(upper1, s), sHigh);
        __m256 lowerF = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lower0, f), _mm256_permutevar8x32_ps(lower1, f), fHigh);
        __m256 lowerS = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lower0, s), _mm256_permutevar8x32_ps(lower1, s), sHigh);
        __m256 wF = _mm256_loadu_ps(weight_first + k);
        __m256 wS = _mm256_loadu_ps(weight_second + k);
        __m256 up = _mm256_add_ps(_mm256_mul_ps(upperF, wF), _mm256_mul_ps(upperS, wS));
        __m256 down = _mm256_add_ps(_mm256_mul_ps(lowerF, wF), _mm256_mul_ps(lowerS, wS));
        _mm256_storeu_ps(field + k, _mm256_add_ps(_mm256_mul_ps(up, top), _mm256_mul_ps(down, bottom)));
    }
    for (; k < count; k++) {
        float up = upper[first[k]] * weight_first[k] + upper[second[k]] * weight_second[k];
        float down = lower[first[k]] * weight_first[k] + lower[second[k]] * weight_second[k];
        field[k] = up * weight_top + down * weight_bottom;
    }
}

/// One axis of the sampler for four coordinates `c` (doubles), as `sdf_axis`: the texels (clamped into `count`) and
/// their weights (0 for a texel outside).
AVX2 static inline void sdf_axis4(__m256d c, int32_t count, __m128i *first, __m128i *second, __m128 *weight_first,
                                  __m128 *weight_second) {
    __m256d cu = _mm256_sub_pd(c, _mm256_set1_pd(0.5));
    __m256d floor = _mm256_floor_pd(cu);
    __m128 f = _mm256_cvtpd_ps(_mm256_sub_pd(cu, floor));
    __m128i i = _mm256_cvttpd_epi32(floor);
    __m128i j = _mm_add_epi32(i, _mm_set1_epi32(1));
    __m128i zero = _mm_setzero_si128();
    __m128i last = _mm_set1_epi32(count - 1);
    *first = _mm_min_epi32(_mm_max_epi32(i, zero), last);
    *second = _mm_min_epi32(_mm_max_epi32(j, zero), last);
    // Inside: 0 <= i < count, as i > -1 and i < count.
    __m128i minus = _mm_set1_epi32(-1);
    __m128i size = _mm_set1_epi32(count);
    __m128 in_i = _mm_castsi128_ps(_mm_and_si128(_mm_cmpgt_epi32(i, minus), _mm_cmplt_epi32(i, size)));
    __m128 in_j = _mm_castsi128_ps(_mm_and_si128(_mm_cmpgt_epi32(j, minus), _mm_cmplt_epi32(j, size)));
    *weight_first = _mm_and_ps(_mm_sub_ps(_mm_set1_ps(1.0f), f), in_i);
    *weight_second = _mm_and_ps(f, in_j);
}

AVX2 void mapraster_sdf_sample_affine_row_avx2(const mapraster_sdf_affine *q, const float *alphas, int64_t x0,
                                               double y, int64_t count, float *field) {
    const double cy = q->c * y;
    const double dy = q->d * y;
    const __m256d offsets = _mm256_setr_pd(0.5, 1.5, 2.5, 3.5);
    const int32_t width = (int32_t)q->width;
    const __m128i widths = _mm_set1_epi32(width);
    int64_t k = 0;
    for (; k + 4 <= count; k += 4) {
        // (x0 + k + lane) + 0.5, exact: whole numbers and halves far below 2^52.
        __m256d centre = _mm256_add_pd(_mm256_set1_pd((double)(x0 + k)), offsets);
        __m256d u = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(q->a), centre), _mm256_set1_pd(cy)),
                                  _mm256_set1_pd(q->tx));
        __m256d v = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(q->b), centre), _mm256_set1_pd(dy)),
                                  _mm256_set1_pd(q->ty));
        __m256d inside = _mm256_and_pd(
            _mm256_and_pd(_mm256_cmp_pd(u, _mm256_set1_pd(q->min_u), _CMP_GE_OQ),
                          _mm256_cmp_pd(u, _mm256_set1_pd(q->max_u), _CMP_LT_OQ)),
            _mm256_and_pd(_mm256_cmp_pd(v, _mm256_set1_pd(q->min_v), _CMP_GE_OQ),
                          _mm256_cmp_pd(v, _mm256_set1_pd(q->max_v), _CMP_LT_OQ)));
        int mask = _mm256_movemask_pd(inside);
        if (mask == 0) {
            _mm_storeu_ps(field + k, _mm_set1_ps(-INFINITY));
            continue;
        }
        // Outside lanes are worked out on coordinates made 0 (in bounds) and replaced by -infinity at the end.
        u = _mm256_and_pd(u, inside);
        v = _mm256_and_pd(v, inside);
        __m128i c0, c1, r0, r1;
        __m128 cw0, cw1, rw0, rw1;
        sdf_axis4(u, width, &c0, &c1, &cw0, &cw1);
        sdf_axis4(v, (int32_t)q->height, &r0, &r1, &rw0, &rw1);
        __m128i top = _mm_mullo_epi32(r0, widths);
        __m128i bottom = _mm_mullo_epi32(r1, widths);
        __m128 top0 = _mm_i32gather_ps(alphas, _mm_add_epi32(top, c0), 4);
        __m128 top1 = _mm_i32gather_ps(alphas, _mm_add_epi32(top, c1), 4);
        __m128 bottom0 = _mm_i32gather_ps(alphas, _mm_add_epi32(bottom, c0), 4);
        __m128 bottom1 = _mm_i32gather_ps(alphas, _mm_add_epi32(bottom, c1), 4);
        __m128 upper = _mm_add_ps(_mm_mul_ps(top0, cw0), _mm_mul_ps(top1, cw1));
        __m128 lower = _mm_add_ps(_mm_mul_ps(bottom0, cw0), _mm_mul_ps(bottom1, cw1));
        __m128 value = _mm_add_ps(_mm_mul_ps(upper, rw0), _mm_mul_ps(lower, rw1));
        // The four lanes' masks, from 64 bits to 32.
        __m128 kept = _mm256_castps256_ps128(
            _mm256_permutevar8x32_ps(_mm256_castpd_ps(inside), _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
        _mm_storeu_ps(field + k, _mm_blendv_ps(_mm_set1_ps(-INFINITY), value, kept));
    }
    for (; k < count; k++) field[k] = sdf_affine_value(q, alphas, x0 + k, cy, dy);
}

#else

// Other architectures: no AVX2, and the four-lane Swift painter does the work.
int32_t mapraster_has_avx2(void) { return 0; }

void mapraster_sdf_shade_row_avx2(const mapraster_sdf_shading *shading, const float *field, int64_t count,
                                  void *row) {
    (void)shading;
    (void)field;
    (void)count;
    (void)row;
}

void mapraster_sdf_sample_affine_row_avx2(const mapraster_sdf_affine *quad, const float *alphas, int64_t x0,
                                          double y, int64_t count, float *field) {
    mapraster_sdf_sample_affine_row(quad, alphas, x0, y, count, field);
}

void mapraster_sdf_sample_upright_row_avx2(const float *upper, const float *lower, int64_t width, float weight_top,
                                           float weight_bottom, const int32_t *first, const int32_t *second,
                                           const float *weight_first, const float *weight_second, int64_t count,
                                           float *field) {
    (void)upper;
    (void)lower;
    (void)width;
    (void)weight_top;
    (void)weight_bottom;
    (void)first;
    (void)second;
    (void)weight_first;
    (void)weight_second;
    (void)count;
    (void)field;
}

#endif
