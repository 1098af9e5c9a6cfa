/*
 * The datatypes of file views: MPI_File_get_view returns new handles for
 * the view's etype and filetype, which the program never built (MPICH's
 * ROMIO returns copies of its own copies of the types given to
 * MPI_File_set_view, or the predefined handles themselves). The stub keeps,
 * per file handle, a copy of the two types each successful
 * MPI_File_set_view set (the program may free its handles, and MPICH reuse
 * their values, before it asks), and registers the handles
 * MPI_File_get_view returned as duplicates of them. A file without a
 * set_view has the default view (MPI_BYTE, predefined: nothing to
 * register); MPI_File_close forgets the file's view.
 */
#include <string.h>

#include "util.h"
#include "rpl.h"

/* MPICH 4.0.2's ROMIO: MPI_File_set_view keeps MPI_Type_contiguous(1, T)
 * of each derived type T, and MPI_File_get_view returns
 * MPI_Type_contiguous(1, that copy): MPI_Type_get_contents of a returned
 * handle gives ROMIO's copy, whose contents give T (rpl_type_unwrap). */
#define ROMIO_WRAPS 2

struct view {
    MPI_File fh;
    struct rtype *etype, *filetype; /* kept copies (rpl_type_keep) */
};

/* The files with a set view; a handful, searched linearly. */
static struct view *views;
static size_t nviews, capviews;

static struct view *find(MPI_File fh)
{
    for (size_t i = 0; i < nviews; i++)
        if (views[i].fh == fh)
            return &views[i];
    return NULL;
}

static void forget(MPI_File fh)
{
    struct view *v = find(fh);
    if (!v)
        return;
    rpl_type_drop_kept(v->etype);
    rpl_type_drop_kept(v->filetype);
    *v = views[--nviews];
}

/* A copy of TYPE for the view; NULL for a type unknown to the replay,
 * which stops the replay only if MPI_File_get_view returns it. */
static struct rtype *keep(MPI_Datatype type)
{
    struct rtype *t;
    return rpl_type_keep(type, &t) < 0 ? NULL : t;
}

int rpl_MPI_File_set_view(struct args_MPI_File_set_view *a)
{
    int ret = rpl_replay_MPI_File_set_view(a);
    if (ret != MPI_SUCCESS)
        return ret; /* the view stays as it was */
    struct rtype *et = keep(a->etype), *ft = keep(a->filetype);
    forget(a->fh);
    if (util_grow(&views, &capviews, nviews + 1, sizeof *views) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for file views");
    views[nviews++] = (struct view){a->fh, et, ft};
    return ret;
}

/* Registers the handle NEW_ the log says MPI_File_get_view returned. */
static void learn(const struct rtype *kept, MPI_Datatype new_)
{
    int rc = rpl_type_from_kept(kept, new_, ROMIO_WRAPS);
    if (rc < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "cannot rebuild datatype %#x that MPI_File_get_view "
                 "returned (%s): the view's type is unknown to the replay",
                 (unsigned)new_, strerror(-rc));
}

int rpl_MPI_File_get_view(struct args_MPI_File_get_view *a)
{
    int ret = rpl_replay_MPI_File_get_view(a);
    if (ret != MPI_SUCCESS)
        return ret;
    const struct view *v = find(a->fh);
    /* No set_view: the default view's MPI_BYTE (predefined), or a logged
     * derived handle the stub cannot know (learn stops the replay). */
    learn(v ? v->etype : NULL, *a->etype);
    learn(v ? v->filetype : NULL, *a->filetype);
    return ret;
}

int rpl_MPI_File_close(struct args_MPI_File_close *a)
{
    MPI_File fh = *a->fh;
    int ret = rpl_replay_MPI_File_close(a);
    if (ret == MPI_SUCCESS)
        forget(fh);
    return ret;
}
