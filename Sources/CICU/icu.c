#include "CICU.h"

#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/ushape.h>

int32_t mapraster_shape_arabic(const uint16_t *source, int32_t length, uint16_t *dest, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = u_shapeArabic((const UChar *)source, length, (UChar *)dest, capacity,
                                    (U_SHAPE_LETTERS_SHAPE & U_SHAPE_LETTERS_MASK) |
                                        (U_SHAPE_TEXT_DIRECTION_LOGICAL & U_SHAPE_TEXT_DIRECTION_MASK),
                                    &error);
    return U_FAILURE(error) ? -1 : written;
}

void *mapraster_bidi_open(const uint16_t *text, int32_t length) {
    UErrorCode error = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_open();
    if (bidi == NULL) return NULL;
    ubidi_setPara(bidi, (const UChar *)text, length, UBIDI_DEFAULT_LTR, NULL, &error);
    if (U_FAILURE(error)) {
        ubidi_close(bidi);
        return NULL;
    }
    return bidi;
}

void mapraster_bidi_close(void *bidi) { ubidi_close((UBiDi *)bidi); }

int32_t mapraster_bidi_paragraph_count(void *bidi) { return ubidi_countParagraphs((UBiDi *)bidi); }

int32_t mapraster_bidi_paragraph_limit(void *bidi, int32_t index) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t start = 0, limit = 0;
    ubidi_getParagraphByIndex((const UBiDi *)bidi, index, &start, &limit, NULL, &error);
    return U_FAILURE(error) ? -1 : limit;
}

uint8_t mapraster_bidi_level(void *bidi, int32_t index) { return ubidi_getLevelAt((const UBiDi *)bidi, index); }

int32_t mapraster_bidi_line_visual_map(void *bidi, int32_t start, int32_t limit, int32_t *map) {
    UErrorCode error = U_ZERO_ERROR;
    UBiDi *line = ubidi_openSized(limit - start, 0, &error);
    if (line == NULL || U_FAILURE(error)) return -1;
    ubidi_setLine((const UBiDi *)bidi, start, limit, line, &error);
    if (U_SUCCESS(error)) ubidi_getVisualMap(line, map, &error);
    ubidi_close(line);
    return U_FAILURE(error) ? -1 : 0;
}

int32_t mapraster_mirror(int32_t c) { return u_charMirror(c); }
