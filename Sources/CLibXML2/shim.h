#ifndef FEEDSITE_CLIBXML2_SHIM_H
#define FEEDSITE_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>

/* Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's
   <unicode/ucnv.h>, whose `UErrorCode` clashes with Foundation's bundled ICU in the same module.
   Only ICU-specific members of `xmlCharEncodingHandler` depend on it; feedsite never touches that
   struct (documents reach libxml2 as UTF-8), so the headers are read without ICU. */
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#endif
