/* names.h: the identifiers and snippets pipefy writes into its output, in one place: the
 * rewrites write them, and validation reads the output back by them. */
#ifndef PIPEFY_NAMES_H
#define PIPEFY_NAMES_H

#define STAGE_READ "pipefy_stage" /* the stage the compute reads */
#define STAGE_FILL "pipefy_dst"   /* the stage a loader fills */

#endif
