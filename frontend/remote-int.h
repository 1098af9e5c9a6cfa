/* remote-int.h - what remote.c and remote-ssh.c share (remote.h). */
#ifndef DRDB_REMOTE_INT_H
#define DRDB_REMOTE_INT_H

#include <stddef.h>
#include <stdint.h>

/* Whether HOST means a local agent (NULL, "localhost"). */
int remote__is_local(const char *host);
/* The one line for an agent on HOST (DRDB: its path there; LOCAL: a
 * local child) that ended with wait STATUS (-1 unknown) before its HELLO,
 * having said STDERR_TEXT: what failed (ssh's exit 255: reach or log in;
 * 127: no drdb there) and what to do. */
void remote__diagnose(const char *host, const char *drdb, int local,
                      int status, const char *stderr_text, char *err,
                      size_t errlen);
/* The one line for a HELLO of another version (PROTO, VER; this drdb's:
 * MINE): which side is older. */
void remote__mismatch(const char *host, uint32_t proto, const char *ver,
                      const char *mine, char *err, size_t errlen);

#endif
