/*
 * The debug information GDB gets of the replay stub: the debugger's
 * protocol alone (drdb-hooks.h, checkpoint/ckpt.h), nothing of the stub's
 * internals (replayer/meson.build links them without theirs).
 *
 * This file is compiled with -g and refers to every protocol variable and
 * hook, so the compiler describes their declarations: GDB resolves each
 * through the symbol table and knows its type (`print drdb_event`,
 * `printf "%s", drdb_divergence_msg`), while the stub's statics and
 * generated entry points have no debug information: `print results` at
 * main finds no stub variable, and `step` steps over MPI calls.
 */
#include "ckpt.h"
#include "drdb-hooks.h"

/* (used: kept at every optimization level; not exported, rpl.map) */
__attribute__((used)) const void *const rpl__debug_protocol[] = {
    (const void *)&drdb_event,
    (const void *)&drdb_nevents,
    (const void *)&drdb_current_fn,
    (const void *)&drdb_call_event,
    (const void *)&drdb_rank,
    (const void *)&drdb_stop_event,
    (const void *)drdb_stop_hook,
    (const void *)drdb_divergence_msg,
    (const void *)drdb_divergence_hook,
    (const void *)&drdb_fail_code,
    (const void *)&drdb_checkpoint_event,
    (const void *)&drdb_ckpt_every,
    (const void *)&drdb_ckpt_interval,
    (const void *)drdb_checkpoint_hook,
    (const void *)drdb_restored_hook,
    (const void *)&drdb_ckpt_target,
    (const void *)&drdb_ckpt_pc,
    (const void *)&drdb_ckpt_event_tag,
    (const void *)&drdb_ckpt_target_path,
    (const void *)&drdb_ckpt_last,
    (const void *)&drdb_ckpt_msg,
    (const void *)&drdb_ckpt_table,
    (const void *)drdb_ckpt_take_trampoline,
    (const void *)drdb_ckpt_restore_trampoline,
    (const void *)drdb_ckpt_segv_hook,
};
