/*
 * probe - MPI_Probe, MPI_Iprobe, MPI_Mprobe/MPI_Mrecv, MPI_Improbe/MPI_Imrecv.
 *
 * Ring pattern (each rank talks to its right neighbour and hears from its
 * left one), all messages of variable length so the receiver must probe
 * for the size:
 * 1. MPI_Probe (specific source and tag, then MPI_ANY_SOURCE/MPI_ANY_TAG),
 *    MPI_Get_count, allocate, MPI_Recv.
 * 2. Polling: every rank polls MPI_Iprobe (50 us apart) and sends only
 *    after 100 polls, so each makes many (~100-300) unsuccessful probes;
 *    their number varies and is printed as "polls" and is part of the
 *    checksum.
 * 3. MPI_Mprobe + MPI_Mrecv, and MPI_Improbe polling + MPI_Imrecv + MPI_Wait;
 *    a later MPI_Recv with the same tag must not see a matched message.
 * 4. Probes on MPI_PROC_NULL: MPI_Probe/MPI_Iprobe return at once with
 *    source MPI_PROC_NULL, MPI_Mprobe gives MPI_MESSAGE_NO_PROC and
 *    MPI_Mrecv on it gives an empty status.
 *
 *   mpiexec -n 2..4 ./probe       (at least 2 ranks)
 */
#include <time.h>

#include "progs.h"

static int len_of(int src, int seq)
{
    return 1 + (src * 53 + seq * 29) % 200;
}

static void send_msg(int dst, int tag, int seq)
{
    int n = len_of(prog_rank, seq);
    int *buf = malloc((size_t)n * sizeof(int));
    prog_fill(buf, n, prog_rank, dst, tag, seq);
    MPI_OK(MPI_Send(buf, n, MPI_INT, dst, tag, MPI_COMM_WORLD));
    free(buf);
}

/* Receives a probed message (status ST) and verifies it. */
static void recv_probed(const MPI_Status *st, int seq, MPI_Message *msg)
{
    int n;
    MPI_Status rst;
    MPI_OK(MPI_Get_count(st, MPI_INT, &n));
    CHECK(n == len_of(st->MPI_SOURCE, seq), "probed count %d, want %d", n,
          len_of(st->MPI_SOURCE, seq));
    int *buf = malloc((size_t)n * sizeof(int));
    if (msg)
        MPI_OK(MPI_Mrecv(buf, n, MPI_INT, msg, &rst));
    else
        MPI_OK(MPI_Recv(buf, n, MPI_INT, st->MPI_SOURCE, st->MPI_TAG,
                        MPI_COMM_WORLD, &rst));
    CHECK_STATUS(rst, MPI_INT, st->MPI_SOURCE, st->MPI_TAG, n);
    CHECK_PAYLOAD(buf, n, st->MPI_SOURCE, prog_rank, st->MPI_TAG, seq);
    prog_sum(buf, (size_t)n * sizeof(int));
    free(buf);
}

static void sleep_us(int us)
{
    struct timespec ts = {0, us * 1000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    CHECK(prog_size >= 2, "needs at least 2 ranks");
    int left = (prog_rank + prog_size - 1) % prog_size;
    int right = (prog_rank + 1) % prog_size;
    MPI_Status st;

    /* 1. blocking probes; sends are small enough to be buffered eagerly,
     * but to stay MPI-correct rank 0 sends after receiving. */
    for (int step = 0; step < 2; step++) {
        if ((prog_rank == 0) == (step == 0)) {
            send_msg(right, 1, 0);
            send_msg(right, 2, 1);
        } else {
            MPI_OK(MPI_Probe(left, 1, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1, "probe status");
            recv_probed(&st, 0, NULL);
            MPI_OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &st));
            CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 2,
                  "wildcard probe saw %d/%d", st.MPI_SOURCE, st.MPI_TAG);
            recv_probed(&st, 1, NULL);
        }
    }
    prog_say("probe + recv from %d ok", left);

    /* 2. Iprobe polling against a late sender */
    {
        long polls = 0;
        int flag = 0;
        MPI_Request sreq;
        int out[16];
        prog_fill(out, 16, prog_rank, right, 3, 2);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        /* Each rank polls with MPI_ANY_SOURCE and, after 100 polls (at
         * least 5 ms), sends to its right neighbour; 50 us pauses between
         * polls keep the number of probes in the hundreds. The decision
         * counts polls rather than reading a clock: a program whose MPI
         * calls depend on time outside MPI (clock_gettime) cannot be
         * replayed from MPI results alone, and this one must be. */
        int sent = 0;
        while (!flag) {
            if (!sent && polls >= 100) {
                MPI_OK(MPI_Isend(out, 16, MPI_INT, right, 3, MPI_COMM_WORLD,
                                 &sreq));
                sent = 1;
            }
            MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &st));
            if (!flag) {
                polls++;
                sleep_us(50);
            }
        }
        if (!sent)
            MPI_OK(MPI_Isend(out, 16, MPI_INT, right, 3, MPI_COMM_WORLD,
                             &sreq));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 3, "iprobe status");
        int in[16];
        MPI_OK(MPI_Recv(in, 16, MPI_INT, left, 3, MPI_COMM_WORLD, &st));
        CHECK_PAYLOAD(in, 16, left, prog_rank, 3, 2);
        prog_sum(in, sizeof in);
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        prog_sum_i(polls);
        prog_say("iprobe: polls %ld before the message from %d", polls, left);

        /* Nothing left: an Iprobe now must fail. */
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                          &st));
        CHECK(!flag, "iprobe found a message from %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* 3. matched probes: Mprobe/Mrecv, Improbe/Imrecv */
    for (int step = 0; step < 2; step++) {
        if ((prog_rank == 0) == (step == 0)) {
            send_msg(right, 4, 3);
            send_msg(right, 4, 4);
            send_msg(right, 4, 5);
        } else {
            MPI_Message msg;
            MPI_OK(MPI_Mprobe(left, 4, MPI_COMM_WORLD, &msg, &st));
            CHECK(msg != MPI_MESSAGE_NULL, "Mprobe gave MESSAGE_NULL");
            recv_probed(&st, 3, &msg);
            CHECK(msg == MPI_MESSAGE_NULL, "Mrecv did not free the message");

            int flag = 0;
            long polls = 0;
            while (!flag) {
                MPI_OK(MPI_Improbe(MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &flag,
                                   &msg, &st));
                if (!flag) {
                    polls++;
                    sleep_us(20);
                }
            }
            /* The matched message is ours: a plain receive must now get
             * the next one (seq 5), not this one (seq 4). */
            int n5 = len_of(left, 5), *b5 = malloc((size_t)n5 * sizeof(int));
            MPI_Status st5;
            MPI_OK(MPI_Recv(b5, n5, MPI_INT, left, 4, MPI_COMM_WORLD, &st5));
            CHECK_PAYLOAD(b5, n5, left, prog_rank, 4, 5);
            prog_sum(b5, (size_t)n5 * sizeof(int));
            free(b5);

            int n4;
            MPI_OK(MPI_Get_count(&st, MPI_INT, &n4));
            CHECK(n4 == len_of(left, 4), "improbe count %d", n4);
            int *b4 = malloc((size_t)n4 * sizeof(int));
            MPI_Request req;
            MPI_OK(MPI_Imrecv(b4, n4, MPI_INT, &msg, &req));
            MPI_OK(MPI_Wait(&req, &st));
            CHECK_STATUS(st, MPI_INT, left, 4, n4);
            CHECK_PAYLOAD(b4, n4, left, prog_rank, 4, 4);
            prog_sum(b4, (size_t)n4 * sizeof(int));
            free(b4);
            prog_sum_i(polls);
        }
    }
    prog_say("mprobe/mrecv and improbe/imrecv from %d ok", left);

    /* 4. MPI_PROC_NULL */
    {
        int flag = 0, c = -1;
        MPI_Message msg;
        MPI_OK(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &c);
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG &&
                  c == 0, "probe PROC_NULL status %d/%d/%d", st.MPI_SOURCE,
              st.MPI_TAG, c);
        MPI_OK(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st));
        CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL, "iprobe PROC_NULL");
        MPI_OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
        CHECK(msg == MPI_MESSAGE_NO_PROC, "mprobe PROC_NULL message");
        int x = 12345;
        MPI_OK(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
        MPI_Get_count(&st, MPI_INT, &c);
        CHECK(x == 12345 && c == 0 && st.MPI_SOURCE == MPI_PROC_NULL,
              "mrecv NO_PROC");
        prog_say("PROC_NULL probes ok");
    }
    return prog_finish();
}
