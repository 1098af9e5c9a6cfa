/* The event index's matching rules (events/) on synthetic runs written
 * with log_writer: wildcard resolution, non-overtaking per tag, PROC_NULL,
 * a cancelled receive, communicator handles freed and reused, an
 * intercommunicator, persistent requests started by MPI_Startall, and
 * collective instances. Every expectation follows from what the scripted
 * calls must have done under MPI's rules. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "events.h"
#include "log-codec.h"
#include "log-writer.h"
#include "log.h"

#define WORLD 0x44000000u
#define INT_T 0x4c000405u
#define SUM 0x58000003u
#define ANY (-2)
#define ANY_TAG (-1)
#define PROC_NULL (-1)

#include "ev-write.h"

/* MPI_Send / MPI_Recv shorthands (4-byte ints). */
static uint64_t send(int r, int dest, int tag, uint32_t comm)
{
    uint64_t n = call(r, LOG_FN_MPI_Send, I(1), I(INT_T), I(dest), I(tag),
                      I(comm));
    end();
    return n;
}

static uint64_t recv(int r, int source, int tag, uint32_t comm, int st_src,
                     int st_tag)
{
    uint64_t n = call(r, LOG_FN_MPI_Recv, I(1), I(INT_T), I(source),
                      I(tag), I(comm));
    f_status(6, 0, st_src, st_tag, st_src == PROC_NULL ? 0 : 4, 0);
    end();
    return n;
}

/* ---- reading it back ---------------------------------------------------- */

static struct ev_run x;

static void open_run(void)
{
    char err[300];
    REQUIRE(ev_open(&x, run, err, sizeof err) == 0);
    REQUIRE(ev_build(&x, err, sizeof err) == 0);
}

/* The single partner of R:N: its rank and event (-1 -1 when none). */
static void partner(int r, uint64_t n, int *pr, int64_t *pn)
{
    struct ev_ref ref[4];
    char err[300];
    int k = ev_partners(&x, r, n, ref, 4, err, sizeof err);
    *pr = -1;
    *pn = -1;
    CHECK_MSG(k <= 1, "rank %d event %llu has %d partners", r,
              (unsigned long long)n, k);
    if (k == 1) {
        *pr = ref[0].rank;
        *pn = (int64_t)ref[0].event;
    }
}

#define CHECK_PARTNER(r, n, wr, wn)                                          \
    do {                                                                     \
        int pr_;                                                             \
        int64_t pn_;                                                         \
        partner(r, n, &pr_, &pn_);                                           \
        CHECK_MSG(pr_ == (wr) && pn_ == (int64_t)(wn),                       \
                  "%d:%llu matched %d:%lld, want %d:%lld", r,               \
                  (unsigned long long)(n), pr_, (long long)pn_, (int)(wr),   \
                  (long long)(wn));                                          \
    } while (0)

/* ---- the rules ---------------------------------------------------------- */

/* Wildcards are resolved by the recorded status: rank 0 takes rank 2's
 * message first, then rank 1's tag-6 message, overtaking rank 1's tag-5
 * one (legal: another tag), then that one. */
TEST(any_source_any_tag)
{
    run_begin(3);
    uint64_t s1a = send(1, 0, 5, WORLD), s1b = send(1, 0, 6, WORLD);
    uint64_t s2 = send(2, 0, 5, WORLD);
    uint64_t r1 = recv(0, ANY, ANY_TAG, WORLD, 2, 5);
    uint64_t r2 = recv(0, ANY, ANY_TAG, WORLD, 1, 6);
    uint64_t r3 = recv(0, 1, ANY_TAG, WORLD, 1, 5);
    run_end(3);
    open_run();
    CHECK_PARTNER(0, r1, 2, s2);
    CHECK_PARTNER(0, r2, 1, s1b);
    CHECK_PARTNER(0, r3, 1, s1a);
    CHECK_PARTNER(1, s1a, 0, r3);
    CHECK_PARTNER(2, s2, 0, r1);
    struct ev_stats st;
    ev_stats(&x, &st);
    CHECK_INT_EQ(st.matched, 3);
    CHECK_INT_EQ(st.unmatched_sends, 0);
    CHECK_INT_EQ(st.unmatched_recvs, 0);
    ev_close(&x);
}

/* Non-overtaking holds per tag: with two tags interleaved, the k-th
 * receive of a tag gets the k-th send of that tag, whatever the order the
 * tags are received in; an Irecv completed later by MPI_Wait counts where
 * it was posted. */
TEST(non_overtaking_two_tags)
{
    run_begin(2);
    uint64_t a = send(1, 0, 1, WORLD), b = send(1, 0, 2, WORLD);
    uint64_t c = send(1, 0, 1, WORLD), d = send(1, 0, 2, WORLD);
    uint64_t ir = call(0, LOG_FN_MPI_Irecv, I(1), I(INT_T), I(1), I(2),
                       I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, 0xac000003);
    end();
    uint64_t rb = recv(0, 1, 2, WORLD, 1, 2);      /* posted after ir */
    uint64_t ra = recv(0, 1, ANY_TAG, WORLD, 1, 1);
    uint64_t rc = recv(0, 1, 1, WORLD, 1, 1);
    uint64_t wt = call(0, LOG_FN_MPI_Wait);
    f_handle(0, LOG_F_REQUEST, 0, 0xac000003);
    f_status(0, 0, 1, 2, 4, 0);
    end();
    run_end(2);
    open_run();
    CHECK_PARTNER(0, ir, 1, b); /* the Irecv came first for tag 2 */
    CHECK_PARTNER(0, rb, 1, d);
    CHECK_PARTNER(0, ra, 1, a);
    CHECK_PARTNER(0, rc, 1, c);
    CHECK_PARTNER(0, wt, 1, b); /* the Wait's message */
    struct ev_use u[4];
    CHECK_INT_EQ(ev_uses(&x, 0, wt, u, 4), 1);
    CHECK_INT_EQ(u[0].role, EV_DONE);
    struct ev_msg m_buf;
    const struct ev_msg *m = ev_msg_at(&x, u[0].i, &m_buf);
    CHECK_INT_EQ(m->event, ir);
    CHECK_INT_EQ(m->done, wt);
    ev_close(&x);
}

/* MPI_PROC_NULL peers match nothing, and take no place in a channel. */
TEST(proc_null)
{
    run_begin(2);
    uint64_t s0 = send(0, PROC_NULL, 3, WORLD);
    uint64_t s1 = send(0, 1, 3, WORLD);
    uint64_t r0 = recv(1, PROC_NULL, 3, WORLD, PROC_NULL, ANY_TAG);
    uint64_t r1 = recv(1, 0, 3, WORLD, 0, 3);
    run_end(2);
    open_run();
    struct ev_ref ref[2];
    char err[200];
    CHECK_INT_EQ(ev_partners(&x, 0, s0, ref, 2, err, sizeof err), 0);
    CHECK_INT_EQ(ev_partners(&x, 1, r0, ref, 2, err, sizeof err), 0);
    CHECK_PARTNER(0, s1, 1, r1);
    struct ev_use u;
    REQUIRE(ev_uses(&x, 1, r0, &u, 1) == 1);
    CHECK(ev_msg_at(&x, u.i, &(struct ev_msg){0})->flags & EV_M_PROC_NULL);
    ev_close(&x);
}

/* A cancelled receive matches nothing; the request handle it had is
 * reused by the next Irecv, which gets the one message. */
TEST(cancelled_receive)
{
    run_begin(2);
    uint64_t s = send(1, 0, 9, WORLD);
    uint64_t r1 = call(0, LOG_FN_MPI_Irecv, I(1), I(INT_T), I(1), I(9),
                       I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, 0xac000001);
    end();
    call(0, LOG_FN_MPI_Cancel);
    f_handle(0, LOG_F_HANDLE, 0, 0xac000001);
    end();
    uint64_t w1 = call(0, LOG_FN_MPI_Wait);
    f_handle(0, LOG_F_REQUEST, 0, 0xac000001);
    f_status(0, 0, 12345, 777, 0, 1); /* MPI leaves source/tag alone */
    end();
    uint64_t r2 = call(0, LOG_FN_MPI_Irecv, I(1), I(INT_T), I(ANY), I(9),
                       I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, 0xac000001);
    end();
    uint64_t w2 = call(0, LOG_FN_MPI_Wait);
    f_handle(0, LOG_F_REQUEST, 0, 0xac000001);
    f_status(0, 0, 1, 9, 4, 0);
    end();
    run_end(2);
    open_run();
    struct ev_ref ref[2];
    char err[200];
    CHECK_INT_EQ(ev_partners(&x, 0, r1, ref, 2, err, sizeof err), 0);
    CHECK_INT_EQ(ev_partners(&x, 0, w1, ref, 2, err, sizeof err), 0);
    CHECK_PARTNER(0, r2, 1, s);
    CHECK_PARTNER(0, w2, 1, s);
    CHECK_PARTNER(1, s, 0, r2);
    struct ev_use u;
    REQUIRE(ev_uses(&x, 0, r1, &u, 1) == 1);
    CHECK(ev_msg_at(&x, u.i, &(struct ev_msg){0})->flags & EV_M_CANCELLED);
    ev_close(&x);
}

/* MPI_Comm_split of a 3-rank world: rank LONE alone, the other two
 * together; the new communicator's handle at each rank from H (rank 2's
 * from H2). */
static void split3(int lone, uint32_t h, uint32_t h2)
{
    for (int r = 0; r < 3; r++) {
        call(r, LOG_FN_MPI_Comm_split, I(WORLD), I(r == lone), I(0));
        f_handle(3, LOG_F_HANDLE, 0, r == 2 ? h2 : h);
        if (r == lone)
            f_members(0, 1, lone);
        else
            f_members(0, 2, lone == 0 ? 1 : 0, lone == 2 ? 1 : 2);
        end();
    }
}

/* Communicators: a split handle freed and reused for another group is
 * another communicator; messages on each go to the right world ranks; a
 * collective on each is one instance of its own members. */
TEST(comm_handle_reused)
{
    const uint32_t h0 = 0x84000000, h1 = 0x84000001;
    run_begin(3);
    split3(2, h0, h0); /* split 1: {0,1} and {2}, all on handle h0 */
    uint64_t s1 = send(1, 0, 3, h0);                /* to world 0 */
    uint64_t r1 = recv(0, ANY, 3, h0, 1, 3);        /* from comm rank 1 */
    uint64_t a0 = call(0, LOG_FN_MPI_Allreduce, I(1), I(INT_T), I(SUM),
                       I(h0));
    end();
    uint64_t a1 = call(1, LOG_FN_MPI_Allreduce, I(1), I(INT_T), I(SUM),
                       I(h0));
    end();
    for (int r = 0; r < 2; r++) {
        call(r, LOG_FN_MPI_Comm_free);
        f_handle(0, LOG_F_HANDLE, 0, 0x04000000);
        end();
    }
    /* Split 2: {0,2} (h0 again at rank 0, h1 at rank 2) and {1}. */
    split3(1, h0, h1);
    uint64_t s2 = send(2, 0, 3, h1);                /* world 0 */
    uint64_t r2 = recv(0, ANY, 3, h0, 1, 3);        /* comm rank 1 = 2 */
    uint64_t b0 = call(0, LOG_FN_MPI_Allreduce, I(1), I(INT_T), I(SUM),
                       I(h0));
    end();
    uint64_t b2 = call(2, LOG_FN_MPI_Allreduce, I(1), I(INT_T), I(SUM),
                       I(h1));
    end();
    run_end(3);
    open_run();
    CHECK_PARTNER(0, r1, 1, s1);
    CHECK_PARTNER(0, r2, 2, s2);
    CHECK_PARTNER(2, s2, 0, r2);
    int side;
    int c1 = ev_comm_of(&x, 0, r1, h0, &side);
    int c2 = ev_comm_of(&x, 0, r2, h0, &side);
    CHECK(c1 > 0 && c2 > 0 && c1 != c2);
    CHECK_INT_EQ(ev_comm_of(&x, 1, s1, h0, &side), c1);
    CHECK_INT_EQ(ev_comm_of(&x, 2, s2, h1, &side), c2);
    CHECK_INT_EQ(ev_comm_of(&x, 2, s2, h0, &side),
                 ev_comm_of(&x, 2, 0, h0, &side)); /* rank 2's {2} */
    const struct ev_comm *cm = ev_comm_at(&x, c2);
    REQUIRE(cm);
    CHECK(cm->na == 2 && cm->a[0] == 0 && cm->a[1] == 2 && !cm->inter);
    /* Collectives: one instance of each communicator, its members'. */
    struct ev_ref ref[4];
    char err[200];
    CHECK_INT_EQ(ev_partners(&x, 0, a0, ref, 4, err, sizeof err), 2);
    CHECK(ref[0].rank == 0 && ref[0].event == a0 && ref[1].rank == 1 &&
          ref[1].event == a1 && ref[0].comm == c1);
    CHECK_INT_EQ(ev_partners(&x, 2, b2, ref, 4, err, sizeof err), 2);
    CHECK(ref[0].rank == 0 && ref[0].event == b0 && ref[1].rank == 2 &&
          ref[1].event == b2 && ref[0].comm == c2 && ref[0].instance == 0);
    ev_close(&x);
}

/* An intercommunicator is one communicator at both groups (their local
 * and remote groups swapped); ranks in the remote group map to world. */
TEST(intercommunicator)
{
    const uint32_t hi = 0x84000004;
    run_begin(3);
    /* groups {0} and {1, 2} */
    call(0, LOG_FN_MPI_Intercomm_create, I(0x44000001), I(0), I(WORLD),
         I(1), I(7));
    f_handle(5, LOG_F_HANDLE, 0, hi);
    f_members(0, 1, 0);
    f_members(1, 2, 1, 2);
    end();
    for (int r = 1; r < 3; r++) {
        call(r, LOG_FN_MPI_Intercomm_create, I(0x84000000), I(0), I(WORLD),
             I(0), I(7));
        f_handle(5, LOG_F_HANDLE, 0, hi);
        f_members(0, 2, 1, 2);
        f_members(1, 1, 0);
        end();
    }
    uint64_t s = send(0, 1, 4, hi);              /* remote rank 1 = 2 */
    uint64_t r = recv(2, 0, 4, hi, 0, 4);        /* remote rank 0 = 0 */
    uint64_t s1 = send(1, 0, 4, hi);             /* to world 0 */
    uint64_t r1 = recv(0, ANY, 4, hi, 0, 4);     /* remote rank 0 = 1 */
    run_end(3);
    open_run();
    CHECK_PARTNER(0, s, 2, r);
    CHECK_PARTNER(0, r1, 1, s1);
    int side0, side2;
    CHECK_INT_EQ(ev_comm_of(&x, 0, s, hi, &side0),
                 ev_comm_of(&x, 2, r, hi, &side2));
    CHECK(side0 != side2);
    ev_close(&x);
}

/* Persistent requests: each start is an instance; MPI_Startall's requests
 * are found by their completions; a Wait on an inactive request is none. */
TEST(persistent_startall)
{
    run_begin(2);
    const uint32_t hs = 0xac000010, hr = 0xac000011;
    call(0, LOG_FN_MPI_Send_init, I(1), I(INT_T), I(1), I(8), I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, hs);
    end();
    call(1, LOG_FN_MPI_Recv_init, I(1), I(INT_T), I(ANY), I(8), I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, hr);
    end();
    uint64_t st[3], rt[3];
    for (int k = 0; k < 3; k++) {
        st[k] = call(0, LOG_FN_MPI_Startall, I(1));
        end();
        call(0, LOG_FN_MPI_Waitall, I(1));
        f_handle(1, LOG_F_REQUEST, 0, hs);
        end();
        if (k < 2) {
            rt[k] = call(1, LOG_FN_MPI_Start);
            f_handle(0, LOG_F_HANDLE, 0, hr);
            end();
        } else {
            rt[k] = call(1, LOG_FN_MPI_Startall, I(1));
            end();
        }
        call(1, LOG_FN_MPI_Wait);
        f_handle(0, LOG_F_REQUEST, 0, hr);
        f_status(0, 0, 0, 8, 4, 0);
        end();
    }
    /* A Startall'ed receive is posted at the Startall: before a blocking
     * receive that completes first, so it takes the earlier message. */
    uint64_t sa = send(0, 1, 8, WORLD), sb = send(0, 1, 8, WORLD);
    uint64_t late = call(1, LOG_FN_MPI_Startall, I(1));
    end();
    uint64_t rb = recv(1, 0, 8, WORLD, 0, 8);
    call(1, LOG_FN_MPI_Wait);
    f_handle(0, LOG_F_REQUEST, 0, hr);
    f_status(0, 0, 0, 8, 4, 0);
    end();
    /* inactive: an empty status, and nothing started */
    uint64_t idle = call(1, LOG_FN_MPI_Wait);
    f_handle(0, LOG_F_REQUEST, 0, hr);
    f_status(0, 0, ANY, ANY_TAG, 0, 0);
    end();
    run_end(2);
    open_run();
    for (int k = 0; k < 3; k++) {
        CHECK_PARTNER(0, st[k], 1, rt[k]);
        CHECK_PARTNER(1, rt[k], 0, st[k]);
    }
    CHECK_PARTNER(1, late, 0, sa);
    CHECK_PARTNER(1, rb, 0, sb);
    struct ev_use u;
    CHECK_INT_EQ(ev_uses(&x, 1, idle, &u, 1), 0);
    struct ev_stats s;
    ev_stats(&x, &s);
    CHECK_INT_EQ(s.sends, 5);
    CHECK_INT_EQ(s.recvs, 5);
    CHECK_INT_EQ(s.matched, 5);
    ev_close(&x);
}

/* A message matched by MPI_Mprobe is taken at the probe: a receive after
 * the probe but before the MPI_Mrecv gets the next one. */
TEST(mprobe)
{
    run_begin(2);
    uint64_t a = send(1, 0, 4, WORLD), b = send(1, 0, 4, WORLD);
    uint64_t p = call(0, LOG_FN_MPI_Mprobe, I(1), I(4), I(WORLD));
    f_handle(3, LOG_F_HANDLE, 0, 0xac000001);
    f_status(4, 0, 1, 4, 4, 0);
    end();
    uint64_t r = recv(0, 1, 4, WORLD, 1, 4);
    uint64_t m = call(0, LOG_FN_MPI_Mrecv, I(1), I(INT_T));
    f_handle(3, LOG_F_HANDLE, 0, 0x2c000000);
    f_status(4, 0, 1, 4, 4, 0);
    end();
    run_end(2);
    open_run();
    CHECK_PARTNER(0, m, 1, a);
    CHECK_PARTNER(0, p, 1, a);
    CHECK_PARTNER(0, r, 1, b);
    ev_close(&x);
}

/* Pending at a point: a sent message not yet received, an Irecv posted
 * and not completed. */
TEST(pending)
{
    run_begin(2);
    uint64_t s = send(1, 0, 2, WORLD);
    uint64_t ir = call(0, LOG_FN_MPI_Irecv, I(1), I(INT_T), I(1), I(5),
                       I(WORLD));
    f_handle(6, LOG_F_HANDLE, 0, 0xac000001);
    end();
    uint64_t r = recv(0, 1, 2, WORLD, 1, 2);
    run_end(2);
    open_run();
    struct ev_queue q;
    char err[200];
    REQUIRE(ev_pending(&x, 0, r, &q, err, sizeof err) == 0);
    CHECK_INT_EQ(q.nincoming, 1);
    CHECK(q.nincoming == 1 &&
          ev_msg_at(&x, q.incoming[0], &(struct ev_msg){0})->event == s);
    CHECK_INT_EQ(q.nrequests, 1);
    CHECK(q.nrequests == 1 &&
          ev_msg_at(&x, q.requests[0], &(struct ev_msg){0})->event == ir);
    ev_queue_release(&q);
    REQUIRE(ev_pending(&x, 0, r + 1, &q, err, sizeof err) == 0);
    CHECK_INT_EQ(q.nincoming, 0);
    CHECK_INT_EQ(q.nrequests, 1);
    ev_queue_release(&q);
    REQUIRE(ev_pending(&x, 0, ir, &q, err, sizeof err) == 0);
    CHECK_INT_EQ(q.nrequests, 0);
    ev_queue_release(&q);
    ev_close(&x);
}

/* A Waitall's completions, taken in the reverse order of the requests'
 * messages (more than a few: the index sorts an event's many references
 * apart from its few), come out of ev_uses in message order, each the
 * message its Irecv posted; every Irecv still refers to its own. */
TEST(waitall_many_reversed)
{
    enum { N = 40 };
    run_begin(2);
    uint64_t s[N], ir[N];
    for (int k = 0; k < N; k++)
        s[k] = send(1, 0, k, WORLD);
    for (int k = 0; k < N; k++) {
        ir[k] = call(0, LOG_FN_MPI_Irecv, I(1), I(INT_T), I(1), I(k),
                     I(WORLD));
        f_handle(6, LOG_F_HANDLE, 0, 0xac000100u + (uint32_t)k);
        end();
    }
    uint64_t wt = call(0, LOG_FN_MPI_Waitall, I(N));
    for (int e = 0; e < N; e++) { /* the last posted first */
        f_handle(1, LOG_F_REQUEST, (uint64_t)e,
                 0xac000100u + (uint32_t)(N - 1 - e));
        f_status(2, (uint64_t)e, 1, N - 1 - e, 4, 0);
    }
    end();
    run_end(2);
    open_run();
    struct ev_use u[N + 1];
    REQUIRE(ev_uses(&x, 0, wt, u, N + 1) == N);
    for (int k = 0; k < N; k++) {
        CHECK_INT_EQ(u[k].role, EV_DONE);
        CHECK(k == 0 || u[k].i > u[k - 1].i);
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(&x, u[k].i, &m_buf);
        CHECK(m->done == wt);
    }
    for (int k = 0; k < N; k++) {
        CHECK_PARTNER(0, ir[k], 1, s[k]);
        REQUIRE(ev_uses(&x, 0, ir[k], u, 2) == 1);
        CHECK_INT_EQ(u[0].role, EV_CALL);
        CHECK(ev_msg_at(&x, u[0].i, &(struct ev_msg){0})->event == ir[k]);
    }
    ev_close(&x);
}

/* The index keeps a message in 32 bytes and what does not fit there
 * aside (docs/events.md): a Waitall of more requests than 16 bits count
 * (done_elem), and more distinct (count, bytes, datatype) shapes than 16
 * bits count, read back in full. Rank 0's K-th Isend sends K + 1 ints,
 * rank 1's K-th Recv gets them; one Waitall completes every Isend. */
TEST(packed_fields_aside)
{
    enum { N = 70000 };
    run_begin(2);
    uint64_t *s = malloc(N * sizeof *s), *r = malloc(N * sizeof *r);
    REQUIRE(s && r);
    for (int k = 0; k < N; k++) {
        s[k] = call(0, LOG_FN_MPI_Isend, I(k + 1), I(INT_T), I(1), I(3),
                    I(WORLD));
        f_handle(6, LOG_F_HANDLE, 0, 0xac000000u + (uint32_t)k);
        end();
        r[k] = call(1, LOG_FN_MPI_Recv, I(k + 1), I(INT_T), I(0), I(3),
                    I(WORLD));
        f_status(6, 0, 0, 3, 4 * (k + 1), 0);
        end();
    }
    /* the Waitall: too long for call()'s records */
    REQUIRE(log_writer_begin(&w[0], &rec, 64 * N, LOG_FN_MPI_Waitall, 0,
                             t[0] += 1000, 100));
    log_put_arg(&rec, log_func_by_id(LOG_FN_MPI_Waitall)->args[0].enc, N);
    for (int e = 0; e < N; e++)
        f_handle(1, LOG_F_REQUEST, (uint64_t)e, 0xac000000u + (uint32_t)e);
    cur = 0;
    end();
    uint64_t wt = nev[0]++;
    run_end(2);
    open_run();
    CHECK_INT_EQ(ev_nmsgs(&x), 2 * N);
    struct ev_use u[4];
    int bad = 0;
    for (int k = 0; k < N && bad < 5; k++) {
        struct ev_msg mb, ob;
        REQUIRE(ev_uses(&x, 0, s[k], u, 4) == 1);
        const struct ev_msg *m = ev_msg_at(&x, u[0].i, &mb);
        REQUIRE(m && m->match >= 0);
        const struct ev_msg *o = ev_msg_at(&x, m->match, &ob);
        if (m->count != k + 1 || m->bytes != 4 * (int64_t)(k + 1) ||
            m->datatype != INT_T || m->done != wt ||
            m->done_elem != (uint32_t)k || m->event != s[k] ||
            m->rank != 0 || m->peer != 1 || m->peer_local != 1 ||
            m->tag != 3 || m->comm != 0 || o->event != r[k] ||
            o->rank != 1 || o->peer != 0 || o->count != k + 1 ||
            o->bytes != 4 * (int64_t)(k + 1) || o->done != r[k]) {
            CHECK_MSG(0, "message %d: count %lld bytes %lld elem %u done "
                      "%llu, its receive at %llu count %lld bytes %lld", k,
                      (long long)m->count, (long long)m->bytes,
                      m->done_elem, (unsigned long long)m->done,
                      (unsigned long long)o->event, (long long)o->count,
                      (long long)o->bytes);
            bad++;
        }
    }
    REQUIRE(ev_uses(&x, 0, wt, u, 4) == N);
    free(s);
    free(r);
    ev_close(&x);
}

/* Rows of a listing (ev_list_events), kept. */
struct rows {
    struct ev_row r[16];
    int n;
};

static void keep_row(void *ud, const struct ev_row *row, int mark)
{
    struct rows *k = ud;
    (void)mark;
    if (k->n < 16)
        k->r[k->n++] = *row;
}

/* A listing of one rank's events, while the whole index is not built,
 * builds that rank's alone and shows what the whole index does: its
 * peers, tags and the communicator ids that ranks before it gave their
 * communicators (rank 0 makes {0,2} after others, rank 2 uses it). Listing
 * another rank then builds the whole index. */
TEST(listing_one_rank_alone)
{
    const uint32_t h0 = 0x84000000, h1 = 0x84000001;
    run_begin(3);
    for (int r = 0; r < 2; r++) { /* {0} and {1}: ids only 0 and 1 know */
        call(r, LOG_FN_MPI_Comm_split, I(WORLD), I(r), I(0));
        f_handle(3, LOG_F_HANDLE, 0, 0x84000002);
        f_members(0, 1, r);
        end();
    }
    split3(2, h0, h0); /* {0,1} and {2} */
    split3(1, h1, h1); /* {0,2} and {1} */
    send(2, 0, 7, h1);
    recv(0, ANY, ANY_TAG, h1, 1, 7);
    send(2, 0, 8, WORLD);
    recv(0, ANY, ANY_TAG, WORLD, 2, 8);
    run_end(3);
    char err[300];
    struct rows alone = {.n = 0}, whole = {.n = 0}, first = {.n = 0};
    REQUIRE(ev_open(&x, run, err, sizeof err) == 0);
    CHECK_INT_EQ(ev_list_events(&x, 2, 0, 16, &(struct ev_filter){NULL, -1,
                                -1}, -1, keep_row, &alone, err,
                                sizeof err), 4);
    CHECK(x.ix == NULL); /* rank 2's alone */
    CHECK_INT_EQ(ev_list_events(&x, 0, 0, 16, &(struct ev_filter){NULL, -1,
                                -1}, -1, keep_row, &first, err,
                                sizeof err), 5);
    CHECK(x.ix != NULL); /* another rank: the whole index */
    CHECK_INT_EQ(ev_list_events(&x, 2, 0, 16, &(struct ev_filter){NULL, -1,
                                -1}, -1, keep_row, &whole, err,
                                sizeof err), 4);
    for (int k = 0; k < 4; k++) {
        CHECK_STR_EQ(alone.r[k].function, whole.r[k].function);
        CHECK_STR_EQ(alone.r[k].peer, whole.r[k].peer);
        CHECK_STR_EQ(alone.r[k].tag, whole.r[k].tag);
        CHECK_STR_EQ(alone.r[k].comm, whole.r[k].comm);
        CHECK_STR_EQ(alone.r[k].count, whole.r[k].count);
    }
    /* the send on {0,2}: to world rank 0, on the communicator rank 0's
     * receive names */
    CHECK_STR_EQ(alone.r[2].peer, "0");
    CHECK_STR_EQ(alone.r[2].comm, first.r[3].comm);
    CHECK(strcmp(alone.r[2].comm, alone.r[3].comm) != 0);
    CHECK_STR_EQ(alone.r[3].comm, "#0");
    ev_close(&x);
}

/* What X's index says of every match and of each rank's events. */
static char *index_text(struct ev_run *r)
{
    char *text, err[300];
    size_t len;
    FILE *out = open_memstream(&text, &len);
    ev_print_all_matches(r, out);
    for (int k = 0; k < r->world_size; k++)
        ev_print_events(r, out, k, 0, UINT64_MAX,
                        &(struct ev_filter){NULL, -1, -1}, -1, err,
                        sizeof err);
    fclose(out);
    return text;
}

/* The index read rank by rank as the logs arrive, out of order
 * (ev_build_feed: a rank is read once every rank before it is in), is the
 * one built at once, communicator ids included (rank 0 makes {0,2} after
 * others: the ids depend on rank order). A build begun and not finished
 * is freed by ev_close. */
TEST(built_as_ranks_arrive)
{
    const uint32_t h0 = 0x84000000, h1 = 0x84000001;
    run_begin(3);
    for (int r = 0; r < 2; r++) {
        call(r, LOG_FN_MPI_Comm_split, I(WORLD), I(r), I(0));
        f_handle(3, LOG_F_HANDLE, 0, 0x84000002);
        f_members(0, 1, r);
        end();
    }
    split3(2, h0, h0);
    split3(1, h1, h1);
    send(2, 0, 7, h1);
    recv(0, ANY, ANY_TAG, h1, 1, 7);
    send(2, 0, 8, WORLD);
    recv(0, ANY, ANY_TAG, WORLD, 2, 8);
    run_end(3);
    char err[300], path[300];
    struct ev_run y, z;
    REQUIRE(ev_open(&x, run, err, sizeof err) == 0);
    REQUIRE(ev_build(&x, err, sizeof err) == 0);
    REQUIRE(ev_open_empty(&y, run, 3, err, sizeof err) == 0);
    REQUIRE(ev_open_empty(&z, run, 3, err, sizeof err) == 0);
    const int order[3] = {2, 0, 1}, settled[3] = {0, 1, 3};
    for (int k = 0; k < 3; k++) {
        struct log_rank lr, lz;
        log_path(path, sizeof path, run, order[k]);
        REQUIRE(log_rank_open(&lr, path, err, sizeof err) == 0);
        REQUIRE(ev_take_rank(&y, order[k], &lr, err, sizeof err) == 0);
        ev_build_feed(&y, settled[k]);
        REQUIRE(log_rank_open(&lz, path, err, sizeof err) == 0);
        REQUIRE(ev_take_rank(&z, order[k], &lz, err, sizeof err) == 0);
    }
    CHECK(y.ix == NULL && y.feed != NULL); /* read, not matched */
    ev_build_feed(&z, 2);
    CHECK(z.feed != NULL);
    ev_close(&z); /* begun, not finished: freed */
    REQUIRE(ev_build(&y, err, sizeof err) == 0);
    CHECK(y.feed == NULL);
    char *a = index_text(&x), *b = index_text(&y);
    /* {0,2}, numbered after the ranks' own {0}, {1}, {0,1} and {2} */
    CHECK(strstr(a, "tag 7 on comm #4") != NULL);
    CHECK_STR_EQ(a, b);
    free(a);
    free(b);
    ev_close(&y);
    ev_close(&x);
}

int main(void)
{
    REQUIRE(mkdtemp(dir));
    RUN(any_source_any_tag);
    RUN(non_overtaking_two_tags);
    RUN(waitall_many_reversed);
    RUN(proc_null);
    RUN(cancelled_receive);
    RUN(comm_handle_reused);
    RUN(intercommunicator);
    RUN(persistent_startall);
    RUN(mprobe);
    RUN(pending);
    RUN(packed_fields_aside);
    RUN(listing_one_rank_alone);
    RUN(built_as_ranks_arrive);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
