#ifndef FEEDSITE_CCMARKGFM_SHIM_H
#define FEEDSITE_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

// The GFM extension node types are exported by libcmark-gfm-extensions but not declared in the
// installed headers (they live in the extensions' private table.h / strikethrough.h).
extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

#endif
