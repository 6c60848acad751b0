// The part of librsvg's C API (2.52 and later; Debian 12 ships 2.54) that MapGraphics calls, declared here
// as <librsvg/rsvg.h> declares it. The real headers are not included because they need GLib's include
// flags from pkg-config, and GLib's pkg-config file carries `-pthread`, which SwiftPM refuses with a warning
// on every build. Only opaque handles, plain structs of doubles and ints, and GLib's GError cross the API.
#include <stddef.h>
#include <stdint.h>

typedef struct _RsvgHandle RsvgHandle;
typedef struct _GError {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;
typedef struct {
    double length;
    int unit;
} RsvgLength;
struct _cairo;

RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, int *out_has_width, RsvgLength *out_width,
                                          int *out_has_height, RsvgLength *out_height, int *out_has_viewbox,
                                          RsvgRectangle *out_viewbox);
int rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport,
                                GError **error);
extern const unsigned int rsvg_major_version;
extern const unsigned int rsvg_minor_version;
extern const unsigned int rsvg_micro_version;

void g_object_unref(void *object);
void g_error_free(GError *error);
