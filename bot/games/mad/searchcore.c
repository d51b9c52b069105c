/* MAD's search below the root in C: the very negamax and quiescence of search.py.
 *
 * Why (issue 16): MAD's hard level searched about 0.1 s of CPU per move even compiled
 * with mypyc, the largest single share of the bot's CPU under load, and a thread running
 * it held the interpreter lock. This file is a line-by-line port of ``Arena.gen``,
 * ``Arena.cycle``/``uncycle``/``make``/``unmake``, ``Searcher.quiesce`` and
 * ``Searcher.negamax`` of ``bot/games/mad/search.py``, which stays the reference: the
 * same move order, prunings, transposition table (an exact map of 62-bit keys, never
 * overwritten by another position, as the dict it replaces), killers and history, the
 * same node count, so the same turn for the same seed. ``tests/games/mad/
 * test_search_core.py`` compares the two searches position by position. Every number
 * the search uses (board tables, scores, constants) comes from Python at
 * ``Tables(...)``; nothing of the rules is written here twice. The search runs with the
 * interpreter lock released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

#define MAX_SQUARES 32
#define MAX_TB 64
#define GEN_MAX 1024
#define STACK_SIZE (1 << 17)
#define MAX_ENTRIES (1 << 21)
/* Positions the transposition table holds at most (64 MB): far above any AI level's
   searches (hard: 120,000 nodes), which store every position as Python's dict does. Only a
   search on a time budget (analysis, benchmarks: about 10 million nodes a second) reaches
   it; it then stores no new position, which changes its pruning, never its legality. */

static PyObject *StopError; /* the node or time budget is spent */

typedef struct {
    PyObject_HEAD
    int n, w;
    int64_t full;
    int64_t adj_mask[MAX_SQUARES];
    int64_t last_mask[2];
    char two_cannons[16], weak[16], two_sails[16];
    int tel_len[2][8];
    int tel[2][8][3];
    int tw_len[16];
    int tw[16][8];
    int cp_len[2][8];
    int cp[2][8][4];
    int64_t *pv; /* [16][w * w] */
    uint64_t zob[16][MAX_SQUARES + 1];
    uint64_t z_side, z_positioning;
    uint64_t z_streak[MAX_TB + 1];
    uint64_t z_winner[2];
    int64_t values[8];
    int64_t tb_pressure[MAX_TB + 1];
    int64_t win, mate_zone, inf, half, capture_order, tt_score, tt_depth;
    int tb_start, tiebreak_turns, qdepth, teleport, pass_code, max_ply;
} TablesObject;

typedef struct {
    uint64_t key; /* key + 1: 0 marks a free slot (keys are below 2**62) */
    int64_t value;
} Slot;

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    int sq[16];
    int occ[MAX_SQUARES];
    int64_t om, sm[2], wm[2];
    uint64_t h;
    int64_t score;
    int positioning;
    int64_t nodes, node_budget, limit;
    int has_deadline;
    double deadline;
    Slot *tt;
    size_t tt_mask, tt_used, tt_cap;
    int (*killers)[2];
    int64_t *history[2];
    int32_t *stack;
    size_t top;
    int64_t capbuf[GEN_MAX];
    int32_t quietbuf[GEN_MAX];
    int busy;
    jmp_buf jb;
    int failure; /* 1: stopped by a budget, 2: out of memory, 3: move stack overflow */
} CoreObject;

/* Sorts ``a[0..n)`` ascending, in place: Python's ``list.sort()`` on distinct ints (a
   capture's sort key holds its move's code), on the few moves of one node. */
#define SORT_ASCENDING(type, a, n)                                                         \
    for (int i_ = 1; i_ < (n); i_++) {                                                     \
        type x_ = (a)[i_];                                                                 \
        int j_ = i_ - 1;                                                                   \
        while (j_ >= 0 && (a)[j_] > x_) {                                                  \
            (a)[j_ + 1] = (a)[j_];                                                         \
            j_--;                                                                          \
        }                                                                                  \
        (a)[j_ + 1] = x_;                                                                  \
    }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lowbit(int64_t m) { return __builtin_ctzll((unsigned long long)m); }

static void fail(CoreObject *c, int why) {
    c->failure = why;
    longjmp(c->jb, 1);
}

/* --- transposition table: an exact map, as Python's dict ------------------------ */

static int tt_get(CoreObject *c, uint64_t key, int64_t *value) {
    size_t i = (size_t)(key ^ (key >> 29)) & c->tt_mask;
    uint64_t k = key + 1;
    for (;;) {
        Slot *s = &c->tt[i];
        if (s->key == k) {
            *value = s->value;
            return 1;
        }
        if (s->key == 0)
            return 0;
        i = (i + 1) & c->tt_mask;
    }
}

static void tt_grow(CoreObject *c) {
    size_t size = (c->tt_mask + 1) * 2;
    Slot *fresh = calloc(size, sizeof(Slot));
    if (fresh == NULL)
        fail(c, 2);
    for (size_t j = 0; j <= c->tt_mask; j++) {
        Slot *s = &c->tt[j];
        if (s->key == 0)
            continue;
        uint64_t key = s->key - 1;
        size_t i = (size_t)(key ^ (key >> 29)) & (size - 1);
        while (fresh[i].key != 0)
            i = (i + 1) & (size - 1);
        fresh[i] = *s;
    }
    free(c->tt);
    c->tt = fresh;
    c->tt_mask = size - 1;
}

static void tt_put(CoreObject *c, uint64_t key, int64_t value) {
    size_t i = (size_t)(key ^ (key >> 29)) & c->tt_mask;
    uint64_t k = key + 1;
    for (;;) {
        Slot *s = &c->tt[i];
        if (s->key == k) {
            s->value = value;
            return;
        }
        if (s->key == 0) {
            if (c->tt_used >= c->tt_cap)
                return; /* full: see MAX_ENTRIES */
            s->key = k;
            s->value = value;
            if (++c->tt_used * 2 > c->tt_mask + 1)
                tt_grow(c);
            return;
        }
        i = (i + 1) & c->tt_mask;
    }
}

/* --- Arena: generation, make and unmake (search.py's Arena) --------------------- */

static int legal_teleports(CoreObject *c, int side) {
    /* A mask of the legal teleports: permutation, not both exiled; rotation, at most
       one of the three. */
    TablesObject *t = c->t;
    if (__builtin_popcountll((unsigned long long)c->sm[side]) == 8)
        return 0xff;
    int mask = 0;
    for (int i = 0; i < 8; i++) {
        int exiled = 0;
        for (int k = 0; k < t->tel_len[side][i]; k++)
            if (c->sq[t->tel[side][i][k]] < 0)
                exiled++;
        if (exiled < 2)
            mask |= 1 << i;
    }
    return mask;
}

static int64_t reach2(TablesObject *t, int src, int64_t fm) {
    /* search.py's ``reach2[src][fm]``: the squares two steps away through ``fm``. */
    int64_t reach = 0;
    while (fm) {
        int m = lowbit(fm);
        fm &= fm - 1;
        reach |= t->adj_mask[m];
    }
    return reach & ~((int64_t)1 << src);
}

static void gen_overflow(CoreObject *c, int count) {
    if (count >= GEN_MAX)
        fail(c, 3);
}

/* Arena.gen: the captures (sorted, in capbuf as codes) and the other moves (quietbuf). */
static void gen(CoreObject *c, int side, int pos_turn, int *ncaps, int *nquiet) {
    TablesObject *t = c->t;
    int tel = legal_teleports(c, side);
    int nq = 0, nc = 0;
    int32_t *quiet = c->quietbuf;
    int64_t *caps = c->capbuf;
    if (pos_turn) {
        quiet[nq++] = t->pass_code;
        for (int i = 0; i < 8; i++)
            if (tel >> i & 1)
                quiet[nq++] = t->teleport + i;
        *ncaps = 0;
        *nquiet = nq;
        return;
    }
    int64_t free_ = t->full ^ c->om;
    int64_t em = c->sm[side ^ 1];
    int64_t ew = c->wm[side ^ 1];
    int64_t last = t->last_mask[side];
    for (int ship = side * 8; ship < side * 8 + 8; ship++) {
        int src = c->sq[ship];
        if (src < 0)
            continue;
        int64_t capm = t->two_cannons[ship] ? em : ew;
        int64_t adj = t->adj_mask[src];
        int64_t fm = adj & free_;
        if (fm) {
            for (int64_t m = fm; m; m &= m - 1) {
                gen_overflow(c, nq);
                quiet[nq++] = ship | lowbit(m) << 4;
            }
            int64_t lm = fm & last;
            if (lm) {
                for (int k = 0; k < t->tw_len[ship]; k++) {
                    int i = t->tw[ship][k];
                    if (!(tel >> i & 1))
                        continue;
                    for (int64_t m = lm; m; m &= m - 1) {
                        gen_overflow(c, nq);
                        quiet[nq++] = (ship | lowbit(m) << 4) | (i + 1) << 9;
                    }
                }
            }
        }
        int64_t cm = adj & capm;
        while (cm) {
            int64_t low = cm & -cm;
            cm ^= low;
            int d = lowbit(low);
            int o = c->occ[d] & 7;
            int64_t v = t->capture_order - t->values[o] - (o == 0 ? t->win : 0);
            int64_t code = ship | d << 4;
            gen_overflow(c, nc);
            caps[nc++] = v << 13 | code;
            if ((low & last) && o) {
                for (int k = 0; k < t->tw_len[ship]; k++) {
                    int i = t->tw[ship][k];
                    if (tel >> i & 1) {
                        gen_overflow(c, nc);
                        caps[nc++] = (v + 1) << 13 | code | (int64_t)(i + 1) << 9;
                    }
                }
            }
        }
        if (t->two_sails[ship]) {
            int64_t r2 = reach2(t, src, fm);
            for (int64_t m = r2 & free_; m; m &= m - 1) {
                gen_overflow(c, nq);
                quiet[nq++] = ship | lowbit(m) << 4;
            }
            int64_t m = r2 & capm;
            while (m) {
                int64_t low = m & -m;
                m ^= low;
                int d = lowbit(low);
                int o = c->occ[d] & 7;
                int64_t v = t->capture_order - t->values[o] - (o == 0 ? t->win : 0);
                gen_overflow(c, nc);
                caps[nc++] = v << 13 | ship | d << 4;
            }
        }
    }
    for (int i = 0; i < 8; i++)
        if (tel >> i & 1) {
            gen_overflow(c, nq);
            quiet[nq++] = t->teleport + i;
        }
    SORT_ASCENDING(int64_t, caps, nc)
    for (int i = 0; i < nc; i++)
        caps[i] &= 8191;
    *ncaps = nc;
    *nquiet = nq;
}

static inline int64_t pvat(TablesObject *t, int ship, int index) {
    return t->pv[ship * t->w * t->w + index];
}

static void cycle(CoreObject *c, int side, int teleport) {
    TablesObject *t = c->t;
    int *ships = t->tel[side][teleport];
    int *sq = c->sq;
    int w = t->w;
    int64_t wm = c->wm[side];
    if (t->tel_len[side][teleport] == 2) {
        int a = ships[0], b = ships[1];
        int sa = sq[a], sb = sq[b];
        int lo = (a & 7) < 4 ? a : b;
        int64_t before = pvat(t, lo, (sq[lo] + 1) * w + sq[lo ^ 7] + 1);
        sq[a] = sb;
        sq[b] = sa;
        if (sb >= 0)
            c->occ[sb] = a;
        if (sa >= 0)
            c->occ[sa] = b;
        c->h ^= t->zob[a][sa + 1] ^ t->zob[a][sb + 1] ^ t->zob[b][sb + 1] ^ t->zob[b][sa + 1];
        if (sa >= 0)
            wm ^= (int64_t)1 << sa;
        if (sb >= 0)
            wm ^= (int64_t)1 << sb;
        c->wm[side] = wm;
        c->score += pvat(t, lo, (sq[lo] + 1) * w + sq[lo ^ 7] + 1) - before;
        return;
    }
    int x = ships[0], y = ships[1], zz = ships[2];
    int *pairs = t->cp[side][teleport];
    int npairs = t->cp_len[side][teleport];
    int sx = sq[x], sy = sq[y], sz = sq[zz];
    int64_t score = c->score;
    for (int k = 0; k < npairs; k++) {
        int a = pairs[k];
        score -= pvat(t, a, (sq[a] + 1) * w + sq[a ^ 7] + 1);
    }
    sq[x] = sy;
    sq[y] = sz;
    sq[zz] = sx;
    if (sy >= 0)
        c->occ[sy] = x;
    if (sz >= 0)
        c->occ[sz] = y;
    if (sx >= 0)
        c->occ[sx] = zz;
    c->h ^= t->zob[x][sx + 1] ^ t->zob[x][sy + 1] ^ t->zob[y][sy + 1] ^ t->zob[y][sz + 1] ^
            t->zob[zz][sz + 1] ^ t->zob[zz][sx + 1];
    int ss[3] = {x, y, zz}, olds[3] = {sx, sy, sz}, news[3] = {sy, sz, sx};
    for (int k = 0; k < 3; k++) {
        if (t->weak[ss[k]]) {
            if (olds[k] >= 0)
                wm ^= (int64_t)1 << olds[k];
            if (news[k] >= 0)
                wm ^= (int64_t)1 << news[k];
        }
    }
    c->wm[side] = wm;
    for (int k = 0; k < npairs; k++) {
        int a = pairs[k];
        score += pvat(t, a, (sq[a] + 1) * w + sq[a ^ 7] + 1);
    }
    c->score = score;
}

static void uncycle(CoreObject *c, int side, int teleport) {
    TablesObject *t = c->t;
    int *ships = t->tel[side][teleport];
    int n = t->tel_len[side][teleport];
    int old[3];
    for (int i = 0; i < n; i++)
        old[i] = c->sq[ships[i]];
    int64_t wm = c->wm[side];
    for (int i = 0; i < n; i++) {
        int s = ships[i];
        int o = old[i];
        int nw = old[(i - 1 + n) % n];
        c->sq[s] = nw;
        if (nw >= 0) {
            c->occ[nw] = s;
            if (t->weak[s])
                wm ^= (int64_t)1 << nw;
        }
        if (o >= 0 && t->weak[s])
            wm ^= (int64_t)1 << o;
    }
    c->wm[side] = wm;
}

static int displace(CoreObject *c, int ship, int dst) {
    TablesObject *t = c->t;
    int *sq = c->sq;
    int w = t->w;
    int src = sq[ship];
    int victim = c->occ[dst];
    int side = ship >> 3;
    int p = sq[ship ^ 7] + 1;
    int64_t score = c->score - pvat(t, ship, (src + 1) * w + p) + pvat(t, ship, (dst + 1) * w + p);
    uint64_t h = c->h ^ t->zob[ship][src + 1] ^ t->zob[ship][dst + 1];
    int64_t bs = (int64_t)1 << src, bd = (int64_t)1 << dst;
    c->sm[side] ^= bs | bd;
    if (t->weak[ship])
        c->wm[side] ^= bs | bd;
    if (victim >= 0) {
        int vp = sq[victim ^ 7] + 1;
        score += pvat(t, victim, vp) - pvat(t, victim, (dst + 1) * w + vp);
        h ^= t->zob[victim][dst + 1] ^ t->zob[victim][0];
        sq[victim] = -1;
        c->sm[side ^ 1] ^= bd;
        if (t->weak[victim])
            c->wm[side ^ 1] ^= bd;
        c->om ^= bs;
    } else {
        c->om ^= bs | bd;
    }
    c->occ[src] = -1;
    c->occ[dst] = ship;
    sq[ship] = dst;
    c->h = h;
    c->score = score;
    return victim;
}

static void undisplace(CoreObject *c, int ship, int src, int dst, int victim) {
    TablesObject *t = c->t;
    int side = ship >> 3;
    int64_t bs = (int64_t)1 << src, bd = (int64_t)1 << dst;
    c->sq[ship] = src;
    c->occ[src] = ship;
    c->sm[side] ^= bs | bd;
    if (t->weak[ship])
        c->wm[side] ^= bs | bd;
    if (victim >= 0) {
        c->sq[victim] = dst;
        c->occ[dst] = victim;
        c->sm[side ^ 1] ^= bd;
        if (t->weak[victim])
            c->wm[side ^ 1] ^= bd;
        c->om ^= bs;
    } else {
        c->occ[dst] = -1;
        c->om ^= bs | bd;
    }
}

static void make(CoreObject *c, int code, int side, int *src, int *victim) {
    TablesObject *t = c->t;
    if (code >= t->teleport) {
        if (code != t->pass_code)
            cycle(c, side, code - t->teleport);
        *src = -1;
        *victim = -1;
        return;
    }
    int ship = code & 15;
    *src = c->sq[ship];
    *victim = displace(c, ship, (code >> 4) & 31);
    int bonus = code >> 9;
    if (bonus)
        cycle(c, side, bonus - 1);
}

static void unmake(CoreObject *c, int code, int side, int src, int victim, uint64_t h,
                   int64_t score) {
    TablesObject *t = c->t;
    if (code >= t->teleport) {
        if (code != t->pass_code)
            uncycle(c, side, code - t->teleport);
    } else {
        int bonus = code >> 9;
        if (bonus)
            uncycle(c, side, bonus - 1);
        undisplace(c, code & 15, src, (code >> 4) & 31, victim);
    }
    c->h = h;
    c->score = score;
}

/* --- the search (search.py's Searcher) ------------------------------------------ */

static void check(CoreObject *c) {
    if (c->nodes > c->node_budget)
        fail(c, 1);
    if (c->has_deadline && now() > c->deadline)
        fail(c, 1);
    int64_t next = c->nodes + 1024;
    c->limit = c->node_budget < next ? c->node_budget : next;
}

static int32_t *reserve(CoreObject *c, size_t count) {
    if (c->top + count > STACK_SIZE)
        fail(c, 3);
    int32_t *out = c->stack + c->top;
    c->top += count;
    return out;
}

static int64_t quiesce(CoreObject *c, int64_t alpha, int64_t beta, int ply, int side,
                       int streak, int winner, int qd) {
    TablesObject *t = c->t;
    c->nodes++;
    if (c->nodes > c->limit)
        check(c);
    int64_t stand = side == 0 ? c->score : -c->score;
    if (streak >= t->tb_start) {
        int64_t p = t->tb_pressure[streak];
        stand += winner == side ? p : -p;
    }
    if (stand >= beta || qd == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    int *sq = c->sq;
    int *occ = c->occ;
    int64_t free_ = t->full ^ c->om;
    int64_t em = c->sm[side ^ 1];
    int64_t ew = c->wm[side ^ 1];
    int64_t corvette = (int64_t)1 << sq[8 - 8 * side];
    size_t base = c->top;
    int32_t *caps = c->stack + base;
    int nc = 0;
    for (int ship = side * 8; ship < side * 8 + 8; ship++) {
        int src = sq[ship];
        if (src < 0)
            continue;
        int64_t capm = t->two_cannons[ship] ? em : ew;
        int64_t adj = t->adj_mask[src];
        int64_t tg = adj & capm;
        if (t->two_sails[ship])
            tg |= reach2(t, src, adj & free_) & capm;
        if (tg) {
            if (tg & corvette) {
                c->top = base;
                return t->win - ply - 1;
            }
            while (tg) {
                int64_t low = tg & -tg;
                tg ^= low;
                int d = lowbit(low);
                reserve(c, 1);
                caps[nc++] = (int32_t)((1000 - t->values[occ[d] & 7]) << 9 | ship << 5 | d);
            }
        }
    }
    if (nc == 0) {
        c->top = base;
        return alpha;
    }
    SORT_ASCENDING(int32_t, caps, nc)
    int64_t score = c->score;
    int64_t om = c->om;
    int e = side ^ 1;
    int64_t sm_own = c->sm[side], sm_enemy = c->sm[e], wm_own = c->wm[side], wm_enemy = c->wm[e];
    int w = t->w;
    for (int k = 0; k < nc; k++) {
        int cap = caps[k];
        int ship = cap >> 5 & 15;
        int d = cap & 31;
        int src = sq[ship];
        int victim = occ[d];
        int p = sq[ship ^ 7] + 1;
        int vp = sq[victim ^ 7] + 1;
        int64_t child_score = score - pvat(t, ship, (src + 1) * w + p) +
                              pvat(t, ship, (d + 1) * w + p) + pvat(t, victim, vp) -
                              pvat(t, victim, (d + 1) * w + vp);
        int64_t child = side ? child_score : -child_score;
        int64_t s;
        if (child >= -alpha || qd == 1) {
            c->nodes++;
            s = -child;
        } else {
            int64_t bs = (int64_t)1 << src, bdd = (int64_t)1 << d;
            c->score = child_score;
            c->om = om ^ bs;
            c->sm[side] = sm_own ^ bs ^ bdd;
            c->sm[e] = sm_enemy ^ bdd;
            if (t->weak[ship])
                c->wm[side] = wm_own ^ bs ^ bdd;
            if (t->weak[victim])
                c->wm[e] = wm_enemy ^ bdd;
            sq[victim] = -1;
            occ[src] = -1;
            occ[d] = ship;
            sq[ship] = d;
            s = -quiesce(c, -beta, -alpha, ply + 1, e, 0, side, qd - 1);
            sq[ship] = src;
            occ[src] = ship;
            sq[victim] = d;
            occ[d] = victim;
            c->score = score;
            c->om = om;
            c->sm[side] = sm_own;
            c->sm[e] = sm_enemy;
            if (t->weak[ship])
                c->wm[side] = wm_own;
            if (t->weak[victim])
                c->wm[e] = wm_enemy;
        }
        if (s >= beta) {
            c->top = base;
            return s;
        }
        if (s > alpha)
            alpha = s;
    }
    c->top = base;
    return alpha;
}

static int contains(const int32_t *a, int n, int x) {
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return i;
    return -1;
}

static int64_t negamax(CoreObject *c, int depth, int64_t alpha, int64_t beta, int ply,
                       int side, int turn_no, int streak, int winner, int null_ok) {
    TablesObject *t = c->t;
    int *sq = c->sq;
    int *occ = c->occ;
    if (sq[0] < 0)
        return side == 1 ? t->win - ply : -(t->win - ply);
    if (sq[8] < 0)
        return side == 0 ? t->win - ply : -(t->win - ply);
    if (streak >= t->tiebreak_turns)
        return winner == side ? t->half : -t->half;
    int pos_turn = c->positioning && turn_no < 2;
    if (depth <= 0 && !pos_turn)
        return quiesce(c, alpha, beta, ply, side, streak, winner, t->qdepth);
    c->nodes++;
    if (c->nodes > c->limit)
        check(c);
    if (ply >= t->max_ply)
        fail(c, 3);
    uint64_t key = c->h;
    if (side)
        key ^= t->z_side;
    if (pos_turn)
        key ^= t->z_positioning;
    if (streak + depth >= t->tb_start)
        key ^= t->z_streak[streak] ^ t->z_winner[winner];
    int64_t entry;
    int tt_move = -1;
    if (tt_get(c, key, &entry)) {
        tt_move = (int)(entry & 16383) - 1;
        if ((entry >> 16 & 255) - t->tt_depth >= depth) {
            int64_t e_flag = (entry >> 14 & 3) - 1;
            int64_t e_score = (entry >> 24) - t->tt_score;
            if (e_score > t->mate_zone)
                e_score -= ply;
            else if (e_score < -t->mate_zone)
                e_score += ply;
            if (e_flag == 0)
                return e_score;
            if (e_flag < 0 && e_score <= alpha)
                return e_score;
            if (e_flag > 0 && e_score >= beta)
                return e_score;
        }
    }
    int other = 1 - side;
    int prune = !pos_turn && streak + depth + 2 < t->tb_start;
    if (null_ok && prune && depth >= 3 && beta - alpha == 1 && beta < t->mate_zone &&
        (side == 0 ? c->score : -c->score) >= beta) {
        int r = depth >= 6 ? 3 : 2;
        int64_t s = -negamax(c, depth - 1 - r, -beta, -beta + 1, ply + 1, other, turn_no + 1,
                             streak, winner, 0);
        if (s >= beta)
            return s > t->mate_zone ? beta : s;
    }
    int64_t a0 = alpha;
    int64_t best = -t->inf;
    int best_move = -1;
    uint64_t h = c->h;
    int64_t score = c->score;
    int child_depth = depth - 1;
    int reduce = prune && depth >= 3;
    int searched = 0;
    int leaf = child_depth <= 0 && !(c->positioning && turn_no + 1 < 2);
    int64_t om = c->om;
    int64_t sm_own = c->sm[side], sm_enemy = c->sm[other];
    int64_t wm_own = c->wm[side], wm_enemy = c->wm[other];
    int w = t->w;
    int *killers = c->killers[ply];
    int64_t *hist = c->history[side];
    size_t base = c->top;
    int32_t *moves = c->stack + base;
    int nmoves = 0;
    if (tt_move >= 0 && (tt_move >= t->teleport || sq[tt_move & 15] >= 0)) {
        reserve(c, 1);
        moves[nmoves++] = tt_move;
    }
    int tried_tt = nmoves;
    int generated = 0;
    int i = 0;
    for (;;) {
        if (i == nmoves) {
            if (generated)
                break;
            generated = 1;
            int nc, nq;
            gen(c, side, pos_turn, &nc, &nq);
            if (nc && (occ[(c->capbuf[0] >> 4) & 31] & 7) == 0) {
                best = t->win - ply - 1; /* the enemy corvette falls (listed first) */
                best_move = (int)c->capbuf[0];
                break;
            }
            int32_t *quiet = c->quietbuf;
            /* quiet.sort(key=history, reverse=True): stable, the highest first. */
            for (int a = 1; a < nq; a++) {
                int32_t x = quiet[a];
                int64_t hx = hist[x];
                int j = a - 1;
                while (j >= 0 && hist[quiet[j]] < hx) {
                    quiet[j + 1] = quiet[j];
                    j--;
                }
                quiet[j + 1] = x;
            }
            int ks[2] = {killers[1], killers[0]};
            for (int a = 0; a < 2; a++) {
                int k = ks[a];
                if (k == -1)
                    continue;
                int at = contains(quiet, nq, k);
                if (at >= 0) {
                    memmove(quiet + 1, quiet, (size_t)at * sizeof(int32_t));
                    quiet[0] = k;
                }
            }
            c->top = base;
            reserve(c, (size_t)(nc + nq));
            for (int a = 0; a < nc; a++)
                moves[a] = (int32_t)c->capbuf[a];
            memcpy(moves + nc, quiet, (size_t)nq * sizeof(int32_t));
            nmoves = nc + nq;
            if (tried_tt) {
                int at = contains(moves, nmoves, tt_move);
                if (at >= 0) {
                    memmove(moves + at, moves + at + 1, (size_t)(nmoves - at - 1) * sizeof(int32_t));
                    nmoves--;
                }
            }
            i = 0;
            if (nmoves == 0)
                break;
        }
        int code = moves[i];
        i++;
        int ship = 0, d = 0, src, victim;
        if (code < 512) {
            /* A displacement without bonus, made in place (the hot path). */
            ship = code & 15;
            d = code >> 4;
            src = sq[ship];
            victim = occ[d];
            int p = sq[ship ^ 7] + 1;
            int64_t bs = (int64_t)1 << src, bdd = (int64_t)1 << d;
            int64_t new_score = score - pvat(t, ship, (src + 1) * w + p) + pvat(t, ship, (d + 1) * w + p);
            uint64_t new_h = h ^ t->zob[ship][src + 1] ^ t->zob[ship][d + 1];
            c->sm[side] = sm_own ^ bs ^ bdd;
            if (t->weak[ship])
                c->wm[side] = wm_own ^ bs ^ bdd;
            if (victim >= 0) {
                int vp = sq[victim ^ 7] + 1;
                new_score += pvat(t, victim, vp) - pvat(t, victim, (d + 1) * w + vp);
                new_h ^= t->zob[victim][d + 1] ^ t->zob[victim][0];
                c->sm[other] = sm_enemy ^ bdd;
                if (t->weak[victim])
                    c->wm[other] = wm_enemy ^ bdd;
                sq[victim] = -1;
                c->om = om ^ bs;
            } else {
                c->om = om ^ bs ^ bdd;
            }
            occ[src] = -1;
            occ[d] = ship;
            sq[ship] = d;
            c->h = new_h;
            c->score = new_score;
        } else if (t->teleport <= code && code < t->pass_code) {
            src = victim = -1;
            cycle(c, side, code - t->teleport);
        } else {
            make(c, code, side, &src, &victim);
        }
        int c_streak, c_winner;
        if (victim >= 0) {
            c_streak = 0;
            c_winner = side;
        } else {
            c_streak = streak + 1;
            c_winner = winner;
        }
        int64_t pressure = 0;
        if (c_streak >= t->tb_start && c_streak < t->tiebreak_turns)
            pressure = c_winner == other ? t->tb_pressure[c_streak] : -t->tb_pressure[c_streak];
        int64_t s;
        if (leaf && sq[0] >= 0 && sq[8] >= 0 && c_streak < t->tiebreak_turns &&
            (other == 0 ? c->score : -c->score) + pressure >= -alpha) {
            /* The child's quiescence would stop at once on its static score. */
            s = (other == 0 ? -c->score : c->score) - pressure;
            c->nodes++;
        } else if (best == -t->inf) {
            s = -negamax(c, child_depth, -beta, -alpha, ply + 1, other, turn_no + 1, c_streak,
                         c_winner, 1);
        } else {
            s = alpha + 1;
            if (reduce && searched >= 3 && victim < 0 && code != killers[0] && code != killers[1])
                s = -negamax(c, child_depth - 1, -alpha - 1, -alpha, ply + 1, other, turn_no + 1,
                             c_streak, c_winner, 1);
            if (s > alpha)
                s = -negamax(c, child_depth, -alpha - 1, -alpha, ply + 1, other, turn_no + 1,
                             c_streak, c_winner, 1);
            if (alpha < s && s < beta)
                s = -negamax(c, child_depth, -beta, -s, ply + 1, other, turn_no + 1, c_streak,
                             c_winner, 1);
        }
        searched++;
        if (code < 512) {
            sq[ship] = src;
            occ[src] = ship;
            if (victim >= 0) {
                sq[victim] = d;
                occ[d] = victim;
            } else {
                occ[d] = -1;
            }
            c->om = om;
            c->sm[side] = sm_own;
            if (t->weak[ship])
                c->wm[side] = wm_own;
            if (victim >= 0) {
                c->sm[other] = sm_enemy;
                if (t->weak[victim])
                    c->wm[other] = wm_enemy;
            }
            c->h = h;
            c->score = score;
        } else if (t->teleport <= code && code < t->pass_code) {
            uncycle(c, side, code - t->teleport);
            c->h = h;
            c->score = score;
        } else {
            unmake(c, code, side, src, victim, h, score);
        }
        if (s > best) {
            best = s;
            best_move = code;
            if (s > alpha) {
                alpha = s;
                if (alpha >= beta) {
                    if (victim < 0) {
                        if (killers[0] != code) {
                            killers[1] = killers[0];
                            killers[0] = code;
                        }
                        hist[code] += (int64_t)depth * depth;
                    }
                    break;
                }
            }
        }
    }
    c->top = base;
    int64_t flag = (a0 < best && best < beta) ? 0 : (best <= a0 ? -1 : 1);
    int64_t stored = best;
    if (stored > t->mate_zone)
        stored += ply;
    else if (stored < -t->mate_zone)
        stored -= ply;
    tt_put(c, key,
           (stored + t->tt_score) << 24 | (int64_t)(depth + t->tt_depth) << 16 | (flag + 1) << 14 |
               (int64_t)(best_move + 1));
    return best;
}

/* --- Python objects ----------------------------------------------------------------- */

static int read_int(PyObject *o, int64_t *out) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* Reads a sequence of at most ``cap`` ints into ``out``; its length in ``*len``. */
static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t cap, Py_ssize_t *len,
                     const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %zd", what, n, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    if (len != NULL)
        *len = n;
    else if (n != cap) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, %zd expected", what, n, cap);
        return -1;
    }
    return 0;
}

/* A sequence of ``rows`` sequences of at most ``cap`` ints each. */
static int read_rows(PyObject *seq, Py_ssize_t rows, Py_ssize_t cap, int64_t *out,
                     Py_ssize_t *lens, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != rows) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd rows expected", what, rows);
        return -1;
    }
    for (Py_ssize_t r = 0; r < rows; r++) {
        Py_ssize_t n;
        if (read_ints(PySequence_Fast_GET_ITEM(fast, r), out + r * cap, cap, &n, what) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (lens != NULL)
            lens[r] = n;
        else if (n != cap) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: rows of %zd expected", what, cap);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static void tables_dealloc(TablesObject *self) {
    free(self->pv);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int tables_init(TablesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"size", "width", "full", "adj_mask", "last_mask", "two_cannons",
                             "weak", "two_sails", "teleports", "teleports_with", "cycle_pairs",
                             "pair_value", "zobrist", "z_side", "z_positioning", "z_streak",
                             "z_winner", "values", "tb_pressure", "win", "mate_zone", "inf",
                             "half", "capture_order", "tt_score", "tt_depth", "tb_start",
                             "tiebreak_turns", "qdepth", "teleport", "pass_code", "max_ply",
                             NULL};
    int n, w;
    long long full, z_side, z_positioning;
    PyObject *adj, *last, *cannons, *weak, *sails, *tel, *tw, *cp, *pv, *zob, *zstreak, *zwin,
        *values, *pressure;
    long long win, mate_zone, inf, half, capture_order, tt_score, tt_depth;
    int tb_start, tiebreak, qdepth, teleport, pass_code, max_ply;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "$iiLOOOOOOOOOOLLOOOOLLLLLLLiiiiii", kwlist, &n, &w, &full, &adj, &last,
            &cannons, &weak, &sails, &tel, &tw, &cp, &pv, &zob, &z_side, &z_positioning, &zstreak,
            &zwin, &values, &pressure, &win, &mate_zone, &inf, &half, &capture_order, &tt_score,
            &tt_depth, &tb_start, &tiebreak, &qdepth, &teleport, &pass_code, &max_ply))
        return -1;
    if (n < 1 || n > MAX_SQUARES - 1 || w != n + 1 || tiebreak < 1 || tiebreak > MAX_TB ||
        max_ply < 1) {
        PyErr_SetString(PyExc_ValueError, "a board of 1 to 31 squares, width = size + 1");
        return -1;
    }
    self->n = n;
    self->w = w;
    self->full = full;
    int64_t buf[16 * 8 * 4];
    Py_ssize_t lens[64];
    if (read_ints(adj, self->adj_mask, n, NULL, "adj_mask") < 0 ||
        read_ints(last, self->last_mask, 2, NULL, "last_mask") < 0)
        return -1;
    char *flags[3] = {self->two_cannons, self->weak, self->two_sails};
    PyObject *flag_seqs[3] = {cannons, weak, sails};
    for (int k = 0; k < 3; k++) {
        if (read_ints(flag_seqs[k], buf, 16, NULL, "ship flags") < 0)
            return -1;
        for (int s = 0; s < 16; s++)
            flags[k][s] = buf[s] != 0;
    }
    PyObject *per_side[2] = {tel, cp};
    for (int k = 0; k < 2; k++) {
        PyObject *fast = PySequence_Fast(per_side[k], "per side");
        if (fast == NULL)
            return -1;
        if (PySequence_Fast_GET_SIZE(fast) != 2) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "two sides expected");
            return -1;
        }
        for (int side = 0; side < 2; side++) {
            Py_ssize_t cap = k == 0 ? 3 : 4;
            if (read_rows(PySequence_Fast_GET_ITEM(fast, side), 8, cap, buf, lens,
                          k == 0 ? "teleports" : "cycle_pairs") < 0) {
                Py_DECREF(fast);
                return -1;
            }
            for (int i = 0; i < 8; i++) {
                if (k == 0 && lens[i] < 2) {
                    Py_DECREF(fast);
                    PyErr_SetString(PyExc_ValueError, "a teleport moves 2 or 3 ships");
                    return -1;
                }
                for (int j = 0; j < lens[i]; j++) {
                    if (buf[i * cap + j] < 0 || buf[i * cap + j] > 15) {
                        Py_DECREF(fast);
                        PyErr_SetString(PyExc_ValueError, "ships are 0 to 15");
                        return -1;
                    }
                    if (k == 0)
                        self->tel[side][i][j] = (int)buf[i * cap + j];
                    else
                        self->cp[side][i][j] = (int)buf[i * cap + j];
                }
                if (k == 0)
                    self->tel_len[side][i] = (int)lens[i];
                else
                    self->cp_len[side][i] = (int)lens[i];
            }
        }
        Py_DECREF(fast);
    }
    if (read_rows(tw, 16, 8, buf, lens, "teleports_with") < 0)
        return -1;
    for (int s = 0; s < 16; s++) {
        self->tw_len[s] = (int)lens[s];
        for (int j = 0; j < lens[s]; j++)
            self->tw[s][j] = (int)buf[s * 8 + j];
    }
    free(self->pv);
    self->pv = malloc(sizeof(int64_t) * 16 * (size_t)(w * w));
    if (self->pv == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_rows(pv, 16, (Py_ssize_t)w * w, self->pv, NULL, "pair_value") < 0)
        return -1;
    int64_t zrows[16 * (MAX_SQUARES + 1)];
    if (read_rows(zob, 16, w, zrows, NULL, "zobrist") < 0)
        return -1;
    for (int s = 0; s < 16; s++)
        for (int q = 0; q < w; q++)
            self->zob[s][q] = (uint64_t)zrows[s * w + q];
    int64_t zs[MAX_TB + 1];
    int64_t zw[2];
    if (read_ints(zstreak, zs, tiebreak + 1, NULL, "z_streak") < 0 ||
        read_ints(zwin, zw, 2, NULL, "z_winner") < 0 ||
        read_ints(values, self->values, 8, NULL, "values") < 0 ||
        read_ints(pressure, self->tb_pressure, tiebreak + 1, NULL, "tb_pressure") < 0)
        return -1;
    for (int i = 0; i <= tiebreak; i++)
        self->z_streak[i] = (uint64_t)zs[i];
    self->z_winner[0] = (uint64_t)zw[0];
    self->z_winner[1] = (uint64_t)zw[1];
    self->z_side = (uint64_t)z_side;
    self->z_positioning = (uint64_t)z_positioning;
    self->win = win;
    self->mate_zone = mate_zone;
    self->inf = inf;
    self->half = half;
    self->capture_order = capture_order;
    self->tt_score = tt_score;
    self->tt_depth = tt_depth;
    self->tb_start = tb_start;
    self->tiebreak_turns = tiebreak;
    self->qdepth = qdepth;
    self->teleport = teleport;
    self->pass_code = pass_code;
    self->max_ply = max_ply;
    return 0;
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bot.games.mad.searchcore.Tables",
    .tp_doc = "One board's tables and the search's constants, read once from search.py.",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tables_init,
    .tp_dealloc = (destructor)tables_dealloc,
};

static void core_free_buffers(CoreObject *self) {
    free(self->tt);
    free(self->killers);
    free(self->history[0]);
    free(self->history[1]);
    free(self->stack);
    self->tt = NULL;
    self->killers = NULL;
    self->history[0] = self->history[1] = NULL;
    self->stack = NULL;
}

static void core_dealloc(CoreObject *self) {
    core_free_buffers(self);
    Py_XDECREF(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int core_init(CoreObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"tables",      "position",    "positioning", "node_budget",
                             "time_budget", "max_entries", NULL};
    PyObject *tables, *pos, *budget_time;
    int positioning;
    long long node_budget;
    Py_ssize_t max_entries = MAX_ENTRIES;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OpLO|$n", kwlist, &TablesType, &tables, &pos,
                                     &positioning, &node_budget, &budget_time, &max_entries))
        return -1;
    if (max_entries < 1) {
        PyErr_SetString(PyExc_ValueError, "max_entries must be positive");
        return -1;
    }
    TablesObject *t = (TablesObject *)tables;
    if (t->pv == NULL) {
        PyErr_SetString(PyExc_ValueError, "the tables were not initialised");
        return -1;
    }
    int64_t sq[16];
    if (read_ints(pos, sq, 16, NULL, "position") < 0)
        return -1;
    Py_INCREF(t);
    Py_XSETREF(self->t, t);
    core_free_buffers(self);
    for (int q = 0; q < MAX_SQUARES; q++)
        self->occ[q] = -1;
    self->om = 0;
    self->sm[0] = self->sm[1] = self->wm[0] = self->wm[1] = 0;
    self->h = 0;
    for (int s = 0; s < 16; s++) {
        if (sq[s] < -1 || sq[s] >= t->n) {
            PyErr_SetString(PyExc_ValueError, "a ship's square is off the board");
            return -1;
        }
        self->sq[s] = (int)sq[s];
        self->h ^= t->zob[s][sq[s] + 1];
        if (sq[s] >= 0) {
            int64_t bit = (int64_t)1 << sq[s];
            self->occ[sq[s]] = s;
            self->om |= bit;
            self->sm[s >> 3] |= bit;
            if (t->weak[s])
                self->wm[s >> 3] |= bit;
        }
    }
    /* search.red_score: the pairs by their lower ship. */
    static const int lower[8] = {0, 1, 2, 3, 8, 9, 10, 11};
    self->score = 0;
    for (int k = 0; k < 8; k++) {
        int s = lower[k];
        self->score += pvat(t, s, (self->sq[s] + 1) * t->w + self->sq[s ^ 7] + 1);
    }
    self->positioning = positioning;
    self->node_budget = node_budget;
    self->nodes = 0;
    self->has_deadline = budget_time != Py_None;
    if (self->has_deadline) {
        double seconds = PyFloat_AsDouble(budget_time);
        if (seconds == -1.0 && PyErr_Occurred())
            return -1;
        self->deadline = now() + seconds;
        self->limit = node_budget < 1024 ? node_budget : 1024;
    } else {
        self->limit = node_budget;
    }
    self->tt_mask = (1 << 14) - 1;
    self->tt_used = 0;
    self->tt_cap = (size_t)max_entries;
    self->tt = calloc(self->tt_mask + 1, sizeof(Slot));
    self->killers = malloc(sizeof(int[2]) * (size_t)t->max_ply);
    self->history[0] = calloc((size_t)t->pass_code + 1, sizeof(int64_t));
    self->history[1] = calloc((size_t)t->pass_code + 1, sizeof(int64_t));
    self->stack = malloc(sizeof(int32_t) * STACK_SIZE);
    if (!self->tt || !self->killers || !self->history[0] || !self->history[1] || !self->stack) {
        core_free_buffers(self);
        PyErr_NoMemory();
        return -1;
    }
    for (int p = 0; p < t->max_ply; p++)
        self->killers[p][0] = self->killers[p][1] = -1;
    self->top = 0;
    self->busy = 0;
    return 0;
}

static int core_ready(CoreObject *self) {
    if (self->t == NULL || self->stack == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core was not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the core is searching in another thread");
        return 0;
    }
    return 1;
}

/* A move code's shape (not its legality here): side 0 or 1, a teleport by its index or
   the pass, or a ship of that side to a square of the board with at most a bonus
   teleport. Keeps every index the core reads within its tables. */
static int valid_code(TablesObject *t, int code, int side) {
    if (side != 0 && side != 1)
        return 0;
    if (code >= t->teleport)
        return code == t->pass_code || code - t->teleport < 8;
    return code >= 0 && (code & 15) >> 3 == side && ((code >> 4) & 31) < t->n &&
           (code >> 9) <= 8;
}

static int valid_move(CoreObject *self, int code, int side) {
    if (!valid_code(self->t, code, side))
        return 0;
    return code >= self->t->teleport || self->sq[code & 15] >= 0;
}

static PyObject *core_make(CoreObject *self, PyObject *args) {
    int code, side, src, victim;
    if (!PyArg_ParseTuple(args, "ii", &code, &side) || !core_ready(self))
        return NULL;
    if (!valid_move(self, code, side)) {
        PyErr_Format(PyExc_ValueError, "not a move of side %d here: %d", side, code);
        return NULL;
    }
    make(self, code, side, &src, &victim);
    return Py_BuildValue("(ii)", src, victim);
}

static PyObject *core_unmake(CoreObject *self, PyObject *args) {
    int code, side, src, victim;
    unsigned long long h;
    long long score;
    if (!PyArg_ParseTuple(args, "iiiiKL", &code, &side, &src, &victim, &h, &score) ||
        !core_ready(self))
        return NULL;
    int displacement = code < self->t->teleport;
    if (!valid_code(self->t, code, side) ||
        (displacement && (src < 0 || src >= self->t->n || victim < -1 || victim > 15))) {
        PyErr_SetString(PyExc_ValueError, "not what make returned for this move");
        return NULL;
    }
    unmake(self, code, side, src, victim, (uint64_t)h, score);
    Py_RETURN_NONE;
}

static PyObject *codes_list(const void *codes, int n, int wide) {
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        long long v = wide ? ((const int64_t *)codes)[i] : ((const int32_t *)codes)[i];
        PyObject *item = PyLong_FromLongLong(v);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *core_moves(CoreObject *self, PyObject *args) {
    int side, pos_turn, nc, nq;
    if (!PyArg_ParseTuple(args, "ip", &side, &pos_turn) || !core_ready(self))
        return NULL;
    if (side != 0 && side != 1) {
        PyErr_SetString(PyExc_ValueError, "side is 0 or 1");
        return NULL;
    }
    self->failure = 0;
    if (setjmp(self->jb)) {
        PyErr_SetString(PyExc_RuntimeError, "more moves than the generator holds");
        return NULL;
    }
    gen(self, side, pos_turn, &nc, &nq);
    PyObject *caps = codes_list(self->capbuf, nc, 1);
    PyObject *quiet = caps == NULL ? NULL : codes_list(self->quietbuf, nq, 0);
    if (quiet == NULL) {
        Py_XDECREF(caps);
        return NULL;
    }
    return Py_BuildValue("(NN)", caps, quiet);
}

static int run_negamax(CoreObject *c, int depth, int64_t alpha, int64_t beta, int ply, int side,
                       int turn_no, int streak, int winner, int64_t *out) {
    c->top = 0;
    c->failure = 0;
    if (setjmp(c->jb))
        return c->failure;
    *out = negamax(c, depth, alpha, beta, ply, side, turn_no, streak, winner, 1);
    return 0;
}

static PyObject *core_negamax(CoreObject *self, PyObject *args) {
    int depth, ply, side, turn_no, streak, winner;
    long long alpha, beta;
    if (!PyArg_ParseTuple(args, "iLLiiiii", &depth, &alpha, &beta, &ply, &side, &turn_no,
                          &streak, &winner) ||
        !core_ready(self))
        return NULL;
    TablesObject *t = self->t;
    /* (a streak past the tie-break's turn ends the line at once, as in Python) */
    if (side < 0 || side > 1 || winner < 0 || winner > 1 || streak < 0 || ply < 0 ||
        ply >= t->max_ply || depth >= t->tt_depth) {
        PyErr_SetString(PyExc_ValueError, "negamax's arguments are out of range");
        return NULL;
    }
    int64_t result = 0;
    int failure;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    failure = run_negamax(self, depth, alpha, beta, ply, side, turn_no, streak, winner, &result);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    switch (failure) {
    case 0:
        return PyLong_FromLongLong(result);
    case 1:
        PyErr_SetNone(StopError);
        return NULL;
    case 2:
        return PyErr_NoMemory();
    default:
        PyErr_SetString(PyExc_RuntimeError, "the search went deeper than its move stack");
        return NULL;
    }
}

static PyObject *core_get_nodes(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *core_get_h(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(self->h);
}

static PyObject *core_get_score(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(self->score);
}

static PyObject *core_get_position(CoreObject *self, void *Py_UNUSED(closure)) {
    PyObject *out = PyTuple_New(16);
    if (out == NULL)
        return NULL;
    for (int s = 0; s < 16; s++) {
        PyObject *v = PyLong_FromLong(self->sq[s]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, s, v);
    }
    return out;
}

static PyObject *core_get_entries(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSize_t(self->tt_used);
}

static PyMethodDef core_methods[] = {
    {"make", (PyCFunction)core_make, METH_VARARGS,
     "make(code, side) -> (source square, victim): plays a move code (Arena.make)."},
    {"moves", (PyCFunction)core_moves, METH_VARARGS,
     "moves(side, positioning_turn) -> (captures, other moves): the generator's codes in "
     "its order (Arena.gen)."},
    {"unmake", (PyCFunction)core_unmake, METH_VARARGS,
     "unmake(code, side, src, victim, h, score): takes it back (Arena.unmake)."},
    {"negamax", (PyCFunction)core_negamax, METH_VARARGS,
     "negamax(depth, alpha, beta, ply, side, turn_no, streak, winner) -> score "
     "(Searcher.negamax), with the interpreter lock released; raises Stop when a budget "
     "is spent."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"nodes", (getter)core_get_nodes, NULL, "Nodes searched so far.", NULL},
    {"h", (getter)core_get_h, NULL, "The position's Zobrist key.", NULL},
    {"score", (getter)core_get_score, NULL, "The red-view static evaluation.", NULL},
    {"position", (getter)core_get_position, NULL, "Ship -> square (-1: exiled).", NULL},
    {"entries", (getter)core_get_entries, NULL, "Positions in the transposition table.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bot.games.mad.searchcore.Core",
    .tp_doc = "One search's position, transposition table, killers and history.",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};

static struct PyModuleDef searchcore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bot.games.mad.searchcore",
    .m_doc = "MAD's search below the root in C (a port of search.py's Searcher).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_searchcore(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&searchcore_module);
    if (m == NULL)
        return NULL;
    StopError = PyErr_NewExceptionWithDoc("bot.games.mad.searchcore.Stop",
                                          "The node or time budget is spent.", NULL, NULL);
    if (StopError == NULL || PyModule_AddObjectRef(m, "Stop", StopError) < 0 ||
        PyModule_AddObjectRef(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
