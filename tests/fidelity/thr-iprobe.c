/*
 * thr-iprobe - MPI_THREAD_MULTIPLE: one thread polls with MPI_Iprobe
 * (MPI_ANY_SOURCE, tag 7) and receives what it finds, while another
 * thread of the same rank sends the tag-7 messages to the next rank and
 * runs MPI_Sendrecv exchanges on tag 8 between them. How many polls fail
 * before each message is there differs in every run: the poller prints
 * those counts, and both threads what they received, after the join.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define MSGS 4

static int rank, size;
static char pout[512], sout[512];

static void *poller(void *arg)
{
    (void)arg;
    int len = 0;
    for (int i = 0; i < MSGS; i++) {
        int flag = 0;
        long polls = 0;
        MPI_Status st;
        while (!flag) {
            MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st);
            if (!flag)
                polls++;
        }
        int v;
        MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        len += snprintf(pout + len, sizeof pout - len, " %d after %s polls",
                        v, polls ? (polls > 1 ? "some" : "one") : "no");
        /* The exact count too: the replay must give the same. */
        len += snprintf(pout + len, sizeof pout - len, " (%ld)", polls);
    }
    return NULL;
}

static void *sender(void *arg)
{
    (void)arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size, len = 0;
    for (int i = 0; i < MSGS; i++) {
        usleep(2000);
        int v = rank * 10 + i, a = rank * 100 + i, b;
        MPI_Send(&v, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
        MPI_Sendrecv(&a, 1, MPI_INT, right, 8, &b, 1, MPI_INT, left, 8,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        len += snprintf(sout + len, sizeof sout - len, " %d", b);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pthread_t a, b;
    pthread_create(&a, NULL, poller, NULL);
    pthread_create(&b, NULL, sender, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("rank %d poller:%s\n", rank, pout);
    printf("rank %d sender:%s\n", rank, sout);
    MPI_Finalize();
    return 0;
}
