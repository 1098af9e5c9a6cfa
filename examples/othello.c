/*
 * othello - a parallel alpha-beta Othello search, with a planted bug.
 *
 * The test program "OG" of the record/replay papers, in MPI. Rank 0 plays
 * a few turns of Othello from a fixed position, searching 2 + LEAF_DEPTH
 * plies a turn: its moves and the opponent's replies itself, the rest on
 * its children, the searchers, with sequential alpha-beta. With 7 ranks or
 * more, ranks 1-3 are inner nodes of a deeper tree: each expands one more
 * ply and hands the rest on to searchers of its own (see inner_node()).
 *
 *   mpiexec -n 4 ./othello [TURNS [LEAF_DEPTH]]      (default: 4 turns, 3)
 *
 * Rank 0 takes its moves one after the other, the most promising first
 * (it orders them with a search of its own one ply shallower). For move M
 * it sends one Search per reply of the opponent to whichever searcher is
 * idle, and receives the Results with MPI_ANY_SOURCE, in whatever order
 * they come, told apart from the searchers' final statistics by their tag:
 *
 *   rank 0 --Search(seq, position, depth, alpha, beta)--> searcher
 *   rank 0 <--Result(seq, value, best move)-------------- searcher
 *   rank 0 --Control(seq, CANCEL | WINDOW alpha beta)---> searcher
 *
 * M is worth the smallest value of its replies (the opponent picks its
 * best), and a Result can make the other searches of M's replies useless:
 *   - a reply worth no more than rank 0's best move so far (alpha) refutes
 *     M: rank 0 cancels the other searches and goes on with its next move
 *     (or its next turn) right away, the searchers getting new Searches;
 *   - a reply worth less than those before lowers M's value (beta): rank 0
 *     sends the narrower alpha-beta window to the other searches.
 * A searcher checks for Control messages every POLL_NODES nodes. A
 * cancelled searcher abandons its search but still answers it, late:
 * rank 0 has moved on by then. So every Search has a sequence number,
 * every Result carries the number of the Search it answers, and rank 0
 * drops the Results that do not answer a searcher's current Search.
 *
 * THE PLANTED BUG (run_move(), "THE BUG"): rank 0 drops a Result when its
 * number is lower than that of the searcher's current Search: older
 * Searches have lower numbers. But the numbers start again at 1 every
 * turn. When rank 0 receives the late answer to a Search of the previous
 * turn (say search 13) only after it has given that searcher one of the
 * first Searches of the new turn (say search 3), 13 is not lower than 3,
 * and the late answer is taken as the answer to search 3. The test should
 * be '!='. Between two turns rank 0 orders its moves, which gives the late
 * answers time to come in, and it reads those that have come before it
 * hands out new Searches. So whether one slips through depends on timing:
 * when each searcher gets to run and answer the cancel, and in which order
 * MPI delivers several searchers' Results to rank 0's MPI_ANY_SOURCE
 * receive. The bug shows on some runs only.
 *
 * Rank 0 checks every Result where it uses it (take_result()): one that
 * does not answer the searcher's current Search makes it call
 * othello_bug_detected(), which prints
 *
 *   rank 0: BUG: result of search 13 (from rank 2) answered search 3: ...
 *
 * and the program exits with status 3 (after MPI_Finalize). Otherwise
 * rank 0 checks every turn against the game it played alone first, with
 * the sequential search, and exits 0. What rank 0 prints depends only on
 * what it received through MPI: replaying it prints exactly what it
 * printed in the recorded run.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG_SEARCH 1  /* rank 0 -> searcher: struct search */
#define TAG_CONTROL 2 /* rank 0 -> searcher: struct control */
#define TAG_STOP 3    /* rank 0 -> searcher: no more work (no data) */
#define TAG_RESULT 4  /* searcher -> rank 0: struct result */
#define TAG_STATS 5   /* searcher -> rank 0: struct stats, its last message */

#define INF 1000000
#define POLL_NODES 64   /* a searcher polls for Control every so many nodes */
#define MAX_MOVES 32    /* more than any Othello position has */
#define MAX_KIDS 64
#define MAX_TURNS 60
#define MAX_CANCELLED 256

enum { CANCEL = 1, WINDOW = 2 };

/* The messages. All ranks run the same binary on the same kind of machine,
 * so they travel as bytes. */
struct search {
    int seq;            /* this Search's sequence number */
    int depth;          /* plies to search */
    int alpha, beta;    /* the window */
    int move, reply;    /* what rank 0 searches: its move, the reply */
    uint64_t me, opp;   /* the position; "me" is to move */
};
struct control {
    int seq;            /* the Search it is about */
    int what;           /* CANCEL or WINDOW */
    int alpha, beta;    /* WINDOW: the new window */
};
struct result {
    int seq;            /* the Search it answers */
    int value;          /* for the side to move in the Search's position */
    int best;           /* the best move found (a square), -1: none */
    int abandoned;      /* 1: the search was cancelled, value is meaningless */
};
struct stats {
    int searches, abandoned;
    long long nodes;
};

/* ---- Othello -------------------------------------------------------------
 * A position is two bitboards: bit 8 * row + column, a1 = bit 0, h8 = bit 63.
 * "me" is the side to move. */

#define NOT_A 0xfefefefefefefefeULL /* every square but column a */
#define NOT_H 0x7f7f7f7f7f7f7f7fULL /* every square but column h */

static uint64_t shift(uint64_t b, int dir)
{
    switch (dir) {
    case 0: return (b << 1) & NOT_A; /* east */
    case 1: return (b >> 1) & NOT_H; /* west */
    case 2: return b << 8;           /* north */
    case 3: return b >> 8;           /* south */
    case 4: return (b << 9) & NOT_A; /* north-east */
    case 5: return (b << 7) & NOT_H; /* north-west */
    case 6: return (b >> 7) & NOT_A; /* south-east */
    default: return (b >> 9) & NOT_H; /* south-west */
    }
}

/* The squares where "me" may play. */
static uint64_t legal_moves(uint64_t me, uint64_t opp)
{
    uint64_t empty = ~(me | opp), moves = 0;
    for (int dir = 0; dir < 8; dir++) {
        uint64_t run = shift(me, dir) & opp;
        for (int i = 0; i < 5; i++)
            run |= shift(run, dir) & opp;
        moves |= shift(run, dir) & empty;
    }
    return moves;
}

/* The discs "me" turns over by playing SQ. */
static uint64_t flips(uint64_t me, uint64_t opp, int sq)
{
    uint64_t all = 0;
    for (int dir = 0; dir < 8; dir++) {
        uint64_t run = 0, x = shift(1ULL << sq, dir);
        while (x & opp) {
            run |= x;
            x = shift(x, dir);
        }
        if (x & me)
            all |= run;
    }
    return all;
}

/* Plays SQ for "me"; the result has the other side to move. */
static void play(uint64_t *me, uint64_t *opp, int sq)
{
    uint64_t f = flips(*me, *opp, sq);
    uint64_t next_me = *opp & ~f, next_opp = *me | f | 1ULL << sq;
    *me = next_me;
    *opp = next_opp;
}

static int count(uint64_t b)
{
    return __builtin_popcountll(b);
}

/* The squares of MOVES, in order a1, b1, ... h8. */
static int list_moves(uint64_t moves, int *sq)
{
    int n = 0;
    for (; moves; moves &= moves - 1)
        sq[n++] = __builtin_ctzll(moves);
    return n;
}

static const char *square_name(int sq)
{
    static char names[64][3];
    if (sq < 0)
        return "pass";
    names[sq][0] = (char)('a' + sq % 8);
    names[sq][1] = (char)('1' + sq / 8);
    return names[sq];
}

/* Corners are good, the squares next to them bad, and having moves good. */
static const int weight[64] = {
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2, -1, -1, -1, -1,  -2,  10,
      5,  -2, -1, -1, -1, -1,  -2,   5,
      5,  -2, -1, -1, -1, -1,  -2,   5,
     10,  -2, -1, -1, -1, -1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
};

/* A finished game: the disc difference, worth more than any evaluation. */
static int final_score(uint64_t me, uint64_t opp)
{
    return 1000 * (count(me) - count(opp));
}

static int evaluate(uint64_t me, uint64_t opp)
{
    int mine = count(legal_moves(me, opp));
    int theirs = count(legal_moves(opp, me));
    if (!mine && !theirs)
        return final_score(me, opp);
    int v = 0;
    for (int sq = 0; sq < 64; sq++)
        v += (int)((me >> sq) & 1) * weight[sq] -
             (int)((opp >> sq) & 1) * weight[sq];
    return v + 5 * (mine - theirs);
}

/* ---- the sequential search ----------------------------------------------
 * Plain fail-soft negamax alpha-beta. A pass takes a ply. POLL_HOOK, when
 * set, is called every POLL_NODES nodes and returns non-zero to abandon
 * the search (the value returned is then meaningless). */

static long long nodes;
static int (*poll_hook)(void);
static int abandon;

static int negamax(uint64_t me, uint64_t opp, int depth, int alpha, int beta)
{
    if (++nodes % POLL_NODES == 0 && poll_hook && !abandon)
        abandon = poll_hook();
    if (abandon)
        return 0;
    if (depth == 0)
        return evaluate(me, opp);
    uint64_t moves = legal_moves(me, opp);
    if (!moves && !legal_moves(opp, me))
        return final_score(me, opp);
    if (!moves) /* a pass */
        return -negamax(opp, me, depth - 1, -beta, -alpha);
    int best = -INF;
    for (; moves; moves &= moves - 1) {
        uint64_t m = me, o = opp;
        play(&m, &o, __builtin_ctzll(moves));
        int v = -negamax(m, o, depth - 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* ---- a searcher (a leaf of the tree) ------------------------------------ */

static struct search job;   /* the Search being worked on (seq 0: none) */
static int window_alpha, window_beta, parent; /* parent: its Searches' sender */
/* The Searches the parent cancelled here, in the order the cancels came,
 * abandoned or already answered. */
static int cancelled_seq[MAX_CANCELLED], ncancelled;
static struct stats my_stats;

/* Reads the Control messages that came: a cancel of the current Search
 * abandons it, a new window narrows it. Every cancel is noted; the rest about
 * another Search (answered before the Control came, or the next, not yet
 * received) are dropped: a Search takes longer, but its answer is right. */
static int check_control(void)
{
    for (;;) {
        int flag;
        MPI_Status st;
        struct control ctl;
        MPI_Iprobe(parent, TAG_CONTROL, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return abandon;
        MPI_Recv(&ctl, sizeof ctl, MPI_BYTE, parent, TAG_CONTROL,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (ctl.what == CANCEL && ncancelled < MAX_CANCELLED)
            cancelled_seq[ncancelled++] = ctl.seq;
        if (ctl.seq != job.seq)
            continue;
        if (ctl.what == CANCEL) {
            abandon = 1;
        } else {
            if (ctl.alpha > window_alpha)
                window_alpha = ctl.alpha;
            if (ctl.beta < window_beta)
                window_beta = ctl.beta;
        }
    }
}

/* The first ply by hand, so that a new window applies to the moves not yet
 * searched. */
static struct result search_job(void)
{
    struct result res = {job.seq, 0, -1, 0};
    int sq[MAX_MOVES];
    int n = list_moves(legal_moves(job.me, job.opp), sq);
    window_alpha = job.alpha;
    window_beta = job.beta;
    abandon = 0;
    if (n == 0 || job.depth == 0) {
        res.value = negamax(job.me, job.opp, job.depth, job.alpha, job.beta);
    } else {
        res.value = -INF;
        for (int i = 0; i < n && !abandon; i++) {
            uint64_t m = job.me, o = job.opp;
            play(&m, &o, sq[i]);
            int a = res.value > window_alpha ? res.value : window_alpha;
            int v = -negamax(m, o, job.depth - 1, -window_beta, -a);
            if (!abandon && v > res.value) {
                res.value = v;
                res.best = sq[i];
            }
            if (res.value >= window_beta)
                break;
        }
    }
    if (abandon) {
        res.abandoned = 1;
        my_stats.abandoned++;
    }
    my_stats.searches++;
    return res;
}

/* A searcher answers its parent's Searches, one at a time, until it says
 * stop; then it sends its statistics. */
static void searcher(void)
{
    poll_hook = check_control;
    for (;;) {
        union {
            struct search search;
            struct control control;
        } msg;
        MPI_Status st;
        struct result res;
        MPI_Recv(&msg, sizeof msg, MPI_BYTE, parent, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
        switch (st.MPI_TAG) {
        case TAG_SEARCH:
            job = msg.search;
            res = search_job();
            /* Answered even when abandoned: rank 0 expects one Result per
             * Search. */
            MPI_Send(&res, sizeof res, MPI_BYTE, parent, TAG_RESULT,
                     MPI_COMM_WORLD);
            job.seq = 0;
            break;
        case TAG_CONTROL:
            /* About a Search already answered: too late to matter. */
            if (msg.control.what == CANCEL && ncancelled < MAX_CANCELLED)
                cancelled_seq[ncancelled++] = msg.control.seq;
            break;
        case TAG_STOP:
            my_stats.nodes = nodes;
            /* examples/othello.drdb stops searchers on the next line. */
            MPI_Send(&my_stats, sizeof my_stats, MPI_BYTE, parent, TAG_STATS,
                     MPI_COMM_WORLD);
            return;
        }
    }
}

/* ---- rank 0 ------------------------------------------------------------- */

/* What rank 0 knows of each searcher. */
struct kid {
    int busy;            /* working on a Search for rank 0 */
    int seq;             /* the last Search rank 0 sent it */
    struct search job;   /* a copy of that Search */
    int results;         /* Results received from it, late ones too */
};

static struct kid kid[MAX_KIDS + 1]; /* by rank; kid[0] unused */
static int nkids;
static int turn;     /* the turn being played: 1, 2, ... */
static int next_seq; /* numbers the Searches of a turn: 1, 2, ... */
static int searches, cancels, windows; /* this turn */

/* Called when rank 0 is about to use a Result that does not answer the
 * searcher's current Search. Not inlined: a debugger can stop here. */
__attribute__((noinline)) void othello_bug_detected(int src,
                                                    const struct result *res);

/* Rank 0 keeps a receive posted for the next Result, so that it can see
 * whether one has come without waiting for it. */
static MPI_Request result_req = MPI_REQUEST_NULL;
static struct result incoming;

/* The next Result and its sender: 1, or 0 when WAIT is 0 and none has come
 * yet. */
static int get_result(int wait, struct result *res, int *src)
{
    MPI_Status st;
    int done = 1;
    if (result_req == MPI_REQUEST_NULL)
        MPI_Irecv(&incoming, sizeof incoming, MPI_BYTE, MPI_ANY_SOURCE,
                  TAG_RESULT, MPI_COMM_WORLD, &result_req);
    if (wait)
        MPI_Wait(&result_req, &st);
    else
        MPI_Test(&result_req, &done, &st);
    if (!done)
        return 0;
    *res = incoming;
    *src = st.MPI_SOURCE;
    kid[*src].results++;
    return 1;
}

static void send_search(int r, const struct search *s)
{
    kid[r].busy = 1;
    kid[r].seq = s->seq;
    kid[r].job = *s;
    MPI_Send(s, sizeof *s, MPI_BYTE, r, TAG_SEARCH, MPI_COMM_WORLD);
    searches++;
}

static void send_control(int r, int what, int alpha, int beta)
{
    struct control ctl = {kid[r].seq, what, alpha, beta};
    MPI_Send(&ctl, sizeof ctl, MPI_BYTE, r, TAG_CONTROL, MPI_COMM_WORLD);
}

/* The point of use: the Result must answer the Search the searcher is
 * working on (the check a correct stale test makes needless). */
static void take_result(int src, const struct result *res)
{
    if (res->seq != kid[src].seq)
        othello_bug_detected(src, res);
    kid[src].busy = 0;
}

/* Searches rank 0's move to position (ME, OPP) (the opponent to move) with
 * the replies split among the searchers. ALPHA is the best value rank 0 has
 * found so far. Returns the move's value, or a value <= ALPHA when a reply
 * refutes it. */
static int run_move(int move, uint64_t me, uint64_t opp, int depth, int alpha)
{
    int sq[MAX_MOVES];
    int n = list_moves(legal_moves(me, opp), sq);
    if (n == 0 && !legal_moves(opp, me))
        return -final_score(me, opp); /* the game ends here */
    if (n == 0)
        sq[n++] = -1; /* the opponent passes */

    int beta = INF, next = 0, busy = 0;
    while (next < n || busy > 0) {
        struct result res;
        int src;
        /* A Result that has come goes first: it may refute the move (no
         * need to hand out more of its replies) or narrow the window of
         * the Searches about to go out. Otherwise every idle searcher gets
         * the next reply, and rank 0 waits for a Result. */
        if (!(next < n && busy < nkids && get_result(0, &res, &src))) {
            for (int r = 1; r <= nkids && next < n; r++) {
                if (kid[r].busy)
                    continue;
                struct search s = {next_seq++, depth, alpha, beta, move,
                                   sq[next], me, opp};
                if (sq[next] >= 0) {
                    play(&s.me, &s.opp, sq[next]);
                } else { /* a pass: rank 0 to move again */
                    s.me = opp;
                    s.opp = me;
                }
                send_search(r, &s);
                next++;
                busy++;
            }
            get_result(1, &res, &src);
        }
        /* A late answer to a Search we cancelled: from a searcher that
         * has had nothing new since, or for an older Search than the one
         * it works on now. Drop it.
         * THE BUG: '<' should be '!=': the numbers start again at 1 every
         * turn, so a late answer from the previous turn is not older. */
        if (!kid[src].busy || res.seq < kid[src].seq)
            continue;
        /* examples/othello.drdb stops rank 0 on the next line. */
        take_result(src, &res);
        busy--;

        if (res.value <= alpha) {
            /* Refuted: rank 0 will not play this move. The other searches
             * of its replies are useless. */
            for (int r = 1; r <= nkids; r++) {
                if (!kid[r].busy)
                    continue;
                send_control(r, CANCEL, 0, 0);
                kid[r].busy = 0;
                cancels++;
            }
            return res.value;
        }
        if (res.value < beta) {
            /* A better reply: the other searches need only find out whether
             * theirs is better still. */
            beta = res.value;
            for (int r = 1; r <= nkids; r++)
                if (kid[r].busy) {
                    send_control(r, WINDOW, alpha, beta);
                    windows++;
                }
        }
    }
    return beta;
}

/* Rank 0's moves from (ME, OPP) into SQ, the most promising first, by a
 * search of its own one ply shallower than the real one (DEPTH): good
 * moves searched first refute the others sooner. Ties keep the order a1,
 * b1, ... h8. */
static int order_moves(uint64_t me, uint64_t opp, int depth, int *sq)
{
    int n = list_moves(legal_moves(me, opp), sq), value[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        uint64_t m = me, o = opp;
        play(&m, &o, sq[i]);
        value[i] = -negamax(m, o, depth - 2, -INF, INF);
    }
    for (int i = 1; i < n; i++) /* insertion sort, best value first */
        for (int j = i; j > 0 && value[j] > value[j - 1]; j--) {
            int v = value[j], q = sq[j];
            value[j] = value[j - 1];
            sq[j] = sq[j - 1];
            value[j - 1] = v;
            sq[j - 1] = q;
        }
    return n;
}

/* One turn: rank 0's best move from (ME, OPP) in *BEST, and its value. */
static int parallel_search(uint64_t me, uint64_t opp, int leaf_depth,
                           int *best)
{
    int sq[MAX_MOVES];
    int n = order_moves(me, opp, 2 + leaf_depth, sq);
    int alpha = -INF;
    *best = -1;
    next_seq = 1;
    for (int i = 0; i < n; i++) {
        uint64_t m = me, o = opp;
        play(&m, &o, sq[i]);
        int v = run_move(sq[i], m, o, leaf_depth, alpha);
        if (v > alpha) {
            alpha = v;
            *best = sq[i];
        }
    }
    return alpha;
}

/* The same search on rank 0 alone, as the reference. */
static int sequential_search(uint64_t me, uint64_t opp, int leaf_depth,
                             int *best)
{
    int sq[MAX_MOVES];
    int n = order_moves(me, opp, 2 + leaf_depth, sq);
    int alpha = -INF;
    *best = -1;
    for (int i = 0; i < n; i++) {
        uint64_t m = me, o = opp;
        play(&m, &o, sq[i]);
        int v = -negamax(m, o, 1 + leaf_depth, -INF, -alpha);
        if (v > alpha) {
            alpha = v;
            *best = sq[i];
        }
    }
    return alpha;
}

/* Stops the searchers, reads their statistics, then their late Results. */
static void stop_searchers(int quiet)
{
    int late = 0;
    for (int r = 1; r <= nkids; r++) {
        if (kid[r].busy)
            send_control(r, CANCEL, 0, 0);
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
    }
    for (int r = 1; r <= nkids; r++) {
        struct stats s;
        MPI_Recv(&s, sizeof s, MPI_BYTE, r, TAG_STATS, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        late += s.searches - kid[r].results;
        if (!quiet)
            printf("rank %d: %d searches, %d abandoned, %lld nodes\n", r,
                   s.searches, s.abandoned, s.nodes);
    }
    while (late-- > 0) {
        struct result res;
        int src;
        get_result(1, &res, &src);
    }
}

void othello_bug_detected(int src, const struct result *res)
{
    const struct search *s = &kid[src].job;
    int right = negamax(s->me, s->opp, s->depth, -INF, INF);
    printf("rank 0: BUG: result of search %d (from rank %d) answered search "
           "%d: value %d, the right value is %d\n",
           res->seq, src, s->seq, res->value, right);
    fflush(stdout);
    stop_searchers(1);
    MPI_Finalize();
    exit(3);
}

/* The start of the game: the standard position, then a fixed opening. */
static const char *const opening = "f5d6c3d3c4f4f6f3e6e7";
static void inner_node(void), print_tree(int); static int tree_node(int, int);

int main(int argc, char **argv)
{
    int rank, size, kids;
    int turns = argc > 1 ? atoi(argv[1]) : 4;
    int leaf_depth = argc > 2 ? atoi(argv[2]) : 3;
    if (turns < 1 || turns > MAX_TURNS || leaf_depth < 0 || leaf_depth > 8) {
        fprintf(stderr, "usage: othello [TURNS (1-%d) [LEAF_DEPTH (0-8)]]\n",
                MAX_TURNS);
        return 2;
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || size > MAX_KIDS + 1) {
        if (rank == 0)
            fprintf(stderr, "othello: needs 2 to %d ranks\n", MAX_KIDS + 1);
        MPI_Finalize();
        return 2;
    }
    if ((kids = tree_node(rank, size)) >= 0) { /* not rank 0 */
        kids > 0 ? inner_node() : searcher();
        MPI_Finalize();
        return 0;
    }

    /* Rank 0, the root: tree_node() gave it nkids children, 1 to nkids. */
    /* Black to move in the standard start: d5, e4 black; d4, e5 white. */
    uint64_t me = 1ULL << 35 | 1ULL << 28, opp = 1ULL << 27 | 1ULL << 36;
    int black = 1;
    for (const char *p = opening; *p; p += 2) {
        int sq = (p[1] - '1') * 8 + (p[0] - 'a');
        if (!(legal_moves(me, opp) >> sq & 1)) {
            fprintf(stderr, "othello: opening move %.2s is illegal\n", p);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        play(&me, &opp, sq);
        black = !black;
    }
    printf("othello: %d searchers, %d turns, depth 2+%d, from %s\n", size - 1,
           turns, leaf_depth, opening), print_tree(size);

    /* The reference: the game rank 0 plays alone with the sequential
     * search, computed first. */
    struct { int move, value; } ref[MAX_TURNS];
    {
        uint64_t m = me, o = opp;
        for (int t = 0; t < turns; t++) {
            ref[t].move = -1;
            if (legal_moves(m, o))
                ref[t].value = sequential_search(m, o, leaf_depth,
                                                 &ref[t].move);
            if (ref[t].move >= 0)
                play(&m, &o, ref[t].move);
            else if (legal_moves(o, m)) {
                uint64_t x = m; /* a pass */
                m = o;
                o = x;
            }
        }
    }

    for (turn = 1; turn <= turns; turn++) {
        const char *side = black ? "black" : "white";
        int best, value, t = turn - 1;
        if (!legal_moves(me, opp) && !legal_moves(opp, me))
            break;
        if (!legal_moves(me, opp)) {
            printf("turn %d: %s passes\n", turn, side);
            uint64_t x = me;
            me = opp;
            opp = x;
            black = !black;
            continue;
        }
        searches = cancels = windows = 0;
        value = parallel_search(me, opp, leaf_depth, &best);
        printf("turn %d: %s plays %s, value %d (%d searches, %d cancelled, "
               "%d window updates)\n", turn, side, square_name(best), value,
               searches, cancels, windows);
        if (value != ref[t].value || best != ref[t].move) {
            printf("rank 0: WRONG: the sequential search plays %s, value "
                   "%d\n", square_name(ref[t].move), ref[t].value);
            stop_searchers(1);
            MPI_Finalize();
            return 4;
        }
        play(&me, &opp, best);
        black = !black;
    }
    int nblack = count(black ? me : opp), nwhite = count(black ? opp : me);
    printf("result: black %d, white %d discs; every turn agrees with the "
           "sequential search\n", nblack, nwhite);
    stop_searchers(0);
    MPI_Finalize();
    return 0;
}

/* ---- the tree -----------------------------------------------------------
 * With fewer than DEEP_RANKS ranks, every other rank is a child of rank 0's,
 * a searcher (a leaf). With DEEP_RANKS or more, rank 0 has ROOT_KIDS
 * children, ranks 1-3, the inner nodes, and the other ranks are children of
 * theirs, in order, at least 2 to a node: with 7 ranks 1 -> 4,5 and 2 -> 6,
 * rank 3 being a leaf. Rank 0 prints the tree when there are more than 4.
 *
 * An inner node answers its parent's Searches as a searcher does, with the
 * same messages, but expands their first ply itself: it hands the position
 * after each of its moves to its own children, with Searches of its own
 * (numbered 1, 2, ... for as long as it runs), and receives their Results
 * with MPI_ANY_SOURCE, together with its parent's messages, in one blocking
 * receive. It takes the best of its moves' values (fail-soft negamax), and
 * uses Results and Controls the way rank 0 does: a move worth at least beta
 * cuts the search off (it cancels its other children's searches and answers
 * at once), a better move narrows its children's window, and so does a
 * WINDOW from its parent; a CANCEL from its parent cancels its children's
 * searches and answers, abandoned. Its stale check is the right one: it
 * drops every Result that does not answer a child's current Search. */

#define DEEP_RANKS 7
#define ROOT_KIDS 3

/* The children of rank R in a tree of SIZE ranks: ranks *FIRST, *FIRST + 1,
 * ...; returns how many. */
static int tree_kids(int r, int size, int *first)
{
    int extra = size - 1 - ROOT_KIDS, per, n;
    *first = 1;
    if (size < DEEP_RANKS)
        return r == 0 ? size - 1 : 0;
    if (r == 0)
        return ROOT_KIDS;
    if (r > ROOT_KIDS)
        return 0;
    per = (extra + ROOT_KIDS - 1) / ROOT_KIDS;
    if (per < 2)
        per = 2;
    *first = 1 + ROOT_KIDS + (r - 1) * per;
    n = size - *first;
    return n < 0 ? 0 : n > per ? per : n;
}

static int tree_parent(int r, int size)
{
    for (int p = 0; p < size; p++) {
        int first, n = tree_kids(p, size, &first);
        if (r >= first && r < first + n)
            return p;
    }
    return -1;
}

/* What an inner node knows of each of its children, by rank - sub_first. */
static struct sub {
    int busy;    /* working on a Search for this node */
    int seq;     /* the last Search this node sent it */
    int move;    /* this node's move that Search is about */
    int results; /* Results received from it, late ones too */
} sub[MAX_KIDS];
static int sub_first, nsub, sub_seq;

static void sub_control(int i, int what, int alpha, int beta)
{
    struct control ctl = {sub[i].seq, what, alpha, beta};
    MPI_Send(&ctl, sizeof ctl, MPI_BYTE, sub_first + i, TAG_CONTROL,
             MPI_COMM_WORLD);
}

/* Cancels the children's searches. */
static void sub_cancel_all(void)
{
    for (int i = 0; i < nsub; i++)
        if (sub[i].busy) {
            sub_control(i, CANCEL, 0, 0);
            sub[i].busy = 0;
        }
}

/* The children's new window: the node's, raised to its best value. */
static void sub_window(int best)
{
    int a = best > window_alpha ? best : window_alpha;
    for (int i = 0; i < nsub; i++)
        if (sub[i].busy)
            sub_control(i, WINDOW, -window_beta, -a);
}

static void answer_parent(const struct result *res)
{
    MPI_Send(res, sizeof *res, MPI_BYTE, parent, TAG_RESULT, MPI_COMM_WORLD);
    if (res->abandoned)
        my_stats.abandoned++;
    my_stats.searches++;
    job.seq = 0;
}

static void inner_node(void)
{
    int sq[MAX_MOVES], n = 0, next = 0, busy = 0, best = -INF, best_sq = -1;
    poll_hook = check_control;
    for (;;) {
        union {
            struct search search;
            struct control control;
            struct result result;
        } msg;
        MPI_Status st;
        int done = 0;
        MPI_Recv(&msg, sizeof msg, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
        if (st.MPI_SOURCE == parent && st.MPI_TAG == TAG_SEARCH) {
            job = msg.search;
            n = list_moves(legal_moves(job.me, job.opp), sq);
            if (n == 0 || job.depth == 0) {
                /* A pass, the game's end or a leaf: searched here. */
                struct result res = search_job(); /* counts it */
                MPI_Send(&res, sizeof res, MPI_BYTE, parent, TAG_RESULT,
                         MPI_COMM_WORLD);
                job.seq = 0;
                continue;
            }
            window_alpha = job.alpha;
            window_beta = job.beta;
            next = busy = 0;
            best = -INF;
            best_sq = -1;
        } else if (st.MPI_SOURCE == parent && st.MPI_TAG == TAG_CONTROL) {
            const struct control *ctl = &msg.control;
            if (ctl->what == CANCEL && ncancelled < MAX_CANCELLED)
                cancelled_seq[ncancelled++] = ctl->seq;
            if (ctl->seq != job.seq)
                continue; /* about a Search already answered */
            if (ctl->what == CANCEL) {
                struct result res = {job.seq, 0, -1, 1};
                sub_cancel_all();
                answer_parent(&res);
                continue;
            }
            if (ctl->alpha > window_alpha)
                window_alpha = ctl->alpha;
            if (ctl->beta < window_beta)
                window_beta = ctl->beta;
            if (best >= window_beta)
                done = 1;
            else
                sub_window(best);
        } else if (st.MPI_SOURCE == parent) { /* TAG_STOP */
            long long sub_nodes = 0;
            int late = 0;
            sub_cancel_all();
            for (int i = 0; i < nsub; i++)
                MPI_Send(NULL, 0, MPI_BYTE, sub_first + i, TAG_STOP,
                         MPI_COMM_WORLD);
            for (int i = 0; i < nsub; i++) {
                struct stats s;
                MPI_Recv(&s, sizeof s, MPI_BYTE, sub_first + i, TAG_STATS,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                late += s.searches - sub[i].results;
                sub_nodes += s.nodes;
            }
            while (late-- > 0)
                MPI_Recv(&msg, sizeof msg, MPI_BYTE, MPI_ANY_SOURCE,
                         TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            my_stats.nodes = nodes + sub_nodes; /* its subtree's */
            MPI_Send(&my_stats, sizeof my_stats, MPI_BYTE, parent, TAG_STATS,
                     MPI_COMM_WORLD);
            return;
        } else { /* a Result from a child */
            int i = st.MPI_SOURCE - sub_first;
            const struct result *res = &msg.result;
            sub[i].results++;
            /* The right stale check: a late answer to a cancelled Search,
             * or one the node no longer waits for. */
            if (job.seq == 0 || !sub[i].busy || res->seq != sub[i].seq)
                continue;
            sub[i].busy = 0;
            busy--;
            if (-res->value > best) {
                best = -res->value;
                best_sq = sub[i].move;
                if (best >= window_beta)
                    done = 1;
                else if (best > window_alpha)
                    sub_window(best);
            }
        }
        /* Every idle child gets the next move. */
        for (int i = 0; i < nsub && next < n && !done; i++) {
            if (sub[i].busy)
                continue;
            int a = best > window_alpha ? best : window_alpha;
            struct search s = {++sub_seq, job.depth - 1, -window_beta, -a,
                               job.move, sq[next], job.me, job.opp};
            play(&s.me, &s.opp, sq[next]);
            sub[i].busy = 1;
            sub[i].seq = s.seq;
            sub[i].move = sq[next];
            MPI_Send(&s, sizeof s, MPI_BYTE, sub_first + i, TAG_SEARCH,
                     MPI_COMM_WORLD);
            next++;
            busy++;
        }
        if (done || (next == n && busy == 0)) {
            struct result res = {job.seq, best, best_sq, 0};
            sub_cancel_all();
            answer_parent(&res);
        }
    }
}

/* RANK's place in the tree: its parent and its children (rank 0's in
 * nkids, the others' in sub_first and nsub). Returns -1 for rank 0, else
 * how many children RANK has: 0 for a searcher. */
static int tree_node(int rank, int size)
{
    int first;
    parent = tree_parent(rank, size);
    if (rank == 0)
        nkids = tree_kids(0, size, &first); /* ranks 1 to nkids */
    else
        nsub = tree_kids(rank, size, &sub_first);
    return rank == 0 ? -1 : nsub;
}

/* With more than 4 ranks, the tree: "tree: 0 -> 1,2,3; 1 -> 4,5; 2 -> 6". */
static void print_tree(int size)
{
    int first;
    if (size <= 4)
        return;
    printf("tree:");
    for (int r = 0, sep = 0; r < size; r++) {
        int n = tree_kids(r, size, &first);
        if (n == 0)
            continue;
        printf("%s %d ->", sep ? ";" : "", r);
        for (int i = 0; i < n; i++)
            printf("%s%d", i ? "," : " ", first + i);
        sep = 1;
    }
    printf("\n");
}
