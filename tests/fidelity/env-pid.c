/*
 * Nondeterminism outside MPI (issue 16, class 8): process ids steering the
 * program. Each rank picks a tag and a peer from its pid and ppid (as
 * programs that name temporary files or seed from getpid() do), tells rank
 * 0 its pid, and prints everything; after MPI_Finalize it prints its pid
 * again (the stream goes on after the log is closed).
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    pid_t early = getpid();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pid_t pid = getpid(), ppid = getppid();
    int tag = (int)(pid % 7);
    printf("rank %d: pid %d (before MPI_Init %d), ppid %d, tag %d\n", rank,
           (int)pid, (int)early, (int)ppid, tag);
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int theirs[2];
            MPI_Status st;
            MPI_Recv(theirs, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &st);
            printf("rank 0: rank %d has pid %d, tag %d\n", st.MPI_SOURCE,
                   theirs[0], st.MPI_TAG);
        }
    } else {
        int mine[2] = {(int)pid, (int)ppid};
        /* An odd pid sends without blocking and tests first. */
        if (pid % 2) {
            MPI_Request req;
            int done;
            MPI_Isend(mine, 2, MPI_INT, 0, tag, MPI_COMM_WORLD, &req);
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (!done)
                MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Send(mine, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    printf("rank %d: pid after MPI_Finalize %d\n", rank, (int)getpid());
    return 0;
}
