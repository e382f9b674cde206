#ifndef FEEDSITE_CGUMBO_SHIM_H
#define FEEDSITE_CGUMBO_SHIM_H

#include <gumbo.h>

#endif
