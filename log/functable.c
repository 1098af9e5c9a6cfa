/* Lookups in the generated MPI function table. */
#include <stddef.h>
#include <strings.h>

#include "log.h"

const struct log_func_desc *log_func_by_id(int id)
{
    int lo = 0, hi = log_funcs_count - 1;

    /* Ids are assigned 1, 2, 3, ... (the spec is append-only): id N is
     * usually at N - 1, which every replayed call and every decoded event
     * asks for. */
    if (id >= 1 && id <= log_funcs_count && log_funcs[id - 1].id == id)
        return &log_funcs[id - 1];
    /* log_funcs[] is sorted by id (the generator enforces it). */
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (log_funcs[mid].id == id)
            return &log_funcs[mid];
        if (log_funcs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

const struct log_func_desc *log_func_by_name(const char *name)
{
    if (name[0] == 'P' || name[0] == 'p')
        name++;
    for (int i = 0; i < log_funcs_count; i++)
        if (strcasecmp(log_funcs[i].name, name) == 0)
            return &log_funcs[i];
    return NULL;
}

const char *log_func_name(int id)
{
    const struct log_func_desc *fn = log_func_by_id(id);
    return fn ? fn->name : "?";
}
