// Declarations only (include/FuzzerDriver.h); SwiftPM needs a source file in a C target.
#include "FuzzerDriver.h"
