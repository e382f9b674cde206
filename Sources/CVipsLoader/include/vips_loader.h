#ifndef FEEDSITE_VIPS_LOADER_H
#define FEEDSITE_VIPS_LOADER_H

// libvips, loaded at run time with dlopen rather than linked: `make dist` builds a stand-alone
// static binary, Debian ships no static libvips, and the shared libvips42 pulls in ~100 libraries.
// Without libvips feeds show their monograms. Only this tiny, non-variadic API is seen by Swift
// (FeedsiteImage/AvatarImage.swift).

#include <stddef.h>

/// Outcomes of `feedsite_vips_thumbnail`.
enum {
    FEEDSITE_VIPS_OK = 0,
    /// The library cannot be loaded, lacks a function feedsite needs, or does not start.
    FEEDSITE_VIPS_UNAVAILABLE = 1,
    /// Not an image libvips may read (unknown, damaged, truncated, or a loader blocked as untrusted).
    FEEDSITE_VIPS_UNDECODABLE = 2,
    /// The image is larger than `maxSide` pixels on a side.
    FEEDSITE_VIPS_TOO_LARGE = 3,
    /// Resized, but neither WebP nor PNG fits in `outputCapacity` bytes (or neither saver works).
    FEEDSITE_VIPS_UNENCODABLE = 4,
};

/// Output formats.
enum { FEEDSITE_VIPS_WEBP = 0, FEEDSITE_VIPS_PNG = 1 };

/// What a successful thumbnail is.
typedef struct {
    int width;
    int height;
    int format;
    size_t length;
} feedsite_vips_result;

/// 1 when the libvips at `library` (a file name for dlopen, e.g. "libvips.so.42") loads, has every
/// function feedsite calls (8.13 or later) and starts; else 0 with the reason in `error`.
int feedsite_vips_available(const char *library, char *error, size_t errorLength);

/// Decodes `input` with libvips' trusted loaders only, refuses images over `maxSide` pixels on a
/// side (from the header, before any pixel is decoded), shrinks it to fit `size`×`size` (never
/// enlarging), and saves it as WebP (quality 80, then 50 if too large), else PNG, into `output`
/// (`outputCapacity` bytes). Safe to call from several threads at once.
int feedsite_vips_thumbnail(
    const char *library, const void *input, size_t inputLength, int size, int maxSide, void *output,
    size_t outputCapacity, feedsite_vips_result *result, char *error, size_t errorLength);

/// The same for `width`×`height` pixels of straight RGBA, top row first (4 bytes a pixel; at most
/// 4096 on a side): an icon decoded by feedsite itself (a BMP inside an `.ico`).
int feedsite_vips_thumbnail_rgba(
    const char *library, const void *pixels, int width, int height, int size, void *output, size_t outputCapacity,
    feedsite_vips_result *result, char *error, size_t errorLength);

#endif
