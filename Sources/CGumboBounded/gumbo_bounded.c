// Gumbo with a memory and time budget, freed without recursion (see include/gumbo_bounded.h).
// Hand-written in C because abandoning a parse midway needs longjmp out of gumbo's allocator,
// which must not cross Swift frames.
#include "gumbo_bounded.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Header in front of every block handed to gumbo: a doubly linked list of live blocks. 32 bytes,
/// so the block after it keeps malloc's 16-byte alignment.
typedef struct Block {
    struct Block *previous;
    struct Block *next;
    size_t size;
    size_t padding;
} Block;

struct FeedsiteGumboParse {
    jmp_buf escape;
    Block live;
    size_t live_bytes;
    size_t max_bytes;
    unsigned long allocations;
    struct timespec deadline;
    FeedsiteGumboStatus status;
    GumboOutput *output;
};

static int is_past(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static void abandon(FeedsiteGumboParse *parse, FeedsiteGumboStatus status) {
    parse->status = status;
    longjmp(parse->escape, 1);
}

static void *allocate(void *userdata, size_t size) {
    FeedsiteGumboParse *parse = userdata;
    if (size > parse->max_bytes - parse->live_bytes) abandon(parse, FEEDSITE_GUMBO_OVER_MEMORY);
    // The clock is read every 1,024 allocations: gumbo allocates for every tag and text run.
    if ((++parse->allocations & 1023) == 0 && is_past(&parse->deadline)) abandon(parse, FEEDSITE_GUMBO_OVER_TIME);
    Block *block = malloc(sizeof(Block) + size);
    if (block == NULL) abandon(parse, FEEDSITE_GUMBO_OUT_OF_MEMORY);
    // Zeroed: gumbo 0.10.1 reads the fragment document's quirks mode without setting it
    // (parser.c:2760, `<table>` closing an open `<p>` or not), so with malloc's leftovers the
    // same input could parse differently from one call to the next. Zero is no-quirks mode.
    memset(block + 1, 0, size);
    block->size = size;
    block->previous = &parse->live;
    block->next = parse->live.next;
    parse->live.next->previous = block;
    parse->live.next = block;
    parse->live_bytes += size;
    return block + 1;
}

static void deallocate(void *userdata, void *pointer) {
    if (pointer == NULL) return;
    FeedsiteGumboParse *parse = userdata;
    Block *block = (Block *)pointer - 1;
    block->previous->next = block->next;
    block->next->previous = block->previous;
    parse->live_bytes -= block->size;
    free(block);
}

FeedsiteGumboParse *feedsite_gumbo_parse(const char *bytes, size_t length, size_t max_bytes, double max_seconds) {
    FeedsiteGumboParse *parse = calloc(1, sizeof(FeedsiteGumboParse));
    if (parse == NULL) return NULL;
    parse->live.previous = &parse->live;
    parse->live.next = &parse->live;
    parse->max_bytes = max_bytes;
    clock_gettime(CLOCK_MONOTONIC, &parse->deadline);
    if (max_seconds > 0) {
        time_t seconds = (time_t)max_seconds;
        long nanoseconds = (long)((max_seconds - (double)seconds) * 1e9);
        parse->deadline.tv_sec += seconds;
        parse->deadline.tv_nsec += nanoseconds;
        if (parse->deadline.tv_nsec >= 1000000000L) {
            parse->deadline.tv_sec += 1;
            parse->deadline.tv_nsec -= 1000000000L;
        }
    }
    GumboOptions options = kGumboDefaultOptions;
    options.allocator = allocate;
    options.deallocator = deallocate;
    options.userdata = parse;
    options.fragment_context = GUMBO_TAG_DIV;
    options.fragment_namespace = GUMBO_NAMESPACE_HTML;
    // Errors are not reported anywhere; recording them only costs memory on hostile input.
    options.max_errors = 0;
    if (setjmp(parse->escape) == 0) {
        parse->output = gumbo_parse_with_options(&options, bytes, length);
        parse->status = FEEDSITE_GUMBO_COMPLETE;
    } else {
        parse->output = NULL;
    }
    return parse;
}

FeedsiteGumboStatus feedsite_gumbo_status(const FeedsiteGumboParse *parse) {
    return parse->status;
}

GumboNode *feedsite_gumbo_root(const FeedsiteGumboParse *parse) {
    return parse->output != NULL ? parse->output->root : NULL;
}

void feedsite_gumbo_release(FeedsiteGumboParse *parse) {
    if (parse == NULL) return;
    Block *block = parse->live.next;
    while (block != &parse->live) {
        Block *next = block->next;
        free(block);
        block = next;
    }
    free(parse);
}
