#ifndef FEEDSITE_ICU_REGEX_H
#define FEEDSITE_ICU_REGEX_H

#include <stdint.h>

// ICU's regular expressions (Debian's libicu-dev, which libxml2 already links) with a bound on
// the matcher's work. The header names no ICU type, so Swift code that imports Foundation (whose
// own ICU module declares the same types) can import this one too.

/// How a search ended.
typedef enum {
    FEEDSITE_REGEX_NO_MATCH = 0,
    FEEDSITE_REGEX_MATCH = 1,
    /// The matcher used up its step budget (`feedsite_regex_search`'s `limit`).
    FEEDSITE_REGEX_GAVE_UP = 2,
    /// Any other ICU failure (out of memory, text too long).
    FEEDSITE_REGEX_FAILED = 3,
} FeedsiteRegexOutcome;

typedef struct FeedsiteRegex FeedsiteRegex;

/// Compiles `length` UTF-16 code units of `pattern`; NULL when ICU does not accept it.
FeedsiteRegex *feedsite_regex_open(const uint16_t *pattern, int32_t length);

/// Searches `length` UTF-16 code units of `text` for the first match anywhere. `limit` bounds
/// the work in ICU's time-limit units (each about ten thousand steps of the matching engine, so
/// the bound does not depend on the machine's speed); past it the search gives up.
FeedsiteRegexOutcome feedsite_regex_search(FeedsiteRegex *regex, const uint16_t *text, int32_t length, int32_t limit);

void feedsite_regex_close(FeedsiteRegex *regex);

#endif
