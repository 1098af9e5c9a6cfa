/*
 * Polling loops (rec.h: rec_poll, rec_poll_value): unsuccessful polls and
 * timer calls are held back, and a run of them that repeats a cycle of up
 * to LOG_CYCLE_MAX calls is logged once with its repeat count (a
 * LOG_REC_REPEAT record for one identical call, a LOG_REC_CYCLE record
 * otherwise, log-format.h), so that `while (!done) { MPI_Testany(..);
 * MPI_Test(..); t = MPI_Wtime(); }` costs a few bytes per iteration instead
 * of a record per call. Anything else the program calls logs what is held
 * back first (rec_begin), so the log keeps the program's order.
 *
 * States: IDLE, the last calls in a ring, not logged yet; TRIAL, the ring
 * ends with two runs of a cycle and more runs follow; RUN, a third run
 * came: the cycle's members are copied out, the ring is logged and empty,
 * and runs are only counted (and their timer values appended). A TRIAL
 * that breaks goes back to IDLE with its calls still in the ring, so a
 * longer cycle that contains the short one (A A B A A B) can still be
 * found; the shortest cycle at the end of the ring is tried first.
 *
 * Under MPI_THREAD_MULTIPLE what is held back is one thread's (the owner),
 * under the recorder's lock, and its records name that thread: another
 * thread's record logs it first (rec_begin; a poll of another thread
 * too), so a thread's polls collapse while no other thread's call is
 * committed between them, and the log's order across threads is the one
 * records of their own would have had.
 */
#include <string.h>

#include "rec.h"
#include "thread.h"

#define HIST (2 * LOG_CYCLE_MAX)    /* calls looked at to find a cycle */
#define RING (HIST + LOG_CYCLE_MAX) /* and a broken trial's remains */
#define IMG 512                     /* a poll's record body, at most */
#define VALS 4096                   /* timer values in one record */

/* A call held back. */
struct pcall {
    uint16_t fn, len;
    uint8_t value; /* a timer: VAL is what it returned, IMG is empty */
    double val;
    uint64_t t0, t1;
    uint8_t img[IMG];
};
/* What a call of a run has of its own (the rest is its member's). */
struct pmeta {
    double val;
    uint64_t t0, t1;
};

int rec_poll_pending;
/* MPI_THREAD_MULTIPLE: the calls held back are thread OWNER's. */
static int owned;
static uint64_t owner;
static struct pcall ring[RING], cyc[LOG_CYCLE_MAX];
static int head, nh;
static struct {
    int k;         /* calls in the cycle; 0: IDLE */
    int confirmed; /* RUN (members in cyc[]), else TRIAL (in the ring) */
    int base;      /* TRIAL: where the first run starts in the ring */
    int pos;       /* calls of the next run seen */
    int nvalue;    /* timer calls in the cycle */
    uint64_t n;    /* runs not logged yet */
    uint64_t t0, t1;
    struct pmeta part[LOG_CYCLE_MAX]; /* the next run's calls */
    uint8_t vals[VALS];
    size_t nvals;
    uint64_t bits; /* the last value's */
} cy;

static struct pcall *at(int i)
{
    return &ring[(head + i) % RING];
}

static const struct pcall *member(int j)
{
    return cy.confirmed ? &cyc[j] : at(cy.base + j);
}

static int same(const struct pcall *a, const struct pcall *b)
{
    return a->fn == b->fn && a->len == b->len && a->value == b->value &&
           memcmp(a->img, b->img, a->len) == 0;
}

static void copy(struct pcall *d, const struct pcall *s)
{
    memcpy(d, s, offsetof(struct pcall, img) + s->len);
}

/* Starts a record of held-back calls, naming their thread under
 * MPI_THREAD_MULTIPLE; REPEAT: its repeat count, else 0. */
static int begin(struct log_rec *rec, int fn, unsigned flags, uint64_t t0,
                 uint64_t dur, size_t room, uint64_t repeat)
{
    if (owned)
        flags |= LOG_REC_THREAD;
    if (!rec_begin_raw(rec, fn, flags, t0, dur, room + 20))
        return 0;
    if (flags & LOG_REC_REPEAT)
        log_put_varint(rec, repeat);
    if (owned)
        log_put_varint(rec, owner);
    return 1;
}

/* One call as the record it would have had alone. */
static void write_single(const struct pcall *c)
{
    struct log_rec rec;
    if (!begin(&rec, c->fn, 0, c->t0, c->t1 - c->t0,
               c->len + LOG_FIELD_HEAD + 8, 0))
        return;
    if (c->value)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, &c->val, 8);
    else
        log_put_bytes(&rec, c->img, c->len);
    rec_end_raw(&rec);
}

/* The runs counted, as one record. */
static void write_cycle(void)
{
    struct log_rec rec;
    const struct pcall *m0 = &cyc[0];
    if (cy.n == 0)
        return;
    if (cy.k == 1 && !cy.nvalue) {
        /* The same call again and again: a REPEAT record. */
        if (!begin(&rec, m0->fn, cy.n > 1 ? LOG_REC_REPEAT : 0, cy.t0,
                   cy.t1 - cy.t0, m0->len, cy.n))
            return;
        log_put_bytes(&rec, m0->img, m0->len);
        rec_end_raw(&rec);
        return;
    }
    size_t room = 20 + cy.nvals;
    for (int j = 0; j < cy.k; j++)
        room += 20 + cyc[j].len;
    if (!begin(&rec, m0->fn, LOG_REC_REPEAT | LOG_REC_CYCLE, cy.t0,
               cy.t1 - cy.t0, room, cy.n))
        return;
    log_put_varint(&rec, (uint64_t)cy.k);
    for (int j = 0; j < cy.k; j++) {
        log_put_varint(&rec, cyc[j].fn);
        log_put_varint(&rec, cyc[j].value ? LOG_CYCLE_VALUE : 0);
        log_put_varint(&rec, cyc[j].len);
        log_put_bytes(&rec, cyc[j].img, cyc[j].len);
    }
    log_put_bytes(&rec, cy.vals, cy.nvals);
    rec_end_raw(&rec);
}

/* Appends a timer value: its bits' difference from the last one's. */
static void val_put(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    int64_t d = (int64_t)(bits - cy.bits);
    struct log_rec r = {cy.vals + cy.nvals, cy.vals + cy.nvals};
    log_put_varint(&r, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
    cy.nvals = (size_t)(r.p - cy.vals);
    cy.bits = bits;
}

/* Appends C to the ring; when full, the oldest call is logged alone. */
static void push(const struct pcall *c)
{
    if (nh == RING) {
        write_single(at(0));
        head = (head + 1) % RING;
        nh--;
    }
    copy(at(nh), c);
    nh++;
}

/* After a push in IDLE: does the ring end with two runs of a cycle? */
static void detect(void)
{
    while (nh > HIST) {
        write_single(at(0));
        head = (head + 1) % RING;
        nh--;
    }
    for (int k = 1; k <= LOG_CYCLE_MAX && 2 * k <= nh; k++) {
        int j = k - 1;
        while (j >= 0 && same(at(nh - 2 * k + j), at(nh - k + j)))
            j--;
        if (j < 0) {
            cy.k = k;
            cy.confirmed = 0;
            cy.base = nh - 2 * k;
            cy.pos = 0;
            cy.n = 2;
            cy.t0 = at(cy.base)->t0;
            cy.t1 = at(nh - 1)->t1;
            return;
        }
    }
}

/* TRIAL to RUN: the calls before the two runs are logged, the members
 * copied out, the runs' values appended. */
static void confirm(void)
{
    for (int i = 0; i < cy.base; i++)
        write_single(at(i));
    cy.nvalue = 0;
    cy.nvals = 0;
    cy.bits = 0;
    for (int j = 0; j < cy.k; j++) {
        copy(&cyc[j], at(cy.base + j));
        cy.nvalue += cyc[j].value;
    }
    for (int i = 0; i < 2 * cy.k; i++)
        if (at(cy.base + i)->value)
            val_put(at(cy.base + i)->val);
    cy.confirmed = 1;
    head = nh = 0;
}

/* A run of the cycle is complete (its calls in cy.part). */
static void run_done(void)
{
    cy.pos = 0;
    if (!cy.confirmed)
        confirm();
    if (cy.nvalue && cy.nvals + (size_t)cy.nvalue * 10 > VALS) {
        /* The values are full: this record ends, another starts. */
        write_cycle();
        cy.n = 0;
        cy.nvals = 0;
        cy.bits = 0;
    }
    if (cy.n == 0)
        cy.t0 = cy.part[0].t0;
    for (int j = 0; j < cy.k; j++)
        if (cyc[j].value)
            val_put(cy.part[j].val);
    cy.n++;
    cy.t1 = cy.part[cy.k - 1].t1;
}

/* The calls of the unfinished run into the ring, as calls of their own. */
static void push_part(void)
{
    struct pcall e;
    for (int j = 0; j < cy.pos; j++) {
        copy(&e, member(j));
        e.val = cy.part[j].val;
        e.t0 = cy.part[j].t0;
        e.t1 = cy.part[j].t1;
        push(&e);
    }
}

static void poll_add(const struct pcall *x)
{
    rec_poll_pending = 1;
    if (cy.k) {
        if (same(member(cy.pos), x)) {
            struct pmeta *p = &cy.part[cy.pos];
            p->val = x->val;
            p->t0 = x->t0;
            p->t1 = x->t1;
            if (++cy.pos == cy.k)
                run_done();
            return;
        }
        /* The cycle breaks. A trial's runs stay in the ring, as calls. */
        if (cy.confirmed)
            write_cycle();
        push_part();
        cy.k = 0;
    }
    push(x);
    detect();
}

void rec_poll_flush(void)
{
    rec_poll_pending = 0;
    if (cy.k) {
        if (!cy.confirmed)
            confirm();
        write_cycle();
        push_part();
        cy.k = 0;
    }
    for (int i = 0; i < nh; i++)
        write_single(at(i));
    head = nh = 0;
}

/* Holds X back: under MPI_THREAD_MULTIPLE, under the lock and after what
 * another thread held back is logged. */
static void hold(const struct pcall *x)
{
    if (!rec_mt) {
        poll_add(x);
        return;
    }
    uint64_t me = util_thread_self();
    rec__lock();
    if (rec_poll_pending && (!owned || owner != me))
        rec_poll_flush();
    owned = 1;
    owner = me;
    poll_add(x);
    rec__unlock();
}

void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1)
{
    struct pcall x;
    /* A record of its own, in order: larger than any poll's record;
     * inside a program callback (marked by rec_begin); after program
     * callbacks MPI ran in the poll (a user operator of a pending
     * reduction: rec_cb_ran); or when a shared-memory segment changed
     * during the poll (the program may have polled until a neighbour's
     * store: logged with the changes). */
    int shm = rec_shm_n && rec_shm_changed();
    if (len > IMG || rec_cb_depth || shm || rec_cb_ran()) {
        struct log_rec rec;
        if (rec_begin(&rec, fn, shm ? REC_SYNC : 0, MPI_SUCCESS, t0, t1,
                      len)) {
            log_put_bytes(&rec, img, len);
            rec_end(&rec);
        }
        return;
    }
    x.fn = (uint16_t)fn;
    x.len = (uint16_t)len;
    x.value = 0;
    x.val = 0;
    x.t0 = t0;
    x.t1 = t1;
    memcpy(x.img, img, len);
    hold(&x);
}

void rec_poll_value(int fn, double v, uint64_t t0, uint64_t t1)
{
    struct pcall x;
    if (rec_cb_depth) { /* marked, alone (rec_poll) */
        struct log_rec rec;
        if (rec_begin(&rec, fn, 0, MPI_SUCCESS, t0, t1, LOG_FIELD_HEAD + 8)) {
            rec_put_raw(&rec, LOG_ARG_NONE, 0, &v, 8);
            rec_end(&rec);
        }
        return;
    }
    x.fn = (uint16_t)fn;
    x.len = 0;
    x.value = 1;
    x.val = v;
    x.t0 = t0;
    x.t1 = t1;
    hold(&x);
}
