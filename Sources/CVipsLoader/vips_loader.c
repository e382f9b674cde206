// libvips through dlopen (see include/vips_loader.h for why it is not linked). Every function is
// looked up with its real prototype (variadic where libvips' is), and called only from here.

#include "vips_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct VipsImageOpaque VipsImage;
typedef void (*log_function)(const char *domain, int level, const char *message, void *data);

/// The libvips (and GLib) functions feedsite calls, with libvips' own prototypes.
typedef struct {
    int (*init)(const char *argv0);
    void (*block_untrusted_set)(int state);
    void (*cache_set_max)(int max);
    void (*concurrency_set)(int concurrency);
    VipsImage *(*image_new_from_buffer)(const void *buf, size_t len, const char *option_string, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*thumbnail_buffer)(void *buf, size_t len, VipsImage **out, int width, ...);
    VipsImage *(*image_new_from_memory_copy)(const void *data, size_t size, int width, int height, int bands,
                                             int format);
    int (*thumbnail_image)(VipsImage *in, VipsImage **out, int width, ...);
    int (*image_write_to_buffer)(VipsImage *in, const char *suffix, void **buf, size_t *size, ...);
    char *(*error_buffer_copy)(void);
    void (*object_unref)(void *object);
    void (*free)(void *pointer);
    unsigned (*log_set_handler)(const char *domain, int levels, log_function function, void *data);
} functions;

/// vips_init and the process-wide settings (untrusted loaders blocked, no operation cache, one
/// worker thread) are applied once per process; libvips is not unloaded (RTLD_NODELETE).
static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;
static int is_set_up = 0;

static void ignore_log(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static void copy_error(char *error, size_t length, const char *message) {
    if (error == NULL || length == 0) return;
    snprintf(error, length, "%s", message != NULL ? message : "unknown error");
}

/// libvips' pending error message (which it then clears) into `error`; trailing newlines dropped.
static void take_vips_error(const functions *f, char *error, size_t length, const char *fallback) {
    char *message = f->error_buffer_copy();
    if (message != NULL && message[0] != '\0') {
        copy_error(error, length, message);
        size_t end = error != NULL ? strlen(error) : 0;
        while (end > 0 && (error[end - 1] == '\n' || error[end - 1] == '\r')) error[--end] = '\0';
    } else {
        copy_error(error, length, fallback);
    }
    if (message != NULL) f->free(message);
}

#define RESOLVE(field, name)                                                   \
    do {                                                                       \
        *(void **)(&f->field) = dlsym(handle, name);                           \
        if (f->field == NULL) {                                                \
            snprintf(error, length, "%s has no %s (libvips 8.13 or later is needed)", library, name); \
            dlclose(handle);                                                   \
            return 0;                                                          \
        }                                                                      \
    } while (0)

/// Loads libvips and starts it. 1 on success, else 0 with the reason in `error`.
static int load(const char *library, functions *f, char *error, size_t length) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == NULL) {
        const char *reason = dlerror();
        copy_error(error, length, reason != NULL ? reason : "cannot be loaded");
        return 0;
    }
    RESOLVE(init, "vips_init");
    RESOLVE(block_untrusted_set, "vips_block_untrusted_set");
    RESOLVE(cache_set_max, "vips_cache_set_max");
    RESOLVE(concurrency_set, "vips_concurrency_set");
    RESOLVE(image_new_from_buffer, "vips_image_new_from_buffer");
    RESOLVE(image_get_width, "vips_image_get_width");
    RESOLVE(image_get_height, "vips_image_get_height");
    RESOLVE(thumbnail_buffer, "vips_thumbnail_buffer");
    RESOLVE(image_new_from_memory_copy, "vips_image_new_from_memory_copy");
    RESOLVE(thumbnail_image, "vips_thumbnail_image");
    RESOLVE(image_write_to_buffer, "vips_image_write_to_buffer");
    RESOLVE(error_buffer_copy, "vips_error_buffer_copy");
    RESOLVE(object_unref, "g_object_unref");
    RESOLVE(free, "g_free");
    RESOLVE(log_set_handler, "g_log_set_handler");
    // Still mapped after this (RTLD_NODELETE): the function pointers stay valid.
    dlclose(handle);

    pthread_mutex_lock(&setup_lock);
    int ok = 1;
    if (!is_set_up) {
        if (f->init("feedsite") != 0) {
            take_vips_error(f, error, length, "vips_init failed");
            ok = 0;
        } else {
            // Only the loaders libvips deems safe for untrusted input (no ImageMagick, no SVG
            // renderer, no PDF): every icon is hostile input.
            f->block_untrusted_set(1);
            f->cache_set_max(0);
            f->concurrency_set(1);
            // A damaged icon is the site's problem, not the build's: libvips' warnings are not printed
            // (levels: warning, message, info, debug).
            f->log_set_handler("VIPS", (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7), ignore_log, NULL);
            is_set_up = 1;
        }
    }
    pthread_mutex_unlock(&setup_lock);
    return ok;
}

int feedsite_vips_available(const char *library, char *error, size_t errorLength) {
    functions f;
    return load(library, &f, error, errorLength);
}

/// What `save` did: the bytes fit, did not fit, or the saver failed (its message in `error`).
enum { SAVED = 0, SAVED_TOO_LARGE = 1, SAVE_FAILED = 2 };

/// Saves `image` with `suffix` (".webp[Q=80]") into `output` when it fits in `capacity`. The
/// pixels are decoded here (libvips is lazy), so a damaged file fails in this call.
static int save(const functions *f, VipsImage *image, const char *suffix, void *output, size_t capacity,
                size_t *length, char *error, size_t errorLength) {
    void *buffer = NULL;
    size_t size = 0;
    if (f->image_write_to_buffer(image, suffix, &buffer, &size, NULL) != 0) {
        take_vips_error(f, error, errorLength, "cannot be saved");
        if (buffer != NULL) f->free(buffer);
        return SAVE_FAILED;
    }
    int outcome = SAVED_TOO_LARGE;
    if (buffer != NULL && size > 0 && size <= capacity) {
        memcpy(output, buffer, size);
        *length = size;
        outcome = SAVED;
    }
    if (buffer != NULL) f->free(buffer);
    return outcome;
}

static int encode(const functions *fp, VipsImage *thumbnail, void *output, size_t outputCapacity,
                  feedsite_vips_result *result, char *error, size_t errorLength);

int feedsite_vips_thumbnail(
    const char *library, const void *input, size_t inputLength, int size, int maxSide, void *output,
    size_t outputCapacity, feedsite_vips_result *result, char *error, size_t errorLength) {
    functions f;
    if (!load(library, &f, error, errorLength)) return FEEDSITE_VIPS_UNAVAILABLE;
    if (input == NULL || inputLength == 0 || output == NULL || result == NULL || size < 1) {
        copy_error(error, errorLength, "empty input");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    // The header alone (no pixel is decoded yet): a pixel bomb is refused before it costs anything.
    VipsImage *header = f.image_new_from_buffer(input, inputLength, "", "access", 1 /* SEQUENTIAL */, NULL);
    if (header == NULL) {
        take_vips_error(&f, error, errorLength, "not an image libvips can read");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    int width = f.image_get_width(header);
    int height = f.image_get_height(header);
    f.object_unref(header);
    if (width < 1 || height < 1 || width > maxSide || height > maxSide) {
        snprintf(error, errorLength, "%d×%d pixels, more than %d on a side", width, height, maxSide);
        return FEEDSITE_VIPS_TOO_LARGE;
    }
    VipsImage *thumbnail = NULL;
    // Fits size×size, aspect kept, never enlarged; a truncated file fails rather than being padded.
    if (f.thumbnail_buffer((void *)input, inputLength, &thumbnail, size, "height", size, "size", 2 /* DOWN */,
                           "option_string", "fail_on=truncated", NULL) != 0 ||
        thumbnail == NULL) {
        take_vips_error(&f, error, errorLength, "cannot be decoded");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    return encode(&f, thumbnail, output, outputCapacity, result, error, errorLength);
}

int feedsite_vips_thumbnail_rgba(
    const char *library, const void *pixels, int width, int height, int size, void *output, size_t outputCapacity,
    feedsite_vips_result *result, char *error, size_t errorLength) {
    functions f;
    if (!load(library, &f, error, errorLength)) return FEEDSITE_VIPS_UNAVAILABLE;
    if (pixels == NULL || width < 1 || height < 1 || width > 4096 || height > 4096 || output == NULL ||
        result == NULL || size < 1) {
        copy_error(error, errorLength, "no pixels");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    // 4 bands of unsigned bytes (VIPS_FORMAT_UCHAR = 0): libvips reads them as sRGB with alpha.
    VipsImage *image = f.image_new_from_memory_copy(pixels, (size_t)width * (size_t)height * 4, width, height, 4, 0);
    if (image == NULL) {
        take_vips_error(&f, error, errorLength, "cannot be read");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    VipsImage *thumbnail = NULL;
    int failed = f.thumbnail_image(image, &thumbnail, size, "height", size, "size", 2 /* DOWN */, NULL) != 0;
    f.object_unref(image);
    if (failed || thumbnail == NULL) {
        take_vips_error(&f, error, errorLength, "cannot be resized");
        return FEEDSITE_VIPS_UNDECODABLE;
    }
    return encode(&f, thumbnail, output, outputCapacity, result, error, errorLength);
}

/// Saves `thumbnail` (and releases it) as WebP, else PNG, into `output`.
static int encode(const functions *fp, VipsImage *thumbnail, void *output, size_t outputCapacity,
                  feedsite_vips_result *result, char *error, size_t errorLength) {
    const functions f = *fp;
    size_t length = 0;
    int format = FEEDSITE_VIPS_WEBP;
    // WebP at quality 80, once more at 50 when too large; PNG (then a palette PNG) when this libvips
    // cannot write WebP.
    int outcome = save(&f, thumbnail, ".webp[Q=80,strip]", output, outputCapacity, &length, error, errorLength);
    if (outcome == SAVED_TOO_LARGE) {
        outcome = save(&f, thumbnail, ".webp[Q=50,strip]", output, outputCapacity, &length, error, errorLength);
    } else if (outcome == SAVE_FAILED) {
        // The WebP saver's message is kept: when the pixels cannot be decoded, it says why first.
        char ignored[256];
        format = FEEDSITE_VIPS_PNG;
        outcome = save(&f, thumbnail, ".png[compression=9,strip]", output, outputCapacity, &length, ignored,
                       sizeof ignored);
        if (outcome == SAVED_TOO_LARGE) {
            outcome = save(&f, thumbnail, ".png[compression=9,palette,strip]", output, outputCapacity, &length,
                           ignored, sizeof ignored);
            if (outcome == SAVE_FAILED) outcome = SAVED_TOO_LARGE;
        }
    }
    result->width = f.image_get_width(thumbnail);
    result->height = f.image_get_height(thumbnail);
    result->format = format;
    result->length = length;
    f.object_unref(thumbnail);
    if (outcome == SAVE_FAILED) return FEEDSITE_VIPS_UNDECODABLE;
    if (outcome == SAVED_TOO_LARGE) {
        snprintf(error, errorLength, "no WebP or PNG of it fits in %zu bytes", outputCapacity);
        return FEEDSITE_VIPS_UNENCODABLE;
    }
    return FEEDSITE_VIPS_OK;
}
