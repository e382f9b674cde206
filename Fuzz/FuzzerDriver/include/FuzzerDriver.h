#ifndef FEEDSITE_FUZZER_DRIVER_H
#define FEEDSITE_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links). The fuzz targets call it from
/// their own `main`: SwiftPM names a debug executable's entry point after its module, so
/// libFuzzer's `main` is never linked in.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
