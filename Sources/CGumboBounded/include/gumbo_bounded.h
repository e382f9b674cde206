#ifndef FEEDSITE_GUMBO_BOUNDED_H
#define FEEDSITE_GUMBO_BOUNDED_H

#include <stddef.h>
#include <gumbo.h>

/// How a bounded parse ended.
typedef enum {
    FEEDSITE_GUMBO_COMPLETE = 0,
    /// Gumbo asked for more live memory than the budget allows.
    FEEDSITE_GUMBO_OVER_MEMORY = 1,
    /// The parse ran past its deadline.
    FEEDSITE_GUMBO_OVER_TIME = 2,
    /// malloc failed.
    FEEDSITE_GUMBO_OUT_OF_MEMORY = 3,
} FeedsiteGumboStatus;

typedef struct FeedsiteGumboParse FeedsiteGumboParse;

/// Parses `length` bytes of UTF-8 as the content of a `<div>` (HTML fragment parsing, errors not
/// recorded). Every allocation gumbo makes is tracked: past `max_bytes` of live memory or
/// `max_seconds` of wall time the parse is abandoned (`feedsite_gumbo_status` says why), and
/// `feedsite_gumbo_release` frees everything in one loop, so no tree is ever freed recursively
/// (`gumbo_destroy_output` recurses once per level and exhausts the stack on deep input).
/// Returns NULL only when the bookkeeping itself cannot be allocated.
FeedsiteGumboParse *feedsite_gumbo_parse(const char *bytes, size_t length, size_t max_bytes, double max_seconds);

FeedsiteGumboStatus feedsite_gumbo_status(const FeedsiteGumboParse *parse);

/// The fragment's root (the `html` element), or NULL when the parse did not complete.
GumboNode *feedsite_gumbo_root(const FeedsiteGumboParse *parse);

/// Frees the tree and everything else gumbo allocated.
void feedsite_gumbo_release(FeedsiteGumboParse *parse);

#endif
