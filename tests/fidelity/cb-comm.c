/* Communicator attribute callbacks: copy on MPI_Comm_dup, delete on
 * set_attr overwrite, delete_attr, Comm_free and at MPI_Finalize on
 * MPI_COMM_SELF (reverse order of setting); callbacks that call MPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int me;
static int kv_a, kv_b, kv_c, kv_self1, kv_self2, kv_self3;

static int copy_fn(MPI_Comm comm, int kv, void *extra, void *in, void *out,
                   int *flag)
{
    int r, sz;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &sz);
    printf("rank %d: copy kv=%s val=%ld rank=%d size=%d\n", me,
           (const char *)extra, (long)(intptr_t)in, r, sz);
    *(void **)out = (void *)((intptr_t)in + 100);
    *flag = kv != kv_c; /* kv_c: not copied */
    return MPI_SUCCESS;
}

static int del_fn(MPI_Comm comm, int kv, void *val, void *extra)
{
    int r = -1, flag = 0;
    void *other;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_get_attr(comm, kv_a, &other, &flag);
    printf("rank %d: delete kv=%s val=%ld rank=%d a-set=%d\n", me,
           (const char *)extra, (long)(intptr_t)val, r, flag);
    (void)kv;
    return MPI_SUCCESS;
}

static int self_del(MPI_Comm comm, int kv, void *val, void *extra)
{
    int fin;
    MPI_Finalized(&fin);
    printf("rank %d: self delete %s val=%ld finalized=%d\n", me,
           (const char *)extra, (long)(intptr_t)val, fin);
    if (kv == kv_self2) {
        MPI_Comm_free_keyval(&kv);
        printf("rank %d: freed keyval in its own callback\n", me);
    }
    (void)comm;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Comm d1, d2;
    int flag, v;
    void *p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_create_keyval(copy_fn, del_fn, &kv_a, "a");
    MPI_Comm_create_keyval(copy_fn, del_fn, &kv_b, "b");
    MPI_Comm_create_keyval(copy_fn, del_fn, &kv_c, "c");
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv_a, (void *)(intptr_t)(me + 1));
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv_b, (void *)(intptr_t)(me + 2));
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv_c, (void *)(intptr_t)(me + 3));
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv_b, (void *)(intptr_t)(me + 20));
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_get_attr(d1, kv_b, &p, &flag);
    printf("rank %d: dup b flag=%d val=%ld\n", me, flag, (long)(intptr_t)p);
    MPI_Comm_get_attr(d1, kv_c, &p, &flag);
    printf("rank %d: dup c flag=%d\n", me, flag);
    MPI_Comm_dup(d1, &d2);
    MPI_Comm_delete_attr(d1, kv_a);
    MPI_Comm_free(&d1);
    MPI_Allreduce(&me, &v, 1, MPI_INT, MPI_SUM, d2);
    printf("rank %d: sum %d\n", me, v);
    MPI_Comm_free(&d2);
    /* Predefined callbacks. */
    int kd, kn;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kd, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kn, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kd, (void *)(intptr_t)77);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kn, (void *)(intptr_t)78);
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_get_attr(d1, kd, &p, &flag);
    printf("rank %d: dup-fn flag=%d val=%ld\n", me, flag, (long)(intptr_t)p);
    MPI_Comm_get_attr(d1, kn, &p, &flag);
    printf("rank %d: null-copy flag=%d\n", me, flag);
    MPI_Comm_free(&d1);
    MPI_Comm_free_keyval(&kd);
    MPI_Comm_free_keyval(&kn);
    /* MPI_COMM_SELF: deleted first at MPI_Finalize, in reverse order. */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kv_self1, "s1");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kv_self2, "s2");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kv_self3, "s3");
    MPI_Comm_set_attr(MPI_COMM_SELF, kv_self1, (void *)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv_self2, (void *)2);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv_self3, (void *)3);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv_self1, (void *)11);
    printf("rank %d: finalizing\n", me);
    MPI_Finalize();
    printf("rank %d: done\n", me);
    return 0;
}
