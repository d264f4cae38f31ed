/* The optional compiled core of the Abalone max level (qipan.games.abalone.search).
 *
 * The same move generation, evaluation, quiescence and negamax as search.py, step for step, so a
 * search to a fixed depth gives the same move, value and node count. Python passes bitboards in
 * board.py's layout (16 bits a row, 5 cells of padding); here a position lives in one unsigned
 * 128-bit integer: 11 bits a row and one cell of padding (121 bits). One cell is enough: every
 * test of a cell j steps ahead is only made when the cell j - 1 steps ahead holds a marble, so it
 * lands on a real cell or on the padding, never wraps onto another row's cell.
 *
 * Moves are the integer ids of moves.move_id. Nothing here is needed: without a compiler
 * the package installs without this module and search.py runs in pure Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 bb;

#define W 11
#define NBITS 121
#define NCELLS 61
#define INLINE_IDS (NCELLS * 6)
#define NUM_ACTIONS (INLINE_IDS + NCELLS * 3 * 2 * 6)
#define MAXMOVES 256
#define WIN 1000000.0
#define LOSING_COUNT 8 /* MARBLES - TO_WIN */
#define QUIESCENCE_DEPTH 6
#define CHECK_EVERY 1023
#define NULL_REDUCTION 2
#define LATE_MOVES 4
#define EPS 1e-3
#define EXACT 0
#define LOWER 1
#define UPPER 2

static const int DR[6] = {0, 1, 1, 0, -1, -1};
static const int DN[6] = {1, 1, 0, -1, -1, 0};
static int DELTA[6];          /* bit offset of one step, per direction */
static int CELL[NCELLS];      /* bit of each cell, in board.CELLS order */
static int PYBIT[NCELLS];     /* the same cell in board.py's layout */
static int POS[NBITS];        /* cell position 0..60, -1 off the board */
static int RING[NBITS];
static bb VALID, UNIVERSE, OFF, EDGE, RINGS[5];

typedef struct {
    int first, dir, size, axis;
    bb line;
} MoveInfo;
static MoveInfo MOVES[NUM_ACTIONS];
static char MOVE_OK[NUM_ACTIONS];
static int INLINE_ID[6][NBITS];
static int INLINE_RANK[6][3][NBITS];
static int BROAD_ID[3][2][6][NBITS];
static int BROAD_RANK[3][2][6][NBITS];
/* per axis (steps 1, 12, 11): cells 3, 4, 5 steps before an off-board cell ahead and behind, and
   the target masks of tactics() */
static bb A3[3], A4[3], A5[3], B3[3], B4[3], B5[3], A1[3], B1[3];

static inline int popcount(bb x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int lowest(bb x) {
    uint64_t low = (uint64_t)x;
    return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

#define BIT(c) ((bb)1 << (c))
#define HAS(x, c) ((int)((x) >> (c)) & 1)
/* what lies j steps ahead of each cell, moved onto the cell (direction with offset delta) */
static inline bb ahead(bb x, int delta, int j) {
    return delta > 0 ? x >> (j * delta) : x << (j * -delta);
}

static int on_board(int row, int number) {
    int lo = row - 3 > 1 ? row - 3 : 1, hi = row + 5 < 9 ? row + 5 : 9;
    return row >= 0 && row <= 8 && number >= lo && number <= hi;
}

static void init_tables(void) {
    int n = 0;
    for (int d = 0; d < 6; d++) DELTA[d] = DR[d] * W + DN[d];
    for (int b = 0; b < NBITS; b++) POS[b] = RING[b] = -1;
    VALID = EDGE = 0;
    for (int k = 0; k < 5; k++) RINGS[k] = 0;
    for (int row = 0; row < 9; row++) {
        for (int number = 1; number <= 9; number++) {
            if (!on_board(row, number)) continue;
            int b = (row + 1) * W + number, dr = row - 4, dn = number - 5, r;
            r = abs(dr) > abs(dn) ? abs(dr) : abs(dn);
            if (abs(dr - dn) > r) r = abs(dr - dn);
            CELL[n] = b;
            PYBIT[n] = (row + 5) * 16 + number - 1 + 5;
            POS[b] = n++;
            RING[b] = r;
            VALID |= BIT(b);
            RINGS[r] |= BIT(b);
        }
    }
    UNIVERSE = (BIT(NBITS)) - 1;
    OFF = UNIVERSE & ~VALID;
    EDGE = RINGS[4];
    memset(MOVE_OK, 0, sizeof MOVE_OK);
    for (int d = 0; d < 6; d++)
        for (int b = 0; b < NBITS; b++) {
            INLINE_ID[d][b] = -1;
            for (int s = 0; s < 3; s++) INLINE_RANK[d][s][b] = 0;
            for (int a = 0; a < 3; a++)
                for (int s = 0; s < 2; s++) BROAD_ID[a][s][d][b] = -1, BROAD_RANK[a][s][d][b] = 0;
        }
    for (int p = 0; p < NCELLS; p++) {
        int c = CELL[p];
        for (int d = 0; d < 6; d++) {
            if (POS[c + DELTA[d]] < 0) continue;
            int id = p * 6 + d;
            MOVES[id] = (MoveInfo){c, d, 0, -1, 0};
            MOVE_OK[id] = 1;
            INLINE_ID[d][c] = id;
            for (int s = 1; s <= 3; s++) {
                int head = c + s * DELTA[d];
                /* on the board whenever a line of s marbles can step there (padding is one cell) */
                if (head >= 0 && head < NBITS && POS[head] >= 0 && (s == 1 || POS[c + (s - 1) * DELTA[d]] >= 0))
                    INLINE_RANK[d][s - 1][c] = RING[head] - RING[c];
            }
        }
        for (int axis = 0; axis < 3; axis++)
            for (int size = 2; size <= 3; size++)
                for (int d = 0; d < 6; d++) {
                    if (d == axis || d == axis + 3) continue;
                    int ok = 1;
                    bb line = 0;
                    for (int i = 0; i < size && ok; i++) {
                        int x = c + i * DELTA[axis];
                        if (x >= NBITS || POS[x] < 0 || POS[x + DELTA[d]] < 0) ok = 0;
                        else line |= BIT(x);
                    }
                    if (!ok) continue;
                    int id = INLINE_IDS + ((p * 3 + axis) * 2 + size - 2) * 6 + d;
                    MOVES[id] = (MoveInfo){c, d, size, axis, line};
                    MOVE_OK[id] = 1;
                    BROAD_ID[axis][size - 2][d][c] = id;
                    BROAD_RANK[axis][size - 2][d][c] = RING[c + DELTA[d]] - RING[c];
                }
    }
    for (int a = 0; a < 3; a++) {
        int k = DELTA[a];
        A3[a] = OFF >> 3 * k, A4[a] = OFF >> 4 * k, A5[a] = OFF >> 5 * k;
        B3[a] = OFF << 3 * k, B4[a] = OFF << 4 * k, B5[a] = OFF << 5 * k;
        A1[a] = (EDGE & OFF >> k) >> k;
        B1[a] = EDGE & OFF << k;
    }
}

/* --- rules ------------------------------------------------------------------------------------ */

static bb inline_bits(bb own, bb opp, bb empty, bb freec, int d) {
    int k = DELTA[d];
    bb own1 = ahead(own, k, 1), own2 = ahead(own, k, 2);
    bb singles = own & ~own1 & ahead(empty, k, 1);
    bb pairs = own & own1 & ~own2 & (ahead(empty, k, 2) | (ahead(opp, k, 2) & ahead(freec, k, 3)));
    if (!(own & own1 & own2)) return singles | pairs;
    bb push = ahead(freec, k, 4) | (ahead(opp, k, 4) & ahead(freec, k, 5));
    bb triples = own & own1 & own2 & ~ahead(own, k, 3) & (ahead(empty, k, 3) | (ahead(opp, k, 3) & push));
    return singles | pairs | triples;
}

static int is_legal(bb own, bb opp, int id) {
    const MoveInfo *m = &MOVES[id];
    bb occupied = own | opp;
    if (m->size == 0)
        return HAS(inline_bits(own, opp, VALID & ~occupied, UNIVERSE & ~occupied, m->dir), m->first);
    bb dest = ahead(m->line, -DELTA[m->dir], 1);
    return (own & m->line) == m->line && (VALID & ~occupied & dest) == dest;
}

static void perform(bb own, bb opp, int id, bb *out_own, bb *out_opp) {
    const MoveInfo *m = &MOVES[id];
    int delta = DELTA[m->dir];
    if (m->size) {
        *out_own = (own & ~m->line) | ahead(m->line, -delta, 1);
        *out_opp = opp;
        return;
    }
    int front = m->first + delta, size = 1;
    while (size < 3 && HAS(own, front)) front += delta, size++;
    own = (own & ~BIT(m->first)) | BIT(front);
    if (HAS(opp, front)) {
        int beyond = front + delta;
        if (HAS(opp, beyond)) beyond += delta;
        opp &= ~BIT(front);
        if (beyond >= 0 && beyond < NBITS && POS[beyond] >= 0) opp |= BIT(beyond);
    }
    *out_own = own;
    *out_opp = opp;
}

typedef struct {
    int rank, move;
} Ranked;

static int add_cells(bb bits, const int *ids, int *out, int n) {
    while (bits) {
        int c = lowest(bits);
        bits &= bits - 1;
        out[n++] = ids[c];
    }
    return n;
}

static int add_ranked(bb bits, const int *ids, const int *ranks, Ranked *out, int n) {
    while (bits) {
        int c = lowest(bits);
        bits &= bits - 1;
        out[n].rank = ranks[c];
        out[n++].move = ids[c];
    }
    return n;
}

/* search.ordered_moves: ejecting pushes, other pushes, then the rest by centre gain (stable). */
static int ordered_moves(bb own, bb opp, int *out) {
    bb occupied = own | opp, empty = VALID & ~occupied, freec = UNIVERSE & ~occupied;
    int ejections[MAXMOVES], pushes[MAXMOVES], ne = 0, np = 0, nq = 0, n = 0;
    Ranked quiet[MAXMOVES];
    for (int d = 0; d < 6; d++) {
        int k = DELTA[d];
        bb own1 = ahead(own, k, 1), own2 = ahead(own, k, 2), own3 = ahead(own, k, 3);
        bb lines[3] = {own & ~own1, own & own1 & ~own2, own & own1 & own2 & ~own3};
        for (int s = 0; s < 3; s++) {
            bb moving = lines[s] & ahead(empty, k, s + 1);
            if (moving) nq = add_ranked(moving, INLINE_ID[d], INLINE_RANK[d][s], quiet, nq);
        }
        bb opp4 = ahead(opp, k, 4);
        bb pair_push = lines[1] & ahead(opp, k, 2) & ahead(freec, k, 3);
        bb triple_push = lines[2] & ahead(opp, k, 3) & (ahead(freec, k, 4) | (opp4 & ahead(freec, k, 5)));
        if (pair_push | triple_push) {
            bb eject = (pair_push & ahead(OFF, k, 3)) | (triple_push & (ahead(OFF, k, 4) | (opp4 & ahead(OFF, k, 5))));
            ne = add_cells(eject, INLINE_ID[d], ejections, ne);
            np = add_cells((pair_push | triple_push) & ~eject, INLINE_ID[d], pushes, np);
        }
    }
    for (int axis = 0; axis < 3; axis++) {
        int ka = DELTA[axis];
        for (int d = 0; d < 6; d++) {
            if (d == axis || d == axis + 3) continue;
            bb dest = ahead(empty, DELTA[d], 1);
            bb pairs = own & own >> ka & dest & dest >> ka;
            if (!pairs) continue;
            nq = add_ranked(pairs, BROAD_ID[axis][0][d], BROAD_RANK[axis][0][d], quiet, nq);
            bb triples = pairs & own >> 2 * ka & dest >> 2 * ka;
            if (triples) nq = add_ranked(triples, BROAD_ID[axis][1][d], BROAD_RANK[axis][1][d], quiet, nq);
        }
    }
    for (int i = 0; i < ne; i++) out[n++] = ejections[i];
    for (int i = 0; i < np; i++) out[n++] = pushes[i];
    /* a stable counting sort: ranks are ring differences, -3..3 */
    for (int r = -4; r <= 4; r++)
        for (int i = 0; i < nq; i++)
            if (quiet[i].rank == r) out[n++] = quiet[i].move;
    return n;
}

static int ejecting_moves(bb own, bb opp, int *out) {
    int n = 0;
    for (int d = 0; d < 6; d++) {
        int k = DELTA[d];
        bb two = own & ahead(own, k, 1);
        bb pair = two & ~ahead(own, k, 2) & ahead(opp, k, 2) & ahead(OFF, k, 3);
        bb triple = two & ahead(own, k, 2) & ahead(opp, k, 3) &
                    (ahead(OFF, k, 4) | (ahead(opp, k, 4) & ahead(OFF, k, 5)));
        if (pair | triple) n = add_cells(pair | triple, INLINE_ID[d], out, n);
    }
    return n;
}

/* --- evaluation ---------------------------------------------------------------------------- */

typedef struct {
    double material, centre, cohesion, edge, push, threat;
    int extra;
    double to_move_threat, double_threat, target, wedge, press;
} Terms;

static void tactics(bb own, bb opp, int r[5]) {
    bb freec = UNIVERSE & ~(own | opp), contact, two, x, y;
    int my_pushes = 0, my_threats = 0, their_pushes = 0, their_threats = 0, targets = 0;
    for (int a = 0; a < 3; a++) {
        int k = DELTA[a], k2 = 2 * k, k3 = 3 * k, k4 = 4 * k, k5 = 5 * k;
        contact = own & opp >> k;
        if (contact) {
            targets += popcount(contact & A1[a]) - popcount(contact & B1[a]);
            two = own & own >> k;
            x = two & opp >> k2;
            if (x) {
                my_pushes += popcount(x & freec >> k3);
                my_threats += popcount(x & A3[a]);
            }
            x = two & own >> k2 & opp >> k3;
            if (x) {
                y = opp >> k4 & freec >> k5;
                my_pushes += popcount(x & ((freec >> k4) | y));
                my_threats += popcount(x & (A4[a] | (y & A5[a])));
            }
            two = opp & opp << k;
            x = two & own << k2;
            if (x) {
                their_pushes += popcount(x & freec << k3);
                their_threats += popcount(x & B3[a]);
            }
            x = two & opp << k2 & own << k3;
            if (x) {
                y = own << k4 & freec << k5;
                their_pushes += popcount(x & ((freec << k4) | y));
                their_threats += popcount(x & (B4[a] | (y & B5[a])));
            }
        }
        contact = opp & own >> k;
        if (contact) {
            targets += popcount(contact & B1[a]) - popcount(contact & A1[a]);
            two = opp & opp >> k;
            x = two & own >> k2;
            if (x) {
                their_pushes += popcount(x & freec >> k3);
                their_threats += popcount(x & A3[a]);
            }
            x = two & opp >> k2 & own >> k3;
            if (x) {
                y = own >> k4 & freec >> k5;
                their_pushes += popcount(x & ((freec >> k4) | y));
                their_threats += popcount(x & (A4[a] | (y & A5[a])));
            }
            two = own & own << k;
            x = two & opp << k2;
            if (x) {
                my_pushes += popcount(x & freec << k3);
                my_threats += popcount(x & B3[a]);
            }
            x = two & own << k2 & opp << k3;
            if (x) {
                y = opp << k4 & freec << k5;
                my_pushes += popcount(x & ((freec << k4) | y));
                my_threats += popcount(x & (B4[a] | (y & B5[a])));
            }
        }
    }
    r[0] = my_pushes, r[1] = my_threats, r[2] = their_pushes, r[3] = their_threats, r[4] = targets;
}

static int centre(bb bits) {
    return popcount(bits & RINGS[1]) + 2 * popcount(bits & RINGS[2]) + 3 * popcount(bits & RINGS[3]) +
           4 * popcount(bits & RINGS[4]);
}

static int pairs(bb bits) {
    return popcount(bits & bits >> DELTA[0]) + popcount(bits & bits >> DELTA[1]) + popcount(bits & bits >> DELTA[2]);
}

static int wedged(bb own, bb opp) {
    int n = 0;
    for (int a = 0; a < 3; a++) n += popcount(own & opp << DELTA[a] & opp >> DELTA[a]);
    return n;
}

/* search.evaluate: the positional value for the side to move, and its ejecting pushes. The float
   operations are Python's, in Python's order, so the values are equal to the last bit. */
static double evaluate(const Terms *t, bb own, bb opp, int *threats) {
    int r[5];
    tactics(own, opp, r);
    double value = t->centre * (double)(centre(opp) - centre(own));
    value = value + t->cohesion * (double)(pairs(own) - pairs(opp));
    value = value + t->edge * (double)(popcount(opp & EDGE) - popcount(own & EDGE));
    value = value + t->push * (double)(r[0] - r[2]);
    value = value + t->threat * (double)(r[1] - r[3]);
    if (t->extra) {
        value += t->to_move_threat * (double)r[1] + t->target * (double)r[4];
        if (r[3] > 1) value -= t->double_threat;
        if (t->wedge != 0.0) value += t->wedge * (double)(wedged(own, opp) - wedged(opp, own));
        if (t->press != 0.0) {
            int lead = popcount(own) - popcount(opp);
            if (lead > 0) value += t->press * (double)lead * (double)centre(opp);
            else if (lead < 0) value += t->press * (double)lead * (double)centre(own);
        }
    }
    *threats = r[1];
    return value;
}

/* --- the transposition table: exact keys, so it behaves as search.py's dict ---------------- */

typedef struct {
    bb own, opp;
    int quiet, used;
    int depth, flag, move;
    double value;
} Entry;

typedef struct {
    Entry *slots;
    size_t capacity, count;
} Table;

static size_t hash_key(bb own, bb opp, int quiet) {
    uint64_t h = (uint64_t)own * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)(own >> 64) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (h >> 29) ^ (uint64_t)opp * 0x165667B19E3779F9ULL;
    h ^= (uint64_t)(opp >> 64) * 0xD6E8FEB86659FD93ULL + (uint64_t)quiet * 0x27D4EB2F165667C5ULL;
    return (size_t)(h ^ (h >> 31));
}

static Entry *table_find(Table *t, bb own, bb opp, int quiet) {
    if (!t->capacity) return NULL;
    size_t mask = t->capacity - 1, i = hash_key(own, opp, quiet) & mask;
    while (t->slots[i].used) {
        Entry *e = &t->slots[i];
        if (e->own == own && e->opp == opp && e->quiet == quiet) return e;
        i = (i + 1) & mask;
    }
    return NULL;
}

static int table_grow(Table *t) {
    size_t capacity = t->capacity ? 2 * t->capacity : 4096;
    Entry *slots = calloc(capacity, sizeof(Entry));
    if (!slots) return -1;
    for (size_t j = 0; j < t->capacity; j++) {
        Entry *e = &t->slots[j];
        if (!e->used) continue;
        size_t i = hash_key(e->own, e->opp, e->quiet) & (capacity - 1);
        while (slots[i].used) i = (i + 1) & (capacity - 1);
        slots[i] = *e;
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
    return 0;
}

/* store (replacing any entry of the key); -1 when out of memory (the entry is then left out) */
static int table_store(Table *t, bb own, bb opp, int quiet, int depth, double value, int flag, int move) {
    Entry *e = table_find(t, own, opp, quiet);
    if (!e) {
        if (2 * (t->count + 1) > t->capacity && table_grow(t) < 0) return -1;
        size_t mask = t->capacity - 1, i = hash_key(own, opp, quiet) & mask;
        while (t->slots[i].used) i = (i + 1) & mask;
        e = &t->slots[i];
        e->own = own, e->opp = opp, e->quiet = quiet, e->used = 1;
        t->count++;
    }
    e->depth = depth, e->value = value, e->flag = flag, e->move = move;
    return 0;
}

static void table_clear(Table *t) {
    free(t->slots);
    t->slots = NULL;
    t->capacity = t->count = 0;
}

/* --- the search ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Terms terms;
    int quiescence, null_move, reductions, limit, busy, timed_out, out_of_memory;
    long long table_size, nodes;
    double deadline; /* CLOCK_MONOTONIC seconds; INFINITY: none */
    Table table;
    long long history[NUM_ACTIONS];
    int history_any;
    int *killers; /* two per ply, -1: none */
    int plies;
} Searcher;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int tick(Searcher *s) {
    s->nodes++;
    if (!(s->nodes & CHECK_EVERY) && s->deadline < INFINITY && now() > s->deadline) s->timed_out = 1;
    return s->timed_out;
}

static double to_table(double v, int ply) {
    return v > WIN / 2 ? v + ply : v < -WIN / 2 ? v - ply : v;
}

static double from_table(double v, int ply) {
    return v > WIN / 2 ? v - ply : v < -WIN / 2 ? v + ply : v;
}

static double material(const Searcher *s, bb own, bb opp, int quiet) {
    double share = s->limit ? (double)(s->limit - quiet) / (double)s->limit : 1.0;
    return s->terms.material * share * (double)(popcount(own) - popcount(opp));
}

static double quiesce(Searcher *s, bb own, bb opp, int quiet, double alpha, double beta, int ply, int left) {
    if (tick(s)) return 0.0;
    int threats, moves[MAXMOVES];
    double positional = evaluate(&s->terms, own, opp, &threats);
    double value = material(s, own, opp, quiet) + positional;
    if (!threats || !s->quiescence || !left || value >= beta) return value;
    if (value > alpha) alpha = value;
    int losing = popcount(opp) - 1 <= LOSING_COUNT;
    int n = ejecting_moves(own, opp, moves);
    for (int i = 0; i < n; i++) {
        if (losing) return WIN - ply - 1;
        bb after_own, after_opp;
        perform(own, opp, moves[i], &after_own, &after_opp);
        double child = -quiesce(s, after_opp, after_own, 0, -beta, -alpha, ply + 1, left - 1);
        if (s->timed_out) return 0.0;
        if (child > value) {
            value = child;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    return value;
}

static void sort_by_history(const Searcher *s, int *moves, int n) {
    /* sorted(moves, key=history, reverse=True): stable, so an insertion sort on "greater" */
    for (int i = 1; i < n; i++) {
        int m = moves[i], j = i;
        long long h = s->history[m];
        while (j > 0 && s->history[moves[j - 1]] < h) moves[j] = moves[j - 1], j--;
        moves[j] = m;
    }
}

static double negamax(Searcher *s, bb own, bb opp, int quiet, int depth, double alpha, double beta, int ply,
                      int null_ok) {
    if (depth <= 0) return quiesce(s, own, opp, quiet, alpha, beta, ply, QUIESCENCE_DEPTH);
    if (tick(s)) return 0.0;
    Entry *entry = table_find(&s->table, own, opp, quiet);
    int had_entry = entry != NULL, tt_move = -1;
    if (entry) {
        tt_move = entry->move;
        if (entry->depth >= depth) {
            double v = from_table(entry->value, ply);
            if (entry->flag == EXACT || (entry->flag == LOWER && v >= beta) || (entry->flag == UPPER && v <= alpha))
                return v;
        }
    }
    if (null_ok && s->null_move && depth >= 3 && beta < WIN / 2) {
        int threats;
        double positional = evaluate(&s->terms, own, opp, &threats);
        if (material(s, own, opp, quiet) + positional >= beta) {
            double v = -negamax(s, opp, own, quiet, depth - 1 - NULL_REDUCTION, -beta, -beta + EPS, ply + 1, 0);
            if (s->timed_out) return 0.0;
            if (v >= beta) return v;
        }
    }
    double alpha0 = alpha, best_value = -INFINITY;
    int best_move = -1, n_opp = popcount(opp), reduce = s->reductions && depth >= 3, limit = s->limit;
    int *killers = ply < s->plies ? &s->killers[2 * ply] : NULL;
    int tried[3], ntried = 0, stage = 0, next_killer = 0, index = 0, generated = -1, next_move = 0;
    int moves[MAXMOVES];
    for (;;) {
        int move;
        if (stage == 0) { /* the table move */
            stage = 1;
            if (tt_move < 0) continue;
            move = tried[ntried++] = tt_move;
        } else if (stage == 1) { /* the legal killer moves */
            if (!killers || next_killer >= 2) {
                stage = 2;
                continue;
            }
            int k = killers[next_killer++];
            if (k < 0 || k == tt_move || !is_legal(own, opp, k)) continue;
            move = tried[ntried++] = k;
        } else { /* the rest, generated only now (and ordered by the history as it is now) */
            if (generated < 0) {
                generated = ordered_moves(own, opp, moves);
                if (depth > 1 && s->history_any) sort_by_history(s, moves, generated);
            }
            if (next_move >= generated) break;
            move = moves[next_move++];
            int seen = 0;
            for (int i = 0; i < ntried; i++) seen |= tried[i] == move;
            if (seen) continue;
        }
        bb after_own, after_opp;
        double value;
        perform(own, opp, move, &after_own, &after_opp);
        if (after_opp != opp && popcount(after_opp) < n_opp) {
            if (n_opp - 1 <= LOSING_COUNT) value = WIN - ply - 1;
            else value = -negamax(s, after_opp, after_own, 0, depth - 1, -beta, -alpha, ply + 1, 1);
        } else if (limit && quiet + 1 >= limit) {
            value = 0.0;
        } else if (reduce && index >= LATE_MOVES && after_opp == opp) {
            value = -negamax(s, after_opp, after_own, quiet + 1, depth - 2, -alpha - EPS, -alpha, ply + 1, 1);
            if (s->timed_out) return 0.0;
            if (value > alpha) value = -negamax(s, after_opp, after_own, quiet + 1, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            value = -negamax(s, after_opp, after_own, quiet + 1, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        if (s->timed_out) return 0.0;
        index++;
        if (value > best_value) {
            best_value = value, best_move = move;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    s->history[move] += (long long)depth * depth;
                    s->history_any = 1;
                    if (killers && killers[0] != move) killers[1] = killers[0], killers[0] = move;
                    break;
                }
            }
        }
    }
    if (best_move < 0) return -(WIN - ply);
    int flag = best_value <= alpha0 ? UPPER : best_value >= beta ? LOWER : EXACT;
    if (had_entry || (long long)s->table.count < s->table_size) {
        if (table_store(&s->table, own, opp, quiet, depth, to_table(best_value, ply), flag, best_move) < 0)
            s->out_of_memory = 1;
    }
    return best_value;
}

static double child(Searcher *s, bb own, bb opp, int quiet, int move, int depth, double alpha, double beta, int ply) {
    bb after_own, after_opp;
    perform(own, opp, move, &after_own, &after_opp);
    if (popcount(after_opp) < popcount(opp)) {
        if (popcount(after_opp) <= LOSING_COUNT) return WIN - ply - 1;
        return -negamax(s, after_opp, after_own, 0, depth - 1, alpha, beta, ply + 1, 1);
    }
    if (s->limit && quiet + 1 >= s->limit) return 0.0;
    return -negamax(s, after_opp, after_own, quiet + 1, depth - 1, alpha, beta, ply + 1, 1);
}

/* --- Python glue ------------------------------------------------------------------------------ */

static PyObject *SIXTY_FOUR;

/* a bitboard of board.py's layout (a Python int) in this file's layout */
static int to_bb(PyObject *obj, bb *out) {
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard is an int");
        return -1;
    }
    uint64_t chunk[5];
    PyObject *x = obj;
    Py_INCREF(x);
    for (int i = 0; i < 5; i++) {
        chunk[i] = PyLong_AsUnsignedLongLongMask(x);
        PyObject *y = PyNumber_Rshift(x, SIXTY_FOUR);
        Py_DECREF(x);
        if (!y) return -1;
        x = y;
    }
    int rest = PyObject_IsTrue(x);
    Py_DECREF(x);
    if (rest < 0) return -1;
    bb result = 0;
    int count = 0;
    for (int p = 0; p < NCELLS; p++)
        if (chunk[PYBIT[p] / 64] >> (PYBIT[p] % 64) & 1) result |= BIT(CELL[p]), count++;
    int total = 0;
    for (int i = 0; i < 5; i++) total += __builtin_popcountll(chunk[i]);
    if (rest || total != count || _PyLong_Sign(obj) < 0) {
        PyErr_SetString(PyExc_ValueError, "a bitboard holds cells of the board only");
        return -1;
    }
    *out = result;
    return 0;
}

static PyObject *from_bb(bb x) {
    uint64_t chunk[5] = {0, 0, 0, 0, 0};
    for (int p = 0; p < NCELLS; p++)
        if (HAS(x, CELL[p])) chunk[PYBIT[p] / 64] |= (uint64_t)1 << (PYBIT[p] % 64);
    PyObject *result = PyLong_FromUnsignedLongLong(chunk[4]);
    for (int i = 3; i >= 0 && result; i--) {
        PyObject *shifted = PyNumber_Lshift(result, SIXTY_FOUR);
        Py_DECREF(result);
        if (!shifted) return NULL;
        PyObject *low = PyLong_FromUnsignedLongLong(chunk[i]);
        if (!low) {
            Py_DECREF(shifted);
            return NULL;
        }
        result = PyNumber_Or(shifted, low);
        Py_DECREF(shifted);
        Py_DECREF(low);
    }
    return result;
}

static int to_move_id(PyObject *obj, int *out) {
    long id = PyLong_AsLong(obj);
    if (id == -1 && PyErr_Occurred()) return -1;
    if (id < 0 || id >= NUM_ACTIONS || !MOVE_OK[id]) {
        PyErr_SetString(PyExc_ValueError, "not an Abalone move id");
        return -1;
    }
    *out = (int)id;
    return 0;
}

static int parse_position(PyObject *own_obj, PyObject *opp_obj, bb *own, bb *opp) {
    if (to_bb(own_obj, own) < 0 || to_bb(opp_obj, opp) < 0) return -1;
    if (*own & *opp) {
        PyErr_SetString(PyExc_ValueError, "the two sides overlap");
        return -1;
    }
    return 0;
}

static PyObject *id_list(const int *ids, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(ids[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int parse_terms(PyObject *obj, Terms *t) {
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "terms: a Terms tuple");
        return -1;
    }
    return PyArg_ParseTuple(obj, "ddddddpddddd;terms: a Terms tuple", &t->material, &t->centre, &t->cohesion,
                            &t->edge, &t->push, &t->threat, &t->extra, &t->to_move_threat, &t->double_threat,
                            &t->target, &t->wedge, &t->press) ? 0 : -1;
}

static PyObject *py_ordered_moves(PyObject *self, PyObject *args) {
    PyObject *a, *b;
    bb own, opp;
    int moves[MAXMOVES];
    if (!PyArg_ParseTuple(args, "OO", &a, &b) || parse_position(a, b, &own, &opp) < 0) return NULL;
    return id_list(moves, ordered_moves(own, opp, moves));
}

static PyObject *py_ejecting_moves(PyObject *self, PyObject *args) {
    PyObject *a, *b;
    bb own, opp;
    int moves[MAXMOVES];
    if (!PyArg_ParseTuple(args, "OO", &a, &b) || parse_position(a, b, &own, &opp) < 0) return NULL;
    return id_list(moves, ejecting_moves(own, opp, moves));
}

static PyObject *py_perform(PyObject *self, PyObject *args) {
    PyObject *a, *b, *m;
    bb own, opp, after_own, after_opp;
    int id;
    if (!PyArg_ParseTuple(args, "OOO", &a, &b, &m) || parse_position(a, b, &own, &opp) < 0 || to_move_id(m, &id) < 0)
        return NULL;
    if (!is_legal(own, opp, id)) {
        PyErr_SetString(PyExc_ValueError, "not a legal move here");
        return NULL;
    }
    perform(own, opp, id, &after_own, &after_opp);
    PyObject *x = from_bb(after_own), *y = x ? from_bb(after_opp) : NULL;
    if (!y) {
        Py_XDECREF(x);
        return NULL;
    }
    return Py_BuildValue("(NN)", x, y);
}

static PyObject *py_is_legal(PyObject *self, PyObject *args) {
    PyObject *a, *b, *m;
    bb own, opp;
    int id;
    if (!PyArg_ParseTuple(args, "OOO", &a, &b, &m) || parse_position(a, b, &own, &opp) < 0 || to_move_id(m, &id) < 0)
        return NULL;
    return PyBool_FromLong(is_legal(own, opp, id));
}

static PyObject *py_tactics(PyObject *self, PyObject *args) {
    PyObject *a, *b;
    bb own, opp;
    int r[5];
    if (!PyArg_ParseTuple(args, "OO", &a, &b) || parse_position(a, b, &own, &opp) < 0) return NULL;
    tactics(own, opp, r);
    return Py_BuildValue("(iiiii)", r[0], r[1], r[2], r[3], r[4]);
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *a, *b, *terms_obj;
    bb own, opp;
    Terms terms;
    int threats;
    if (!PyArg_ParseTuple(args, "OOO", &a, &b, &terms_obj) || parse_position(a, b, &own, &opp) < 0 ||
        parse_terms(terms_obj, &terms) < 0)
        return NULL;
    double value = evaluate(&terms, own, opp, &threats);
    return Py_BuildValue("(di)", value, threats);
}

static int Searcher_init(Searcher *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"terms", "quiescence", "null_move", "reductions", "table_size", NULL};
    PyObject *terms;
    long long table_size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OpppL", kwlist, &terms, &s->quiescence, &s->null_move,
                                     &s->reductions, &table_size) ||
        parse_terms(terms, &s->terms) < 0)
        return -1;
    if (table_size < 0) {
        PyErr_SetString(PyExc_ValueError, "table_size must be >= 0");
        return -1;
    }
    s->table_size = table_size;
    s->deadline = INFINITY;
    return 0;
}

static void Searcher_dealloc(Searcher *s) {
    table_clear(&s->table);
    free(s->killers);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int check_idle(Searcher *s) {
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is already searching");
        return -1;
    }
    return 0;
}

static PyObject *Searcher_forget(Searcher *s, PyObject *unused) {
    if (check_idle(s) < 0) return NULL;
    table_clear(&s->table);
    memset(s->history, 0, sizeof s->history);
    s->history_any = 0;
    Py_RETURN_NONE;
}

static int new_killers(Searcher *s, int plies) {
    if (plies < 0 || plies > 100000) {
        PyErr_SetString(PyExc_ValueError, "plies: 0..100000");
        return -1;
    }
    int *killers = malloc(sizeof(int) * 2 * (size_t)(plies ? plies : 1));
    if (!killers) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < 2 * plies; i++) killers[i] = -1;
    free(s->killers);
    s->killers = killers;
    s->plies = plies;
    return 0;
}

static PyObject *Searcher_new_killers(Searcher *s, PyObject *args) {
    int plies;
    if (!PyArg_ParseTuple(args, "i", &plies) || check_idle(s) < 0 || new_killers(s, plies) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Searcher_reset(Searcher *s, PyObject *args) {
    int limit, plies;
    if (!PyArg_ParseTuple(args, "ii", &limit, &plies) || check_idle(s) < 0) return NULL;
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limit: >= 0");
        return NULL;
    }
    if (new_killers(s, plies) < 0) return NULL;
    s->limit = limit;
    s->nodes = 0;
    return Searcher_forget(s, NULL);
}

static double deadline_after(double remaining) {
    return remaining < INFINITY ? now() + remaining : INFINITY;
}

static PyObject *finish(Searcher *s) {
    s->busy = 0;
    if (s->out_of_memory) {
        s->out_of_memory = 0;
        PyErr_NoMemory();
        return NULL;
    }
    return (PyObject *)s; /* not NULL */
}

/* child(own, opp, quiet, move, depth, alpha, beta, ply, remaining) -> (timed_out, value): search._child */
static PyObject *Searcher_child(Searcher *s, PyObject *args) {
    PyObject *a, *b, *m;
    int quiet, depth, ply, id;
    double alpha, beta, remaining, value;
    bb own, opp;
    if (!PyArg_ParseTuple(args, "OOiOiddid", &a, &b, &quiet, &m, &depth, &alpha, &beta, &ply, &remaining) ||
        check_idle(s) < 0 || parse_position(a, b, &own, &opp) < 0 || to_move_id(m, &id) < 0)
        return NULL;
    if (!is_legal(own, opp, id)) {
        PyErr_SetString(PyExc_ValueError, "child: not a legal move here");
        return NULL;
    }
    s->busy = 1;
    s->timed_out = 0;
    s->deadline = deadline_after(remaining);
    Py_BEGIN_ALLOW_THREADS
    value = child(s, own, opp, quiet, id, depth, alpha, beta, ply);
    Py_END_ALLOW_THREADS
    if (!finish(s)) return NULL;
    return Py_BuildValue("(id)", s->timed_out, value);
}

/* probe(own, opp, quiet) -> the table's best move there, or None */
static PyObject *Searcher_probe(Searcher *s, PyObject *args) {
    PyObject *a, *b;
    int quiet;
    bb own, opp;
    if (!PyArg_ParseTuple(args, "OOi", &a, &b, &quiet) || check_idle(s) < 0 || parse_position(a, b, &own, &opp) < 0)
        return NULL;
    Entry *e = table_find(&s->table, own, opp, quiet);
    if (!e) Py_RETURN_NONE;
    return PyLong_FromLong(e->move);
}

static PyObject *Searcher_get_nodes(Searcher *s, void *closure) {
    return PyLong_FromLongLong(s->nodes);
}

static PyObject *Searcher_get_entries(Searcher *s, void *closure) {
    return PyLong_FromSize_t(s->table.count);
}

static PyMethodDef Searcher_methods[] = {
    {"reset", (PyCFunction)Searcher_reset, METH_VARARGS, "reset(limit, plies): a new search (tables emptied)"},
    {"forget", (PyCFunction)Searcher_forget, METH_NOARGS, "empty the table and the history"},
    {"new_killers", (PyCFunction)Searcher_new_killers, METH_VARARGS, "new_killers(plies): no killer moves"},
    {"child", (PyCFunction)Searcher_child, METH_VARARGS, "the value of one move for the side playing it"},
    {"probe", (PyCFunction)Searcher_probe, METH_VARARGS, "the table's move at a position, or None"},
    {NULL}};

static PyGetSetDef Searcher_getset[] = {
    {"nodes", (getter)Searcher_get_nodes, NULL, "nodes searched since reset", NULL},
    {"entries", (getter)Searcher_get_entries, NULL, "entries in the table", NULL},
    {NULL}};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "qipan.games.abalone._fast.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The negamax of search.AbaloneSearch with its tables (one search at a time).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};

static PyMethodDef module_methods[] = {
    {"ordered_moves", py_ordered_moves, METH_VARARGS, "search.ordered_moves, as move ids"},
    {"ejecting_moves", py_ejecting_moves, METH_VARARGS, "search.ejecting_moves, as move ids"},
    {"perform", py_perform, METH_VARARGS, "moves.perform of a legal move id"},
    {"is_legal", py_is_legal, METH_VARARGS, "moves.is_legal of a move id"},
    {"tactics", py_tactics, METH_VARARGS, "search.tactics"},
    {"evaluate", py_evaluate, METH_VARARGS, "search.evaluate"},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_fast",
    .m_doc = "The compiled core of the Abalone max level.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__fast(void) {
    init_tables();
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    SIXTY_FOUR = PyLong_FromLong(64);
    if (!SIXTY_FOUR) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(m, "NUM_ACTIONS", NUM_ACTIONS) < 0) {
        Py_DECREF(&SearcherType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
