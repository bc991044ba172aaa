/* names.h: the identifiers and snippets pipefy writes into its output, in one place: the
 * rewrites write them, and validation reads the output back by them (validation compares
 * statements with their blanks squeezed out: code_is, code_starts). */
#ifndef PIPEFY_NAMES_H
#define PIPEFY_NAMES_H

/* the stages */
#define STAGE_READ "pipefy_stage"      /* the stage the compute reads */
#define STAGE_FILL "pipefy_dst"        /* the stage a loader fills */
#define NAME_PROLOGUE_STAGE "pipefy_s" /* the prologue's loop over the first stages */
#define NAME_STAGE_AT "pipefy_at"      /* a tile's stage in the launch's dynamic shared memory */
#define NAME_STRIDE "pipefy_stride"    /* the bytes between two such stages */
#define NAME_PROMOTED "pipefy_shared"  /* the launch's dynamic shared memory static tiles moved to */

/* the lambdas of a pipelined block */
#define NAME_LOAD "pipefy_load"   /* starts the copies of the tile at the cursor */
#define NAME_FETCH "pipefy_fetch" /* registers: loads the next tile into registers */
#define NAME_STASH "pipefy_stash" /* registers: stores them into a stage */
#define NAME_TILE_IVAR "pipefy_tile_" /* registers: a loop variable of the tile in the staging registers */
#define NAME_MORE "pipefy_more"   /* registers: whether a next tile was fetched */
#define NAME_SHADOW "pipefy_reg_" /* registers: the fetch's own copy of a local the compute also uses */
#define NAME_KEPT "pipefy_kept" /* registers: the fetch's register for a local read after the copies too */

/* the tensor family's helpers and state */
#define NAME_TMA_LOAD "pipefy_tma_load_2d"
#define NAME_BULK_LOAD "pipefy_bulk_load"
#define NAME_FENCE_PROXY "pipefy_fence_proxy_async"
#define NAME_MBAR_WAIT "pipefy_mbar_wait"
#define NAME_MBAR_ARRIVE "pipefy_mbar_arrive"
#define NAME_FULL "pipefy_full"   /* a stage's mbarrier: its tile has landed */
#define NAME_EMPTY "pipefy_empty" /* a stage's mbarrier: every thread is done with it */
#define NAME_BAR_SYNC "pipefy_bar_sync"
#define NAME_BAR_ARRIVE "pipefy_bar_arrive"
#define NAME_THREADS "pipefy_threads" /* the kernel's own threads, without a producer */
#define NAME_PRODUCER "pipefy_producer"
#define NAME_REGS_DEC "pipefy_regs_dec"
#define NAME_REGS_INC "pipefy_regs_inc"

/* persistent launches (--launches=queue): queue.c writes them, validate.c reads them back; the
 * kernel, launcher, take and ready names are printf formats (the queue's number first) */
#define NAME_QUEUE_KERNEL "pipefy_queue%d_%s_%s" /* and the two kernels' names */
#define NAME_QUEUE_LAUNCHER "pipefy_launch_queue%d"
#define NAME_QUEUE_TAKE "pipefy_queue%d_take"
#define NAME_QUEUE_READY "pipefy_queue%d_ready"
#define NAME_QUEUE_DONE "pipefy_queue_done"
#define SNIP_QUEUE_ACQUIRE "pipefy_queue_acquire();"
#define SNIP_QUEUE_HAND_OUT "return pipefy_items1 + pipefy_c;"
#define SNIP_QUEUE_WAIT_FIRST "pipefy_queue_wait(&pipefy_counters[2], pipefy_items1);"
#define SNIP_QUEUE_EVERY_ROW "pipefy_r <= pipefy_memo->hi; pipefy_r++)"
#define NAME_QUEUE_ITEM "pipefy_c" /* the second kernel's item the take and ready functions weigh */

/* overlapped launches */
#define NAME_LAUNCH_DEPENDENT "pipefy_launch_dependent"
#define NAME_GRID_WAIT "pipefy_grid_wait"

/* the toolkit's cp.async calls (cuda_pipeline.h), written and read back */
#define NAME_PIPELINE_COPY "__pipeline_memcpy_async"
#define NAME_PIPELINE_COMMIT "__pipeline_commit"
#define NAME_PIPELINE_WAIT "__pipeline_wait_prior"

/* statements written and read back */
#define SNIP_WAIT_FULL NAME_MBAR_WAIT "(&" NAME_FULL "[" STAGE_READ "]"          /* , phase); */
#define SNIP_RELEASE_EMPTY NAME_MBAR_ARRIVE "(&" NAME_EMPTY "[" STAGE_READ "], 1)" /* tensor copies */
#define SNIP_WARPGROUP_DONE NAME_BAR_SYNC "(0, " NAME_THREADS " + 128)"      /* the warpgroup meets the kernel */
#define SNIP_WARPGROUP_LANDED NAME_BAR_SYNC "(1 + " STAGE_READ ", " NAME_THREADS " + 128)"
#define SNIP_WARPGROUP_HAS_LANDED NAME_BAR_ARRIVE "(1 + " STAGE_READ ", " NAME_THREADS " + 128)"
#define SNIP_WARP_LANDED NAME_BAR_SYNC "(1 + " STAGE_READ ", " NAME_THREADS " + 32)"
#define SNIP_PRODUCER_SKIPS "if (" NAME_PRODUCER ") continue"
#define SNIP_PRODUCER_BRANCH "if (" NAME_PRODUCER ") {"
#define SNIP_FETCH_FIRST "bool " NAME_MORE " = " NAME_FETCH "(" /* its arguments, ");" */
#define SNIP_REGS_COVERED "<= (unsigned)pipefy_attr.numRegs * (pipefy_block.x + 128)"

#endif
