/*
 * Which MPI a program and a launcher belong to (launch.h): drdb's recorder
 * and replay stub are built for MPICH's ABI (libmpich.so.12). A program of
 * another MPI (Open MPI's libmpi.so.40, as Debian builds some packages) is
 * crashed by the recorder in MPI_Init (it calls Open MPI's functions with
 * MPICH's handles), and its replay would run Open MPI itself; Debian's
 * alternatives may also make `mpiexec` Open MPI's over an MPICH program.
 * So both are looked at before anything starts, and refused in one line.
 *
 * The program's libraries are found as ld.so finds them (ld.so(8)): its
 * DT_NEEDED entries, recursively, in DT_RPATH (when there is no
 * DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, then the system's directories
 * (those of /etc/ld.so.conf.d, libc's own, the defaults); read with
 * libelf. A library not found is still named by its DT_NEEDED entry.
 */
#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "con-complete-int.h"
#include "fe.h"
#include "launch.h"

/* The sonames that name an MPI: another MPI's refuses the program. */
static const struct {
    const char *prefix, *mpi;
    int other;
} mpi_libs[] = {
    {"libmpich.so.12", "MPICH", 0},
    {"libmpi.so.12", "MPICH", 0}, /* MPICH's own alias; Intel MPI, MVAPICH */
    {"libmpi.so.", "Open MPI", 1}, /* 40 (Open MPI 3 to 5), 20 (2.x) */
    {"libopen-pal.so.", "Open MPI", 1},
    {"libopen-rte.so.", "Open MPI", 1},
};

#define MPI_DEPS_MAX 64
#define MPI_OBJS_MAX 512

/* What one ELF object needs, from its dynamic section. */
struct elf_deps {
    char *needed[MPI_DEPS_MAX];
    int n;
    char rpath[PATH_MAX], runpath[PATH_MAX];
    int program; /* an executable: ET_EXEC, or ET_DYN with PT_INTERP */
};

static void elf_deps_release(struct elf_deps *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->needed[i]);
    d->n = 0;
}

/* PATH's dynamic section into D: 0, or -1 when it is not ELF. */
static int elf_deps_read(const char *path, struct elf_deps *d)
{
    memset(d, 0, sizeof *d);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        if (elf)
            elf_end(elf);
        close(fd);
        return -1;
    }
    size_t nph = 0;
    elf_getphdrnum(elf, &nph);
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
            d->program = 1;
    }
    d->program |= eh.e_type == ET_EXEC;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; data && i < n; i++) {
            GElf_Dyn dyn;
            const char *s = gelf_getdyn(data, (int)i, &dyn)
                                ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)
                                : NULL;
            if (!s)
                continue;
            if (dyn.d_tag == DT_NEEDED && d->n < MPI_DEPS_MAX)
                d->needed[d->n] = strdup(s), d->n += !!d->needed[d->n];
            else if (dyn.d_tag == DT_RPATH)
                snprintf(d->rpath, sizeof d->rpath, "%s", s);
            else if (dyn.d_tag == DT_RUNPATH)
                snprintf(d->runpath, sizeof d->runpath, "%s", s);
        }
    }
    elf_end(elf);
    close(fd);
    return 0;
}

/* dl_iterate_phdr(): the directory of drdb's own libc into DATA. */
static int libc_dir(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *slash = strrchr(info->dlpi_name, '/');
    if (!slash || strncmp(slash + 1, "libc.so.", 8) != 0)
        return 0;
    snprintf(data, PATH_MAX, "%.*s", (int)(slash - info->dlpi_name),
             info->dlpi_name);
    return 1;
}

/* The system's directories, as ld.so.cache is built from them, into OUT
 * (':'-separated). */
static void system_dirs(char *out, size_t len)
{
    char libc[PATH_MAX] = "", line[PATH_MAX];
    glob_t g;
    dl_iterate_phdr(libc_dir, libc);
    snprintf(out, len, "%s", libc);
    if (glob("/etc/ld.so.conf.d/*.conf", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            FILE *f = fopen(g.gl_pathv[i], "re");
            while (f && fgets(line, sizeof line, f))
                if (line[0] == '/' && strlen(out) + strlen(line) + 2 < len) {
                    line[strcspn(line, " \t\n")] = '\0';
                    strcat(out, ":");
                    strcat(out, line);
                }
            if (f)
                fclose(f);
        }
        globfree(&g);
    }
    if (strlen(out) + 64 < len)
        strcat(out, ":/lib:/usr/lib:/lib64:/usr/lib64");
}

/* Library NAME, needed by the object at FROM (D its dependencies, EXE the
 * program's), found as ld.so would into OUT: 0, or -1. */
static int find_lib(const char *name, const char *from,
                    const struct elf_deps *d, const struct elf_deps *exe,
                    const char *sys, char *out, size_t len)
{
    char origin[PATH_MAX];
    snprintf(origin, sizeof origin, "%s", from);
    const char *dir = dirname(origin);
    const char *llp = getenv("LD_LIBRARY_PATH");
    if (strchr(name, '/'))
        return snprintf(out, len, "%s", name) < (int)len &&
               access(out, R_OK) == 0 ? 0 : -1;
    if (!d->runpath[0] &&
        (con_names_find_lib(d->rpath, dir, name, out, len) == 0 ||
         con_names_find_lib(exe->rpath, dir, name, out, len) == 0))
        return 0;
    return con_names_find_lib(llp, dir, name, out, len) == 0 ||
                   con_names_find_lib(d->runpath, dir, name, out, len) == 0 ||
                   con_names_find_lib(sys, dir, name, out, len) == 0
               ? 0 : -1;
}

/* The entry of mpi_libs[] SONAME is, or -1. */
static int mpi_lib(const char *soname)
{
    for (size_t i = 0; i < sizeof mpi_libs / sizeof mpi_libs[0]; i++)
        if (!strncmp(soname, mpi_libs[i].prefix, strlen(mpi_libs[i].prefix)))
            return (int)i;
    return -1;
}

int launch_mpi_of(const char *exe, struct launch_mpi *m)
{
    static char sys[8192];
    char *objs[MPI_OBJS_MAX], path[PATH_MAX];
    int nobj = 0, found = 0;
    struct elf_deps top;
    memset(m, 0, sizeof *m);
    if (elf_deps_read(exe, &top) < 0)
        return -1;
    m->program = top.program;
    if (!sys[0])
        system_dirs(sys, sizeof sys);
    objs[nobj++] = strdup(exe);
    /* Breadth first, each object once, as ld.so loads them. */
    for (int i = 0; i < nobj && objs[i] && !found; i++) {
        struct elf_deps d;
        if (i && elf_deps_read(objs[i], &d) < 0)
            continue;
        struct elf_deps *dp = i ? &d : &top;
        for (int k = 0; k < dp->n && !found; k++) {
            int e = mpi_lib(dp->needed[k]);
            if (e >= 0 && (mpi_libs[e].other || !m->mpi)) {
                m->mpi = mpi_libs[e].mpi;
                m->other = mpi_libs[e].other;
                snprintf(m->lib, sizeof m->lib, "%s", dp->needed[k]);
                snprintf(m->by, sizeof m->by, "%s", i ? objs[i] : "");
                found = m->other;
            }
            if (find_lib(dp->needed[k], objs[i], dp, &top, sys, path,
                         sizeof path) < 0)
                continue;
            int seen = 0;
            for (int j = 0; j < nobj && !seen; j++)
                seen = objs[j] && !strcmp(objs[j], path);
            if (!seen && nobj < MPI_OBJS_MAX)
                objs[nobj++] = strdup(path);
        }
        if (i)
            elf_deps_release(&d);
    }
    elf_deps_release(&top);
    for (int i = 0; i < nobj; i++)
        free(objs[i]);
    return 0;
}

/* The first line of `LAUNCHER --version` that names an MPI into LINE
 * (within 10 s): 0, or -1. */
static int version_line(const char *launcher, char *line, size_t len)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(p[1], 1);
        dup2(p[1], 2);
        alarm(10);
        execlp(launcher, launcher, "--version", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    FILE *f = pid > 0 ? fdopen(p[0], "r") : NULL;
    int rc = -1;
    char buf[1024];
    while (f && fgets(buf, sizeof buf, f))
        if (rc < 0 && (strstr(buf, "Open MPI") || strstr(buf, "OpenRTE") ||
                       strstr(buf, "PRRTE") || strstr(buf, "HYDRA"))) {
            buf[strcspn(buf, "\n")] = '\0';
            snprintf(line, len, "%s", buf);
            rc = 0;
        }
    if (f)
        fclose(f);
    else
        close(p[0]);
    if (pid > 0) {
        kill(pid, SIGKILL); /* (a launcher that kept its output open) */
        waitpid(pid, NULL, 0);
    }
    return rc;
}

/* Where execvp() finds PROG, into OUT: 0, or -1. */
static int in_path(const char *prog, char *out, size_t len)
{
    if (strchr(prog, '/'))
        return snprintf(out, len, "%s", prog) < (int)len ? 0 : -1;
    const char *path = getenv("PATH");
    for (const char *p = path && *path ? path : "/usr/bin:/bin"; p;) {
        size_t n = strcspn(p, ":");
        struct stat st;
        snprintf(out, len, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
            access(out, X_OK) == 0)
            return 0;
        p = p[n] ? p + n + 1 : NULL;
    }
    return -1;
}

const char *launch_mpi_launcher(const char *launcher, char *line, size_t len)
{
    char real[PATH_MAX], found[PATH_MAX], *base;
    const char *name = strrchr(launcher, '/');
    name = name ? name + 1 : launcher;
    /* Only MPI launchers are asked (srun, a wrapper script: not). */
    if (strncmp(name, "mpiexec", 7) && strncmp(name, "mpirun", 6) &&
        strcmp(name, "orterun") && strcmp(name, "prterun"))
        return NULL;
    /* Debian's alternatives: /usr/bin/mpiexec -> mpiexec.openmpi ->
     * orterun, or mpiexec.mpich -> mpiexec.hydra. */
    if (in_path(launcher, found, sizeof found) < 0)
        return NULL;
    if (realpath(found, real) && (base = strrchr(real, '/'))) {
        snprintf(line, len, "'%s' is %s", launcher, real);
        if (strstr(base, "openmpi") || !strcmp(base + 1, "orterun") ||
            !strcmp(base + 1, "prterun"))
            return "Open MPI";
        if (strstr(base, "mpich") || strstr(base, "hydra"))
            return "MPICH";
    }
    char ver[1024];
    if (version_line(found, ver, sizeof ver) < 0)
        return NULL;
    snprintf(line, len, "%s --version: \"%s\"", launcher, ver);
    return strstr(ver, "HYDRA") ? "MPICH" : "Open MPI";
}

int launch_mpi_refuse(const char *exe, const char *does)
{
    struct launch_mpi m;
    if (launch_mpi_of(exe, &m) < 0 || !m.other)
        return 0;
    fe_error("'%s' is linked against %s (%s%s%s): drdb %s MPICH programs "
             "(libmpich.so.12); rebuild it with MPICH (mpicc.mpich)", exe,
             m.mpi, m.lib, m.by[0] ? ", needed by " : "", m.by, does);
    return -1;
}

int launch_mpi_check_launch(char **argv)
{
    struct launch_mpi m;
    char path[PATH_MAX], line[PATH_MAX + 600];
    int i;
    /* The program: the first word that is an executable needing an MPI
     * library (the launcher itself when the program runs alone; mpiexec,
     * its options and a wrapper such as valgrind are passed over). */
    for (i = 0; argv[i]; i++)
        if (in_path(argv[i], path, sizeof path) == 0 &&
            launch_mpi_of(path, &m) == 0 && m.program && m.mpi)
            break;
    if (!argv[i])
        return 0;
    if (m.other)
        return launch_mpi_refuse(path, "records");
    const char *l = i ? launch_mpi_launcher(argv[0], line, sizeof line) : NULL;
    if (!l || !strcmp(l, m.mpi))
        return 0;
    fe_error("'%s' is %s's launcher (%s) but '%s' is an %s program (%s): "
             "launch it with MPICH's: drdb record -- mpiexec.mpich ...",
             argv[0], l, line, argv[i], m.mpi, m.lib);
    return -1;
}
