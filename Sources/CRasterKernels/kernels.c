#include "CRasterKernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <math.h>
#include <string.h>

// Every product and sum is rounded on its own, as Swift computes them: never contracted into a fused
// multiply-add, whatever the target.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)

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

#endif
