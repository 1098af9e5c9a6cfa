/* Small helpers shared by the drdb subcommands: ELF build ids, the files
 * drdb ships. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "drdb-stub.h"
#include "fe.h"

int fe_build_id(const char *path, char *hex, size_t len)
{
    Elf64_Ehdr eh;
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;
    hex[0] = '\0';
    if (fd < 0)
        return -errno;
    if (pread(fd, &eh, sizeof eh, 0) != sizeof eh ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
        goto out;
    for (int i = 0; i < eh.e_phnum && rc < 0; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) !=
                sizeof ph || ph.p_type != PT_NOTE || ph.p_filesz > 65536)
            continue;
        unsigned char *buf = malloc(ph.p_filesz);
        if (!buf || pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) !=
                        (ssize_t)ph.p_filesz) {
            free(buf);
            continue;
        }
        /* Notes: namesz, descsz, type, name (4-aligned), desc (4-aligned). */
        for (size_t off = 0; off + 12 <= ph.p_filesz;) {
            Elf64_Nhdr nh;
            memcpy(&nh, buf + off, sizeof nh);
            size_t name = off + 12, desc = name + ((nh.n_namesz + 3) & ~3u);
            size_t next = desc + ((nh.n_descsz + 3) & ~3u);
            if (next > ph.p_filesz || next <= off)
                break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
                memcmp(buf + name, "GNU", 4) == 0 &&
                2 * (size_t)nh.n_descsz < len) {
                for (size_t k = 0; k < nh.n_descsz; k++)
                    snprintf(hex + 2 * k, 3, "%02x", buf[desc + k]);
                rc = 0;
                break;
            }
            off = next;
        }
        free(buf);
    }
out:
    close(fd);
    return rc;
}

int fe_find_beside(const char *env, const char *const *rel, int nrel,
                   char *out, size_t len)
{
    const char *v = env ? getenv(env) : NULL;
    char exe[PATH_MAX], p[PATH_MAX * 2];
    if (v && *v) {
        snprintf(out, len, "%s", v);
        return access(out, R_OK) == 0 ? 0 : -1;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    for (int i = 0; i < nrel; i++) {
        snprintf(p, sizeof p, "%s/%s", exe, rel[i]);
        if (access(p, R_OK) == 0 && realpath(p, out))
            return 0;
    }
    (void)len;
    return -1;
}

int fe_find_gdb_xstate(char *out, size_t len)
{
    static const char *const rel[] = {"../mi/libdrdb-gdb-xstate.so",
                                      "../lib/drdb/libdrdb-gdb-xstate.so"};
    return fe_find_beside(NULL, rel, 2, out, len);
}

int fe_find_stub(char *out, size_t len)
{
    static const char *const rel[] = {"../replayer/" DRDB_STUB_LIB,
                                      "../lib/drdb/" DRDB_STUB_LIB};
    char lib[PATH_MAX];
    const char *env = getenv(DRDB_ENV_REPLAY_LIB_DIR);
    if (env && *env) {
        snprintf(lib, sizeof lib, "%s/" DRDB_STUB_LIB, env);
        if (access(lib, R_OK) != 0 || !realpath(env, out))
            return -1;
        return 0;
    }
    if (fe_find_beside(NULL, rel, 2, lib, sizeof lib) < 0)
        return -1;
    *strrchr(lib, '/') = '\0';
    snprintf(out, len, "%s", lib);
    return 0;
}

/* Removes from the colon-separated variable NAME every entry that names the
 * replay stub (its directory, or the library itself). */
void fe_env_drop_stub(const char *name)
{
    char stub[PATH_MAX], real[PATH_MAX];
    const char *old = getenv(name);
    if (!old || !*old || fe_find_stub(stub, sizeof stub) < 0)
        return;
    char *copy = strdup(old), *out = calloc(1, strlen(old) + 1);
    if (!copy || !out) {
        free(copy);
        free(out);
        return;
    }
    for (char *save, *e = strtok_r(copy, ":", &save); e;
         e = strtok_r(NULL, ":", &save)) {
        if (realpath(e, real)) {
            char *slash = strrchr(real, '/');
            if (strcmp(real, stub) == 0 ||
                (slash && strncmp(real, stub, (size_t)(slash - real)) == 0 &&
                 strlen(stub) == (size_t)(slash - real) &&
                 strncmp(slash, "/libmpich.so", 12) == 0))
                continue;
        }
        if (*out)
            strcat(out, ":");
        strcat(out, e);
    }
    setenv(name, out, 1);
    free(copy);
    free(out);
}

/* The soft limit of open files before fe_nofile_raise (0: not raised). */
static rlim_t nofile_was;

unsigned long fe_nofile_raise(void)
{
    struct rlimit rl;
    if (nofile_was || getrlimit(RLIMIT_NOFILE, &rl) < 0 ||
        rl.rlim_cur >= rl.rlim_max)
        return (unsigned long)nofile_was;
    rlim_t was = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
        nofile_was = was;
    return (unsigned long)nofile_was;
}

void fe_nofile_restore(void)
{
    struct rlimit rl;
    if (nofile_was && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = nofile_was;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}
