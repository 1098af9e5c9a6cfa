/*
 * Which runs are this user's own (launch.h; docs/security.md, "Trust"):
 * `drdb record` signs the run description it leaves with a key only this
 * user can read, so that a replay tells a run this user recorded from one
 * copied in, another user's, or edited since. drdb.run names the program
 * a replay executes, its arguments and its working directory: a run that
 * is not signed with the user's key is shown whole and needs --trust
 * (launch-check.c).
 *
 * The signature is drdb.run's last line, "signature hmac-sha256 HEX":
 * HMAC-SHA256 (Nettle) under the user's key of every byte before that
 * line. The key is 32 random bytes in $XDG_CONFIG_HOME/drdb/run-key (else
 * ~/.config/drdb/run-key), mode 0600 in a 0700 directory, made on the
 * first signature.
 */
#include <errno.h>
#include <fcntl.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"
#include "launch.h"
#include "log-format.h"
#include "util.h"

#define KEY_BYTES 32
#define KEY_FILE "run-key"
#define SIG_HEAD "signature hmac-sha256 "
#define SIG_LINE (sizeof SIG_HEAD - 1 + 2 * SHA256_DIGEST_SIZE + 1)
/* A description is a few lines (the recorder fills LOG_RUN_MAX at most,
 * drdb record adds one): a bigger one is not read, so not signed. */
#define RUN_TEXT_MAX (4 * LOG_RUN_MAX)

/* The directory the key lives in ($XDG_CONFIG_HOME/drdb, else
 * $HOME/.config/drdb) and its parent, into KDIR and BASE: 0, or -1 when
 * there is no home to put it in. */
static int key_paths(char *base, char *kdir, size_t len)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    struct passwd *pw;
    if (xdg && xdg[0] == '/') /* the XDG rule: a relative one is ignored */
        snprintf(base, len, "%s", xdg);
    else if (home && home[0] == '/')
        snprintf(base, len, "%s/.config", home);
    else if ((pw = getpwuid(geteuid())) && pw->pw_dir[0] == '/')
        snprintf(base, len, "%s/.config", pw->pw_dir);
    else
        return -1;
    snprintf(kdir, len, "%s/drdb", base);
    return 0;
}

/* Opens the key's directory (CREATE: making it, and its parent when
 * missing): a descriptor, or -errno with KDIR its path. A link, or a
 * directory of another user or that others can write, is refused: they
 * could read or replace the key. */
static int key_dir_open(int create, char *kdir, size_t len)
{
    char base[4096];
    if (key_paths(base, kdir, len) < 0) {
        snprintf(kdir, len, "$XDG_CONFIG_HOME/drdb");
        return -ENOENT;
    }
    if (create && mkdir(base, 0700) < 0 && errno != EEXIST)
        return -errno;
    int bfd = util_dir_open(AT_FDCWD, base, 0);
    if (bfd < 0)
        return bfd;
    int rc = create ? util_dir_create(bfd, "drdb", 1) : 0;
    int fd = rc < 0 ? rc : util_dir_open(bfd, "drdb", 1);
    close(bfd);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 &&
        (st.st_uid != geteuid() || (st.st_mode & 022))) {
        close(fd);
        return -EPERM;
    }
    return fd;
}

/* Reads the key of DFD into KEY: 0, or -errno (-EPERM: not a private file
 * of this user; -EINVAL: not a key). */
static int key_read(int dfd, uint8_t key[KEY_BYTES])
{
    int fd = openat(dfd, KEY_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    int rc = fstat(fd, &st) < 0 ? -errno
             : !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
                       (st.st_mode & 077) ? -EPERM
             : st.st_size != KEY_BYTES ||
                       read(fd, key, KEY_BYTES) != KEY_BYTES ? -EINVAL
             : 0;
    close(fd);
    return rc;
}

/* Makes the key of DFD, unless another drdb made it first: 0 or -errno.
 * Written whole to a temporary file, then linked to its name (a link
 * never replaces a file: two first signatures agree on one key). */
static int key_make(int dfd)
{
    uint8_t key[KEY_BYTES];
    char tmp[64];
    if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key)
        return -errno;
    int fd = util_file_create_tmp(dfd, KEY_FILE, tmp, sizeof tmp, O_WRONLY);
    int rc = fd < 0 ? fd : util_write_all(fd, key, sizeof key);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && linkat(dfd, tmp, dfd, KEY_FILE, 0) < 0 && errno != EEXIST)
        rc = -errno;
    if (fd >= 0)
        unlinkat(dfd, tmp, 0);
    return rc;
}

/* The user's key into KEY (CREATE: made when missing): 0, or -1 with why
 * in ERR. */
static int key_get(int create, uint8_t key[KEY_BYTES], char *err,
                   size_t errlen)
{
    char kdir[4200];
    int dfd = key_dir_open(create, kdir, sizeof kdir);
    if (dfd < 0) {
        snprintf(err, errlen, "no key directory '%s' (%s)%s", kdir,
                 strerror(-dfd), dfd == -EPERM
                 ? ": it must be a directory of yours that no one else can "
                   "write (chmod 700 it)"
                 : ": set XDG_CONFIG_HOME to a directory of yours");
        return -1;
    }
    int rc = key_read(dfd, key);
    if (rc == -ENOENT && create && (rc = key_make(dfd)) == 0)
        rc = key_read(dfd, key);
    close(dfd);
    if (rc < 0)
        snprintf(err, errlen, "%s key '%s/" KEY_FILE "' (%s)%s",
                 rc == -ENOENT ? "no" : "cannot use the", kdir,
                 strerror(-rc), rc == -EPERM
                 ? ": it must be a file of yours only you can read "
                   "(chmod 600 it)"
                 : rc == -EINVAL ? ": it is damaged; remove it (runs signed "
                   "with it must then be signed again: drdb log sign)"
                 : "");
    return rc < 0 ? -1 : 0;
}

/* Reads run DIR's drdb.run (never through a link) into a malloc'd *TEXT
 * of *LEN bytes; *OWNER: its owner. 0, or -1 with why into ERR. */
static int run_read(const char *dir, char **text, size_t *len, uid_t *owner,
                    char *err, size_t errlen)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    int fd = dfd < 0 ? dfd
             : openat(dfd, LOG_RUN_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd >= 0 && fd < 0)
        fd = -errno;
    if (dfd >= 0)
        close(dfd);
    struct stat st;
    int rc = fd < 0 ? fd
             : fstat(fd, &st) < 0 ? -errno
             : !S_ISREG(st.st_mode) ? -EINVAL
             : st.st_size > RUN_TEXT_MAX ? -EFBIG
             : !(*text = malloc((size_t)st.st_size + 1)) ? -ENOMEM
             : 0;
    ssize_t n = rc ? 0 : read(fd, *text, (size_t)st.st_size);
    if (!rc && n != st.st_size) {
        free(*text);
        rc = n < 0 ? -errno : -EIO;
    }
    if (fd >= 0)
        close(fd);
    if (rc) {
        snprintf(err, errlen, "cannot read '%s/%s' (%s)", dir, LOG_RUN_FILE,
                 strerror(-rc));
        return -1;
    }
    *len = (size_t)n;
    *owner = st.st_uid;
    return 0;
}

/* The signature line TEXT ends with: its offset, or LEN when none. */
static size_t sig_at(const char *text, size_t len)
{
    if (len < SIG_LINE || text[len - 1] != '\n')
        return len;
    size_t at = len - SIG_LINE;
    if ((at && text[at - 1] != '\n') ||
        memcmp(text + at, SIG_HEAD, sizeof SIG_HEAD - 1) != 0)
        return len;
    return at;
}

/* The signature line of LEN bytes at TEXT under KEY into LINE. */
static void sig_line(const uint8_t key[KEY_BYTES], const char *text,
                     size_t len, char line[SIG_LINE + 1])
{
    struct hmac_sha256_ctx ctx;
    uint8_t mac[SHA256_DIGEST_SIZE];
    hmac_sha256_set_key(&ctx, KEY_BYTES, key);
    hmac_sha256_update(&ctx, len, (const uint8_t *)text);
    hmac_sha256_digest(&ctx, sizeof mac, mac);
    char *p = line + snprintf(line, SIG_LINE + 1, SIG_HEAD);
    for (size_t i = 0; i < sizeof mac; i++)
        p += snprintf(p, 3, "%02x", mac[i]);
    *p++ = '\n';
    *p = '\0';
}

int launch_run_signed(const char *dir, char *why, size_t len)
{
    char *text, err[4600];
    size_t n;
    uid_t owner;
    uint8_t key[KEY_BYTES];
    if (run_read(dir, &text, &n, &owner, why, len) < 0)
        return 0;
    size_t at = sig_at(text, n);
    int ok = 0;
    if (at == n && (memmem(text, n, "\n" SIG_HEAD, sizeof SIG_HEAD) ||
                    !strncmp(text, SIG_HEAD, n < SIG_LINE ? n : SIG_LINE))) {
        snprintf(why, len, "'%s/%s' was changed after it was signed: its "
                 "signature is not its last line", dir, LOG_RUN_FILE);
    } else if (at == n) {
        snprintf(why, len, "'%s/%s' is not signed: drdb record signs the "
                 "runs it records (not those recorded before it did); if you "
                 "recorded this one, 'drdb log sign %s' signs it", dir, LOG_RUN_FILE, dir);
    } else if (key_get(0, key, err, sizeof err) < 0) {
        snprintf(why, len, "'%s/%s' is signed, but you have %s: another "
                 "user signed it", dir, LOG_RUN_FILE, err);
    } else {
        char line[SIG_LINE + 1];
        sig_line(key, text, at, line);
        ok = memeql_sec(line, text + at, SIG_LINE);
        if (!ok)
            snprintf(why, len, "'%s/%s' is not signed by you: another user "
                     "recorded it, or it was changed since it was recorded",
                     dir, LOG_RUN_FILE);
    }
    free(text);
    return ok;
}

int launch_run_sign(const char *dir, char *err, size_t errlen)
{
    char *text, tmp[64];
    size_t n;
    uid_t owner;
    uint8_t key[KEY_BYTES];
    if (run_read(dir, &text, &n, &owner, err, errlen) < 0)
        return -1;
    if (owner != geteuid()) {
        free(text);
        snprintf(err, errlen, "'%s/%s' is not yours: drdb signs only the "
                 "runs of their owner", dir, LOG_RUN_FILE);
        return -1;
    }
    if (key_get(1, key, err, errlen) < 0) {
        free(text);
        return -1;
    }
    /* Over the description without its old signature (a re-signature),
     * ended by a newline (the signature is a line of its own). */
    size_t at = sig_at(text, n);
    if (at && text[at - 1] != '\n')
        text[at++] = '\n'; /* run_read left room for a NUL */
    char line[SIG_LINE + 1];
    sig_line(key, text, at, line);
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    int fd = dfd < 0 ? dfd : util_file_create_tmp(dfd, LOG_RUN_FILE, tmp,
                                                  sizeof tmp, O_WRONLY);
    int rc = fd < 0 ? fd : util_write_all(fd, text, at);
    if (rc == 0)
        rc = util_write_all(fd, line, SIG_LINE);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0)
        rc = util_file_replace(dfd, tmp, LOG_RUN_FILE);
    if (rc < 0 && fd >= 0)
        unlinkat(dfd, tmp, 0);
    if (dfd >= 0)
        close(dfd);
    free(text);
    if (rc < 0)
        snprintf(err, errlen, "cannot sign '%s/%s' (%s)", dir, LOG_RUN_FILE,
                 strerror(-rc));
    return rc < 0 ? -1 : 0;
}
