#ifndef FEEDSITE_CZLIB_SHIM_H
#define FEEDSITE_CZLIB_SHIM_H

#include <zlib.h>

/* inflateInit2 is a macro over inflateInit2_, which Swift cannot import. */
static inline int feedsite_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
