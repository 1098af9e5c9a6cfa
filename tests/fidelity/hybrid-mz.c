/*
 * hybrid-mz - a multi-zone solver in the manner of the NAS multi-zone
 * benchmarks, MPI + OpenMP: each rank owns ZONES zones of a ring of
 * zones; each zone is a 1-D grid relaxed by OpenMP threads (the zones of a
 * rank shared among them); between sweeps, every zone exchanges its two
 * edge values with its neighbour zones, which may be on another rank, and
 * the ranks agree on the residual (MPI_Allreduce).
 *
 *   hybrid-mz funneled     MPI_THREAD_FUNNELED: the master thread alone
 *                          calls MPI (after the parallel sweep, and inside
 *                          the region under omp master)
 *   hybrid-mz serialized   MPI_THREAD_SERIALIZED: each thread posts
 *                          its own zones' sends and receipts, one thread
 *                          at a time (omp critical), in whatever order
 *                          the threads come (it differs between runs);
 *                          one thread waits for them all
 *
 * Prints, per iteration, the residual and a checksum of the rank's zones;
 * everything printed depends on what the rank received, not on the
 * threads' order.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define ZONES 4   /* per rank */
#define POINTS 64 /* per zone, plus two ghost cells */
#define ITERS 6

static double zone[ZONES][POINTS + 2];

/* One Jacobi sweep of zone Z (its ghost cells as they are); its change. */
static double sweep(int z)
{
    double next[POINTS + 2], change = 0;
    for (int i = 1; i <= POINTS; i++)
        next[i] = 0.5 * (zone[z][i - 1] + zone[z][i + 1]);
    for (int i = 1; i <= POINTS; i++) {
        double d = next[i] - zone[z][i];
        change += d * d;
        zone[z][i] = next[i];
    }
    return change;
}

/* Posts zone Z's edges to its neighbour zones on other ranks (tag: the
 * global number of the zone receiving, times 2, plus 0 for its left ghost,
 * 1 for its right) and the receipt of its ghosts from them into REQ (4,
 * MPI_REQUEST_NULL where none); neighbours on this rank are copied by
 * local_ghosts(). */
static void post(int z, int rank, int size, MPI_Request req[4])
{
    int g = rank * ZONES + z, ng = size * ZONES;
    int lg = (g + ng - 1) % ng, rg = (g + 1) % ng;
    int n = 0;
    for (int k = 0; k < 4; k++)
        req[k] = MPI_REQUEST_NULL;
    if (z == 0) { /* left neighbour on the rank before */
        int peer = lg / ZONES;
        MPI_Irecv(&zone[z][0], 1, MPI_DOUBLE, peer, 2 * g, MPI_COMM_WORLD,
                  &req[n++]);
        MPI_Isend(&zone[z][1], 1, MPI_DOUBLE, peer, 2 * lg + 1,
                  MPI_COMM_WORLD, &req[n++]);
    }
    if (z == ZONES - 1) { /* right neighbour on the rank after */
        int peer = rg / ZONES;
        MPI_Irecv(&zone[z][POINTS + 1], 1, MPI_DOUBLE, peer, 2 * g + 1,
                  MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(&zone[z][POINTS], 1, MPI_DOUBLE, peer, 2 * rg,
                  MPI_COMM_WORLD, &req[n++]);
    }
}

/* The ghosts between this rank's own zones. */
static void local_ghosts(void)
{
    for (int z = 0; z + 1 < ZONES; z++) {
        zone[z][POINTS + 1] = zone[z + 1][1];
        zone[z + 1][0] = zone[z][POINTS];
    }
}

int main(int argc, char **argv)
{
    int serialized = argc > 1 && strcmp(argv[1], "serialized") == 0;
    int want = serialized ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d of %d: %s, provided enough %d\n", rank, size,
           serialized ? "serialized" : "funneled", provided >= want);
    for (int z = 0; z < ZONES; z++)
        for (int i = 0; i <= POINTS + 1; i++)
            zone[z][i] = (double)((rank * ZONES + z) * 7 + i % 5);
    for (int it = 0; it < ITERS; it++) {
        double change[ZONES] = {0}, local = 0, total = 0;
        MPI_Request req[ZONES][4];
        MPI_Status st[ZONES * 4];
        if (serialized) {
#pragma omp parallel num_threads(ZONES)
            {
#pragma omp for schedule(static, 1)
                for (int z = 0; z < ZONES; z++) {
#pragma omp critical(mpi)
                    post(z, rank, size, req[z]);
                }
#pragma omp single
                MPI_Waitall(4 * ZONES, &req[0][0], st);
            }
            local_ghosts();
#pragma omp parallel for num_threads(ZONES) schedule(static, 1)
            for (int z = 0; z < ZONES; z++)
                change[z] = sweep(z);
        } else {
#pragma omp parallel num_threads(ZONES)
            {
#pragma omp master
                {
                    for (int z = 0; z < ZONES; z++)
                        post(z, rank, size, req[z]);
                    MPI_Waitall(4 * ZONES, &req[0][0], st);
                }
#pragma omp barrier
#pragma omp single
                local_ghosts();
#pragma omp for schedule(static, 1)
                for (int z = 0; z < ZONES; z++)
                    change[z] = sweep(z);
            }
        }
        for (int z = 0; z < ZONES; z++) /* in order: the same sum */
            local += change[z];
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double sum = 0;
        for (int z = 0; z < ZONES; z++)
            for (int i = 1; i <= POINTS; i++)
                sum += zone[z][i] * (i + z);
        printf("rank %d iteration %d: residual %.9e checksum %.9e\n", rank,
               it, total, sum);
    }
    MPI_Finalize();
    return 0;
}
