// ICU's common library (libicuuc) for right-to-left labels: Arabic shaping and the Unicode Bidirectional
// Algorithm, the two ICU services MapLibre Native calls. Only plain C types cross this header: ICU's own
// headers stay inside icu.c, apart from the copy of ICU that Foundation brings (whose types clash with
// Debian's in one Clang module).
#ifndef MAPRASTER_CICU_H
#define MAPRASTER_CICU_H

#include <stdint.h>

/// u_shapeArabic with MapLibre's options (letters shaped, logical order, lam-alef shrinking the text):
/// the output's length, or -1 when ICU reports an error or `capacity` is too small.
int32_t mapraster_shape_arabic(const uint16_t *source, int32_t length, uint16_t *dest, int32_t capacity);

/// A bidi paragraph set of UTF-16 `text` (level from the first strong character, else left to right;
/// MapLibre's UBIDI_DEFAULT_LTR), or NULL on an error. `text` must outlive it.
void *mapraster_bidi_open(const uint16_t *text, int32_t length);
void mapraster_bidi_close(void *bidi);
/// The number of paragraphs, and the limit (one past its separator) of paragraph `index` (-1 on error).
int32_t mapraster_bidi_paragraph_count(void *bidi);
int32_t mapraster_bidi_paragraph_limit(void *bidi, int32_t index);
/// The embedding level of the character at `index` (odd: right to left).
uint8_t mapraster_bidi_level(void *bidi, int32_t index);
/// The visual order of line [start, limit) (within one paragraph): map[k] is the logical index (from
/// start) of the k-th character from the left. 0 on success, -1 on an error.
int32_t mapraster_bidi_line_visual_map(void *bidi, int32_t start, int32_t limit, int32_t *map);
/// Unicode's Bidi_Mirroring_Glyph of `c`, `c` itself when it has none.
int32_t mapraster_mirror(int32_t c);

#endif
