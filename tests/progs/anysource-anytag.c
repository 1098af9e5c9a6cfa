/*
 * anysource-anytag - wildcard receives (the nondeterminism replay must pin).
 *
 * 1. Every rank but 0 sends MSGS messages to rank 0 with tags that cycle
 *    1..3; rank 0 receives them all with MPI_ANY_SOURCE + MPI_ANY_TAG. The
 *    status must name the sender and tag encoded in the payload, and each
 *    sender's messages must arrive in its send order (non-overtaking).
 * 2. Every rank receives from MPI_ANY_SOURCE with a fixed tag while the
 *    others also send a decoy tag it picks up later with a specific source
 *    and MPI_ANY_TAG.
 * 3. Wildcard MPI_Irecvs, all posted first and completed with MPI_Waitall.
 *
 * The arrival order is printed and is part of the checksum, so the output
 * differs from run to run; a replay must reproduce the recorded one. The
 * "summary" lines are deterministic.
 *
 *   mpiexec -n 2..4 ./anysource-anytag [MSGS]   (at least 2 ranks)
 */
#include "progs.h"

/* Payload: {sender, tag, seq, check}. */
static void make(int *m, int src, int dst, int tag, int seq)
{
    m[0] = src;
    m[1] = tag;
    m[2] = seq;
    m[3] = prog_payload(src, dst, tag, seq, 0);
}

static void verify(const int *m, const MPI_Status *st)
{
    CHECK(m[0] == st->MPI_SOURCE && m[1] == st->MPI_TAG,
          "payload says source %d tag %d, status says %d %d", m[0], m[1],
          st->MPI_SOURCE, st->MPI_TAG);
    CHECK(m[3] == prog_payload(m[0], prog_rank, m[1], m[2], 0),
          "corrupt payload from %d", m[0]);
    int c;
    MPI_Get_count(st, MPI_INT, &c);
    CHECK(c == 4, "count %d", c);
}

int main(int argc, char **argv)
{
    int msgs = argc > 1 ? atoi(argv[1]) : 12;
    MPI_Init(&argc, &argv);
    prog_start();
    CHECK(prog_size >= 2 && prog_size <= 4, "needs 2 to 4 ranks");
    int n = prog_size;

    /* 1. ANY_SOURCE + ANY_TAG at rank 0 */
    if (prog_rank == 0) {
        int next[4] = {0, 0, 0, 0};
        char order[512] = "";
        for (int i = 0; i < msgs * (n - 1); i++) {
            int m[4];
            MPI_Status st;
            MPI_OK(MPI_Recv(m, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                            MPI_COMM_WORLD, &st));
            verify(m, &st);
            CHECK(m[2] == next[m[0]], "from %d got seq %d, want %d (overtaken)",
                  m[0], m[2], next[m[0]]);
            CHECK(m[1] == 1 + m[2] % 3, "tag %d for seq %d", m[1], m[2]);
            next[m[0]]++;
            prog_sum(m, sizeof m);
            size_t len = strlen(order);
            if (len < sizeof order - 8)
                snprintf(order + len, sizeof order - len, " %d", m[0]);
        }
        prog_say("arrival order:%s", order);
        for (int s = 1; s < n; s++)
            prog_say("summary: %d messages from %d in order", next[s], s);
    } else {
        for (int seq = 0; seq < msgs; seq++) {
            int m[4];
            make(m, prog_rank, 0, 1 + seq % 3, seq);
            MPI_OK(MPI_Send(m, 4, MPI_INT, 0, m[1], MPI_COMM_WORLD));
        }
    }

    /* Without it rank 0's wildcards could take a phase-2 message from a
     * sender that finished phase 1 early. */
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. ANY_SOURCE with a fixed tag, then a specific source with ANY_TAG.
     * Every rank sends a decoy (tag 66) and then the real one (tag 77) to
     * every other rank; decoys are buffered (MPI_Bsend) so the receive for
     * tag 77 can overtake them legally. */
    {
        int bufsize = n * (4 * (int)sizeof(int) + MPI_BSEND_OVERHEAD) * 2;
        void *bbuf = malloc((size_t)bufsize);
        MPI_OK(MPI_Buffer_attach(bbuf, bufsize));
        for (int p = 0; p < n; p++) {
            if (p == prog_rank)
                continue;
            int m[4];
            make(m, prog_rank, p, 66, 0);
            MPI_OK(MPI_Bsend(m, 4, MPI_INT, p, 66, MPI_COMM_WORLD));
            make(m, prog_rank, p, 77, 1);
            MPI_OK(MPI_Bsend(m, 4, MPI_INT, p, 77, MPI_COMM_WORLD));
        }
        int seen = 0;
        char order[128] = "";
        for (int i = 0; i < n - 1; i++) {
            int m[4];
            MPI_Status st;
            MPI_OK(MPI_Recv(m, 4, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD,
                            &st));
            verify(m, &st);
            CHECK(!(seen & 1 << m[0]), "tag 77 from %d twice", m[0]);
            seen |= 1 << m[0];
            prog_sum(m, sizeof m);
            size_t len = strlen(order);
            snprintf(order + len, sizeof order - len, " %d", m[0]);
        }
        prog_say("tag 77 arrival order:%s", order);
        for (int p = 0; p < n; p++) {
            if (p == prog_rank)
                continue;
            int m[4];
            MPI_Status st;
            MPI_OK(MPI_Recv(m, 4, MPI_INT, p, MPI_ANY_TAG, MPI_COMM_WORLD,
                            &st));
            verify(m, &st);
            CHECK(st.MPI_TAG == 66, "decoy from %d has tag %d", p, st.MPI_TAG);
            prog_sum(m, sizeof m);
        }
        prog_say("summary: tag 77 from all %d peers, then decoys", n - 1);
        void *b;
        int bs;
        MPI_OK(MPI_Buffer_detach(&b, &bs));
        free(b);
    }

    /* 3. wildcard Irecvs completed together */
    {
        enum { PER = 3 };
        int in[PER][4], out[PER][4];
        MPI_Request r[2 * PER];
        MPI_Status st[2 * PER];
        int right = (prog_rank + 1) % n;
        /* Each rank receives PER messages from its left neighbour only;
         * the wildcards still have to pick them in send order. */
        for (int i = 0; i < PER; i++)
            MPI_OK(MPI_Irecv(in[i], 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                             MPI_COMM_WORLD, &r[i]));
        for (int i = 0; i < PER; i++) {
            make(out[i], prog_rank, right, 200 + i, i);
            MPI_OK(MPI_Isend(out[i], 4, MPI_INT, right, 200 + i,
                             MPI_COMM_WORLD, &r[PER + i]));
        }
        MPI_OK(MPI_Waitall(2 * PER, r, st));
        for (int i = 0; i < PER; i++) {
            verify(in[i], &st[i]);
            CHECK(in[i][2] == i, "wildcard Irecv %d got seq %d", i, in[i][2]);
            prog_sum(in[i], sizeof in[i]);
        }
        prog_say("summary: %d wildcard Irecvs in order", PER);
    }
    return prog_finish();
}
