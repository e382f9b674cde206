#include "icu_regex.h"

#include <unicode/uregex.h>

FeedsiteRegex *feedsite_regex_open(const uint16_t *pattern, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError where;
    URegularExpression *regex = uregex_open((const UChar *)pattern, length, 0, &where, &status);
    if (U_FAILURE(status)) {
        if (regex != NULL) uregex_close(regex);
        return NULL;
    }
    return (FeedsiteRegex *)regex;
}

FeedsiteRegexOutcome feedsite_regex_search(FeedsiteRegex *handle, const uint16_t *text, int32_t length, int32_t limit) {
    URegularExpression *regex = (URegularExpression *)handle;
    UErrorCode status = U_ZERO_ERROR;
    uregex_setTimeLimit(regex, limit, &status);
    uregex_setText(regex, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return FEEDSITE_REGEX_FAILED;
    UBool found = uregex_find(regex, 0, &status);
    // The matcher must not keep pointing at `text`, which the caller frees.
    UErrorCode reset = U_ZERO_ERROR;
    static const UChar empty[1] = {0};
    uregex_setText(regex, empty, 0, &reset);
    if (status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW) return FEEDSITE_REGEX_GAVE_UP;
    if (U_FAILURE(status)) return FEEDSITE_REGEX_FAILED;
    return found ? FEEDSITE_REGEX_MATCH : FEEDSITE_REGEX_NO_MATCH;
}

void feedsite_regex_close(FeedsiteRegex *regex) {
    if (regex != NULL) uregex_close((URegularExpression *)regex);
}
