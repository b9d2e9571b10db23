/* _ccore: a PROTOTYPE of the compiled search core (issue 44 groundwork, branch i44-proto).
 *
 * The pure-Python core (spiderette/engine/core.py) stays the reference. This module mirrors, for any variant of
 * up to 10 columns:
 *   - the move generator (Core._moves: every Pruning rule, both move orders, deals, sends),
 *   - the applier (Core.shift / Core.deal / Core.send, runs leaving by themselves or not),
 *   - a compact, exact, decodable table key (a variable-length bit code: see encode()),
 *   - the solver's best-first search (players/solver.py _search: weighted A*, the same costs, the same
 *     tie-break, the same keys), run wholly in C with the GIL released.
 *
 * A column is as in core.py: c[0] = face-down count, c[1..len-1] every card bottom first; a card is
 * suit * 16 + rank (rank 1..13).
 *
 * Built ad hoc (not installed): python benchmarks/ccore_proto.py --build   (see notes/i44-plan.md).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>

#define MAXN 10
#define MAXCOL 128
#define MAXSTOCK 128
#define MAXSTEPS 2048
#define MAXENC 160
#define RANK(c) ((c) & 15)
#define ACE 1
#define KING 13
#define RUNLEN 13

typedef struct {
    uint8_t len[MAXN];
    uint8_t c[MAXN][MAXCOL];
} Table;

/* A step: kind 0 a move (s, d, k), 1 the deal, 2 a send from column s. */
typedef struct {
    uint8_t kind, s, d, k;
} Step;

typedef struct {
    PyObject_HEAD
    int n;
    int stock_len;
    uint8_t stock[MAXSTOCK];
    uint8_t links[4096];
    uint8_t fits[4096];
    int has_fits;
    int unit; /* 0: the whole group */
    int deal_with_empty, auto_remove;
    int one_empty, no_whole; /* 0 never, 1 always, 2 without stock */
    int whole_groups, eager, deals, shortest_first;
    int runs_total;
    int implicit_first; /* every card known (the solver): a column's lowest face-up card is implied */
    Table root;
    int down_bits, orig_bits, dealt_bits, runs_bits;
    /* canon[i][down]: the first root column whose lowest down (+1 where the lowest face-up card is implied)
     * cards are column i's: the origin a sorted key writes (two decks may deal two columns the same cards) */
    uint8_t canon[MAXN][MAXCOL];
} CCore;

static int bits_for(int v) {
    int b = 0;
    while ((1 << b) <= v) b++;
    return b;
}

/* ------------------------------------------------------------------ one column */
static inline int run_of(const CCore *C, const uint8_t *col, int len) {
    int j = len - 1;
    if (!j) return 0;
    int lo = col[0] + 1, run = 1;
    while (j > lo && C->links[col[j - 1] * 64 + col[j]]) {
        j--;
        run++;
    }
    return run;
}

static inline int group_of(const CCore *C, const uint8_t *col, int len) {
    int r = run_of(C, col, len);
    if (C->unit && r > C->unit) r = C->unit;
    return r;
}

static inline int complete(const CCore *C, const uint8_t *col, int len) {
    return len - 1 - col[0] >= RUNLEN && RANK(col[len - 1]) == ACE && run_of(C, col, len) >= RUNLEN;
}

/* ------------------------------------------------------------------ the moves of a table (Core._moves) */
static int gen_steps(const CCore *C, const Table *T, int stock_left, Step *out) {
    int n = C->n, cnt = 0;
    int one_empty = C->one_empty == 1 || (C->one_empty == 2 && !stock_left);
    int no_whole = C->no_whole == 1 || (C->no_whole == 2 && !stock_left);
    int empty[MAXN], ne = 0;
    for (int i = 0; i < n; i++)
        if (T->len[i] == 1) empty[ne++] = i;
    int any_empty = ne > 0;
    if (ne && one_empty) ne = 1;
    const uint8_t *links = C->links, *fits = C->fits;
    int has_fits = C->has_fits;
    if (C->whole_groups || C->shortest_first) {
        int8_t bytop[16][MAXN];
        int nb[16] = {0};
        for (int i = 0; i < n; i++)
            if (T->len[i] > 1) {
                int r = RANK(T->c[i][T->len[i] - 1]);
                bytop[r][nb[r]++] = (int8_t)i;
            }
        for (int s = 0; s < n; s++) {
            int len = T->len[s];
            if (len == 1) continue;
            const uint8_t *col = T->c[s];
            if (C->whole_groups) {
                int r = group_of(C, col, len);
                int base = col[len - r];
                int under = (len - 1 - col[0] > r) ? col[len - r - 1] : 0;
                int seated = has_fits ? fits[under * 64 + base] : (RANK(under) == RANK(base) + 1);
                int rb = RANK(base) + 1;
                if (rb <= KING)
                    for (int j = 0; j < nb[rb]; j++) {
                        int d = bytop[rb][j];
                        int dtop = T->c[d][T->len[d] - 1];
                        if (has_fits && !fits[dtop * 64 + base]) continue;
                        int in_suit = links[dtop * 64 + base];
                        if (in_suit && C->eager) {
                            out[0] = (Step){0, (uint8_t)s, (uint8_t)d, (uint8_t)r};
                            return 1; /* a whole group building in suit: played at once */
                        }
                        if (!seated || in_suit) out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)d, (uint8_t)r};
                    }
                if (ne && !(no_whole && len - 1 == r))
                    for (int j = 0; j < ne; j++) out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)empty[j], (uint8_t)r};
                continue;
            }
            int r = group_of(C, col, len);
            int top = RANK(col[len - 1]);
            for (int k = 1; k <= r; k++) {
                int t = top + k;
                if (t > KING) break;
                for (int j = 0; j < nb[t]; j++) {
                    int d = bytop[t][j];
                    if (has_fits && !fits[T->c[d][T->len[d] - 1] * 64 + col[len - k]]) continue;
                    out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)d, (uint8_t)k};
                }
            }
            if (ne) {
                int last = (no_whole && len - 1 <= r) ? len - 1 : r + 1;
                for (int j = 0; j < ne; j++)
                    for (int k = 1; k < last; k++) out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)empty[j], (uint8_t)k};
            }
        }
    } else {
        int tops[MAXN];
        for (int i = 0; i < n; i++) tops[i] = T->len[i] > 1 ? RANK(T->c[i][T->len[i] - 1]) : 0;
        for (int s = 0; s < n; s++) {
            int len = T->len[s];
            if (len == 1) continue;
            const uint8_t *col = T->c[s];
            int r = group_of(C, col, len), base = tops[s];
            for (int d = 0; d < n; d++) {
                int k = tops[d] - base;
                if (0 < k && k <= r && d != s &&
                    (!has_fits || fits[T->c[d][T->len[d] - 1] * 64 + col[len - k]]))
                    out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)d, (uint8_t)k};
            }
            for (int j = 0; j < ne; j++) {
                int most = (no_whole && len - 1 == r) ? r - 1 : r;
                for (int k = 1; k <= most; k++) out[cnt++] = (Step){0, (uint8_t)s, (uint8_t)empty[j], (uint8_t)k};
            }
        }
    }
    if (stock_left && C->deals && (C->deal_with_empty || !any_empty)) out[cnt++] = (Step){1, 0, 0, 0};
    if (!C->auto_remove)
        for (int i = 0; i < n; i++)
            if (complete(C, T->c[i], T->len[i])) out[cnt++] = (Step){2, (uint8_t)i, 0, 0};
    return cnt;
}

/* ------------------------------------------------------------------ the applier, in place, and its undo */
typedef struct {
    uint8_t len[MAXN], down[MAXN];
    int cols; /* how many columns were saved (the first `cols`, or the two of a move) */
    uint8_t s, d;
} Undo;

/* Applies step st to T; returns the cards turned over; *runs_gone: finished runs that left; *dealt advanced. */
static inline int apply_step(const CCore *C, Table *T, Step st, int *dealt, int *runs_gone, Undo *u) {
    *runs_gone = 0;
    if (st.kind == 0) {
        int s = st.s, d = st.d, k = st.k;
        uint8_t *cs = T->c[s], *cd = T->c[d];
        int ls = T->len[s], ld = T->len[d];
        u->cols = -1;
        u->s = (uint8_t)s;
        u->d = (uint8_t)d;
        u->len[0] = (uint8_t)ls;
        u->len[1] = (uint8_t)ld;
        u->down[0] = cs[0];
        u->down[1] = cd[0];
        memcpy(cd + ld, cs + ls - k, (size_t)k);
        ld += k;
        ls -= k;
        int turned = 0;
        if (cs[0] && cs[0] == ls - 1) {
            cs[0]--;
            turned = 1;
        }
        if (RANK(cd[ld - 1]) == ACE && k < RUNLEN && complete(C, cd, ld)) {
            if (C->auto_remove) {
                *runs_gone = 1;
                ld -= RUNLEN;
                if (cd[0] && cd[0] == ld - 1) {
                    cd[0]--;
                    turned++;
                }
            }
        }
        T->len[s] = (uint8_t)ls;
        T->len[d] = (uint8_t)ld;
        return turned;
    }
    if (st.kind == 1) {
        int k = C->stock_len - *dealt;
        if (k > C->n) k = C->n;
        u->cols = k;
        int turned = 0;
        for (int i = 0; i < k; i++) {
            uint8_t *col = T->c[i];
            int len = T->len[i];
            u->len[i] = (uint8_t)len;
            u->down[i] = col[0];
            int card = C->stock[*dealt + i];
            col[len++] = (uint8_t)card;
            if (C->auto_remove && RANK(card) == ACE && complete(C, col, len)) {
                len -= RUNLEN;
                (*runs_gone)++;
                if (col[0] && col[0] == len - 1) {
                    col[0]--;
                    turned++;
                }
            }
            T->len[i] = (uint8_t)len;
        }
        *dealt += k;
        return turned;
    }
    /* a send: the finished run on column s leaves */
    int s = st.s;
    uint8_t *col = T->c[s];
    int len = T->len[s];
    u->cols = -2;
    u->s = (uint8_t)s;
    u->len[0] = (uint8_t)len;
    u->down[0] = col[0];
    len -= RUNLEN;
    int turned = 0;
    if (col[0] && col[0] == len - 1) {
        col[0]--;
        turned = 1;
    }
    T->len[s] = (uint8_t)len;
    *runs_gone = 1;
    return turned;
}

static inline void undo_step(Table *T, const Undo *u) {
    if (u->cols == -1) {
        T->len[u->s] = u->len[0];
        T->len[u->d] = u->len[1];
        T->c[u->s][0] = u->down[0];
        T->c[u->d][0] = u->down[1];
    } else if (u->cols == -2) {
        T->len[u->s] = u->len[0];
        T->c[u->s][0] = u->down[0];
    } else {
        for (int i = 0; i < u->cols; i++) {
            T->len[i] = u->len[i];
            T->c[i][0] = u->down[i];
        }
    }
}

/* ------------------------------------------------------------------ the compact key
 * A bit string, least significant bit first: dealt (dealt_bits), runs (runs_bits); then each column (in table
 * order while cards are left to deal, else sorted: the columns are then interchangeable): its face-down count
 * (down_bits), [sorted and cards face down: the column it stands in at the root (orig_bits): which face-down
 * cards], then each face-up card as a code on the card below it:
 *   0            one rank lower, same suit (the card's value minus one)
 *   1 0 ss       one rank lower, suit ss
 *   1 1 0 cccccc any card
 *   1 1 1        end of column
 * The face-down cards are never written (a column's are the first `down` of its root column), nor, where every
 * card is known, the lowest face-up card of a column with cards face down (the root column's next card: a card
 * lying on a face-down one has lain there since the root). Exact and decodable (decode()). */
typedef struct {
    uint8_t *p;
    uint64_t acc;
    int n;
} BW;

static inline void bw_put(BW *w, uint32_t v, int bits) {
    w->acc |= (uint64_t)v << w->n;
    w->n += bits;
    while (w->n >= 8) {
        *w->p++ = (uint8_t)w->acc;
        w->acc >>= 8;
        w->n -= 8;
    }
}

typedef struct {
    const uint8_t *p;
    uint64_t acc;
    int n;
} BR;

static inline uint32_t br_get(BR *r, int bits) {
    while (r->n < bits) {
        r->acc |= (uint64_t)(*r->p++) << r->n;
        r->n += 8;
    }
    uint32_t v = (uint32_t)(r->acc & ((1u << bits) - 1));
    r->acc >>= bits;
    r->n -= bits;
    return v;
}

static inline int colcmp(const Table *T, int a, int b) {
    int la = T->len[a], lb = T->len[b];
    int m = memcmp(T->c[a], T->c[b], (size_t)(la < lb ? la : lb));
    return m ? m : la - lb;
}

/* One column's code (see above), as a bit string of nbits bits (bytes written: the first ceil(nbits / 8)). */
#define CODEW 18
typedef struct {
    uint64_t w[CODEW];
    int nbits;
} Code;

/* The first root column whose lowest face-down cards (and lowest face-up card, where implied) are those of col,
 * a column with cards face down: which face-down cards a sorted key means. Read from the column's cards, not
 * its place (the proof pass expands tables with their columns sorted); canon[i][down] where it is in place. */
static inline int origin_of(const CCore *C, const uint8_t *col, int i) {
    int down = col[0], same = down + (C->implicit_first ? 1 : 0);
    if (C->root.c[i][0] >= down && !memcmp(C->root.c[i] + 1, col + 1, (size_t)same)) return C->canon[i][down];
    for (int j = 0; j < C->n; j++)
        if (C->root.c[j][0] >= down && !memcmp(C->root.c[j] + 1, col + 1, (size_t)same)) return j;
    return i; /* (not reached: a column's face-down cards are its root column's) */
}

/* A writer of whole 64-bit words (the bits above the last written stay 0). */
typedef struct {
    uint64_t *w;
    uint64_t acc;
    int n, q;
} WW;

static inline void ww_put(WW *x, uint64_t v, int bits) {
    x->acc |= v << x->n;
    x->n += bits;
    if (x->n >= 64) {
        x->w[x->q++] = x->acc;
        x->n -= 64;
        x->acc = x->n ? v >> (bits - x->n) : 0;
    }
}

static inline void code_col(const CCore *C, const uint8_t *col, int len, int sorted, int i, Code *k) {
    WW w = {k->w, 0, 0, 0};
    int down = col[0];
    ww_put(&w, (uint64_t)down, C->down_bits);
    if (sorted && down) ww_put(&w, origin_of(C, col, i), C->orig_bits);
    int p = down + 1, prev = -1;
    if (down && C->implicit_first) {
        prev = col[p];
        p++;
    }
    for (; p < len; p++) {
        int c = col[p];
        if (prev >= 0 && RANK(prev) >= 2 && RANK(c) == RANK(prev) - 1) {
            if (c == prev - 1)
                ww_put(&w, 0, 1);
            else
                ww_put(&w, 1u | ((uint32_t)(c >> 4) << 2), 4);
        } else
            ww_put(&w, 3u | ((uint32_t)c << 3), 9);
        prev = c;
    }
    ww_put(&w, 7, 3);
    k->nbits = w.q * 64 + w.n;
    if (w.n) k->w[w.q] = w.acc;
}

/* A total order of codes (any one will do: it only makes the sorted key canonical). */
static inline int codecmp(const Code *a, const Code *b) {
    if (a->nbits != b->nbits) return a->nbits - b->nbits;
    for (int q = 0, words = (a->nbits + 63) >> 6; q < words; q++)
        if (a->w[q] != b->w[q]) return a->w[q] < b->w[q] ? -1 : 1;
    return 0;
}

static inline void put_bits(uint64_t *kw, int *pos, uint64_t v, int bits) {
    int p = *pos, q = p >> 6, r = p & 63;
    kw[q] |= v << r;
    if (r && r + bits > 64) kw[q + 1] |= v >> (64 - r);
    *pos = p + bits;
}

#define KEYW 24
/* The key of a table from its columns' codes (cp[i]: column i's), sorted where no card is left to deal: written to
 * out, its length returned; order[j]: the column coded j-th. (Little-endian words: the bytes are the stream.) */
static int join_with(const CCore *C, const Code *const *cp, int dealt, int runs, uint8_t *out, uint8_t *order,
                     const uint8_t *parent, const uint8_t *porder, const int *ppos, int same_head, int s, int d) {
    int n = C->n, total = C->dealt_bits + C->runs_bits;
    for (int i = 0; i < n; i++) {
        order[i] = (uint8_t)i;
        total += cp[i]->nbits;
    }
    if (dealt >= C->stock_len)
        for (int i = 1; i < n; i++) {
            uint8_t x = order[i];
            int j = i - 1;
            while (j >= 0 && codecmp(cp[order[j]], cp[x]) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    uint64_t kw[KEYW];
    memset(kw, 0, (size_t)(((total + 63) >> 6) + 1) * sizeof(uint64_t));
    int pos = 0, j = 0;
    if (parent && same_head) { /* the columns coded before the first that differs from the parent's: its bits */
        while (j < n && order[j] == porder[j] && order[j] != s && order[j] != d) j++;
        pos = ppos[j];
        memcpy(kw, parent, (size_t)(pos >> 3));
        if (pos & 7) ((uint8_t *)kw)[pos >> 3] = (uint8_t)(parent[pos >> 3] & ((1u << (pos & 7)) - 1));
    } else {
        put_bits(kw, &pos, (uint64_t)dealt, C->dealt_bits);
        put_bits(kw, &pos, (uint64_t)runs, C->runs_bits);
    }
    for (; j < n; j++) {
        const Code *k = cp[order[j]];
        int full = k->nbits >> 6, rem = k->nbits & 63;
        for (int q = 0; q < full; q++) put_bits(kw, &pos, k->w[q], 64);
        if (rem) put_bits(kw, &pos, k->w[full], rem); /* (its bits above rem are 0) */
    }
    int len = (pos + 7) >> 3;
    memcpy(out, kw, (size_t)len);
    return len;
}

static int join(const CCore *C, const Code *const *cp, int dealt, int runs, uint8_t *out, uint8_t *order) {
    return join_with(C, cp, dealt, runs, out, order, NULL, NULL, NULL, 0, -1, -1);
}

/* Writes the key of (T, dealt, runs) to out; returns its length in bytes; order[] gets the columns' order. */
static int encode(const CCore *C, const Table *T, int dealt, int runs, uint8_t *out, uint8_t *order) {
    Code codes[MAXN];
    const Code *cp[MAXN];
    int sorted = dealt >= C->stock_len;
    for (int i = 0; i < C->n; i++) {
        code_col(C, T->c[i], T->len[i], sorted, i, &codes[i]);
        cp[i] = &codes[i];
    }
    return join(C, cp, dealt, runs, out, order);
}

/* The table of a key; order[] (as encode() gave it) puts the columns back where they stood. */
static void decode(const CCore *C, const uint8_t *key, const uint8_t *order, Table *T, int *dealt, int *runs,
                   int *starts) {
    BR r = {key, 0, 0};
    int n = C->n;
    *dealt = (int)br_get(&r, C->dealt_bits);
    *runs = (int)br_get(&r, C->runs_bits);
    int sorted = *dealt >= C->stock_len;
    for (int j = 0; j < n; j++) {
        if (starts) starts[j] = (int)(r.p - key) * 8 - r.n; /* (where the j-th coded column starts) */
        int down = (int)br_get(&r, C->down_bits);
        int i = sorted ? order[j] : j;
        int origin = (sorted && down) ? (int)br_get(&r, C->orig_bits) : i;
        uint8_t *col = T->c[i];
        const uint8_t *rc = C->root.c[origin];
        col[0] = (uint8_t)down;
        memcpy(col + 1, rc + 1, (size_t)down);
        int len = 1 + down, prev = -1;
        if (down && C->implicit_first) {
            prev = rc[down + 1];
            col[len++] = (uint8_t)prev;
        }
        for (;;) {
            int c;
            if (!br_get(&r, 1))
                c = prev - 1;
            else if (!br_get(&r, 1))
                c = (int)(br_get(&r, 2) << 4) | (RANK(prev) - 1);
            else if (!br_get(&r, 1))
                c = (int)br_get(&r, 6);
            else
                break;
            col[len++] = (uint8_t)c;
            prev = c;
        }
        T->len[i] = (uint8_t)len;
    }
    if (starts) starts[n] = (int)(r.p - key) * 8 - r.n;
}

/* The 64 bits of p from bit `bit` on (p readable 9 bytes past them). */
static inline uint64_t bits64(const uint8_t *p, int bit) {
    uint64_t lo;
    memcpy(&lo, p + (bit >> 3), 8);
    int r = bit & 7;
    if (r) lo = (lo >> r) | ((uint64_t)p[(bit >> 3) + 8] << (64 - r));
    return lo;
}

/* A column's code read back out of a key (bits start .. start + nbits). */
static inline void code_at(const uint8_t *p, int start, int nbits, Code *k) {
    int q = 0;
    k->nbits = nbits;
    for (; (q + 1) * 64 <= nbits; q++) k->w[q] = bits64(p, start + 64 * q);
    int rem = nbits - q * 64;
    if (rem) k->w[q] = bits64(p, start + 64 * q) & ((1ull << rem) - 1);
}

static inline uint64_t hash_bytes(const uint8_t *p, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)len;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ (v * 0xBF58476D1CE4E5B9ull));
        h = ((h << 31) | (h >> 33)) * 0x94D049BB133111EBull;
        p += 8;
        len -= 8;
    }
    if (len) {
        uint64_t v = 0;
        memcpy(&v, p, (size_t)len);
        h = (h ^ (v * 0xBF58476D1CE4E5B9ull));
        h = ((h << 31) | (h >> 33)) * 0x94D049BB133111EBull;
    }
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    return h;
}

/* ------------------------------------------------------------------ Python: the table in and out */
static int table_from(const CCore *C, PyObject *cols, Table *T) {
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != C->n) {
        PyErr_SetString(PyExc_ValueError, "a table is a tuple of one bytes a column");
        return -1;
    }
    for (int i = 0; i < C->n; i++) {
        PyObject *b = PyTuple_GET_ITEM(cols, i);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) < 1 || PyBytes_GET_SIZE(b) > MAXCOL - RUNLEN - 1) {
            PyErr_SetString(PyExc_ValueError, "a column is bytes: its face-down count, then its cards");
            return -1;
        }
        T->len[i] = (uint8_t)PyBytes_GET_SIZE(b);
        memcpy(T->c[i], PyBytes_AS_STRING(b), T->len[i]);
    }
    return 0;
}

static PyObject *table_to(const CCore *C, const Table *T) {
    PyObject *t = PyTuple_New(C->n);
    if (!t) return NULL;
    for (int i = 0; i < C->n; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)T->c[i], T->len[i]);
        if (!b) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, b);
    }
    return t;
}

static int CCore_init(CCore *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"root", "stock", "links", "fits", "unit", "deal_with_empty", "auto_remove",
                            "one_empty", "no_whole", "whole_groups", "eager", "deals", "shortest_first",
                            "runs_total", "implicit_first", NULL};
    PyObject *root, *fits;
    Py_buffer stock, links;
    int unit, dwe, ar, oe, nw, wg, eager, deals, sf, rt, impl;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oy*y*Oippiippppip", names, &root, &stock, &links, &fits, &unit,
                                     &dwe, &ar, &oe, &nw, &wg, &eager, &deals, &sf, &rt, &impl))
        return -1;
    int bad = links.len != 4096 || stock.len > MAXSTOCK || !PyTuple_Check(root) || PyTuple_GET_SIZE(root) < 1 ||
              PyTuple_GET_SIZE(root) > MAXN;
    if (!bad) {
        self->n = (int)PyTuple_GET_SIZE(root);
        self->stock_len = (int)stock.len;
        memcpy(self->stock, stock.buf, (size_t)stock.len);
        memcpy(self->links, links.buf, 4096);
    }
    PyBuffer_Release(&stock);
    PyBuffer_Release(&links);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bad core: links is 4096 bytes, a stock of at most 128, 1-10 columns");
        return -1;
    }
    self->has_fits = fits != Py_None;
    if (self->has_fits) {
        if (!PyBytes_Check(fits) || PyBytes_GET_SIZE(fits) != 4096) {
            PyErr_SetString(PyExc_ValueError, "fits is None or 4096 bytes");
            return -1;
        }
        memcpy(self->fits, PyBytes_AS_STRING(fits), 4096);
    }
    self->unit = unit;
    self->deal_with_empty = dwe;
    self->auto_remove = ar;
    self->one_empty = oe;
    self->no_whole = nw;
    self->whole_groups = wg;
    self->eager = eager;
    self->deals = deals;
    self->shortest_first = sf;
    self->runs_total = rt;
    self->implicit_first = impl;
    if (table_from(self, root, &self->root) < 0) return -1;
    int most_down = 0;
    for (int i = 0; i < self->n; i++)
        if (self->root.c[i][0] > most_down) most_down = self->root.c[i][0];
    for (int i = 0; i < self->n; i++)
        for (int down = 0; down <= self->root.c[i][0]; down++) {
            int same = down + (self->implicit_first ? 1 : 0);
            self->canon[i][down] = (uint8_t)i;
            for (int j = 0; j < i; j++)
                if (self->root.c[j][0] >= down && !memcmp(self->root.c[j] + 1, self->root.c[i] + 1, (size_t)same)) {
                    self->canon[i][down] = (uint8_t)j;
                    break;
                }
        }
    self->down_bits = bits_for(most_down);
    self->orig_bits = bits_for(self->n - 1);
    self->dealt_bits = bits_for(self->stock_len);
    self->runs_bits = bits_for(rt);
    return 0;
}

static PyObject *step_tuple(Step st) {
    if (st.kind == 0) return Py_BuildValue("(iii)", st.s, st.d, st.k);
    if (st.kind == 1) return Py_BuildValue("(iii)", -1, -1, 0);
    return Py_BuildValue("(iii)", -2, st.s, 0);
}

/* children(cols, dealt, runs) -> [((s, d, k), cols, dealt, runs, turned)]: every step's child, in order; a deal
 * is (-1, -1, 0), a send from column i (-2, i, 0). */
static PyObject *CCore_children(CCore *self, PyObject *args) {
    PyObject *cols;
    int dealt, runs;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &dealt, &runs)) return NULL;
    Table T;
    if (table_from(self, cols, &T) < 0) return NULL;
    Step steps[MAXSTEPS];
    int ns = gen_steps(self, &T, dealt < self->stock_len, steps);
    PyObject *out = PyList_New(ns);
    if (!out) return NULL;
    for (int i = 0; i < ns; i++) {
        Undo u;
        int nd = dealt, gone;
        int turned = apply_step(self, &T, steps[i], &nd, &gone, &u);
        PyObject *tt = table_to(self, &T);
        undo_step(&T, &u);
        PyObject *st = step_tuple(steps[i]);
        PyObject *item = (tt && st) ? Py_BuildValue("(OOiii)", st, tt, nd, runs + gone, turned) : NULL;
        Py_XDECREF(tt);
        Py_XDECREF(st);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* key(cols, dealt, runs) -> (key bytes, order bytes) */
static PyObject *CCore_key(CCore *self, PyObject *args) {
    PyObject *cols;
    int dealt, runs;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &dealt, &runs)) return NULL;
    Table T;
    if (table_from(self, cols, &T) < 0) return NULL;
    uint8_t buf[MAXENC * 2], order[MAXN];
    int len = encode(self, &T, dealt, runs, buf, order);
    return Py_BuildValue("(y#y#)", buf, (Py_ssize_t)len, order, (Py_ssize_t)self->n);
}

/* decode(key, order) -> (cols, dealt, runs) */
static PyObject *CCore_decode(CCore *self, PyObject *args) {
    Py_buffer key, order;
    if (!PyArg_ParseTuple(args, "y*y*", &key, &order)) return NULL;
    Table T;
    int dealt, runs;
    uint8_t kb[MAXENC * 2 + 16] = {0}, ob[MAXN] = {0};
    memcpy(kb, key.buf, (size_t)(key.len < MAXENC * 2 ? key.len : MAXENC * 2));
    memcpy(ob, order.buf, (size_t)(order.len < MAXN ? order.len : MAXN));
    PyBuffer_Release(&key);
    PyBuffer_Release(&order);
    decode(self, kb, ob, &T, &dealt, &runs, NULL);
    PyObject *tt = table_to(self, &T);
    if (!tt) return NULL;
    return Py_BuildValue("(Nii)", tt, dealt, runs);
}

/* ------------------------------------------------------------------ the solver's search (solver._search) */
typedef struct {
    int hidden, buried, out_of_order, off_suit, in_stock, empty_column, finished_run, path;
} Weights;

static inline int col_cost(const CCore *C, const Weights *w, const uint8_t *col, int len) {
    int down = col[0], top = len - 1;
    int cost = w->hidden * down + (down ? w->buried * (top - down) : 0);
    for (int i = down + 2; i <= top; i++) {
        int below = col[i - 1], above = col[i];
        if (RANK(below) != RANK(above) + 1)
            cost += w->out_of_order;
        else if (!C->links[below * 64 + above])
            cost += (C->has_fits && !C->fits[below * 64 + above]) ? w->out_of_order : w->off_suit;
    }
    if (!top) cost -= w->empty_column;
    return cost;
}

/* A table held: its parent, the move that made it, where its key lies in the arena: a byte of length, the key,
 * then, when the columns are sorted, the order of the columns (4 bits a column). 12 bytes, plus the key's. */
typedef struct {
    uint32_t parent;
    uint32_t off;
    uint8_t kind, s, dk, pad; /* s: a move's source | destination << 4, a send's column; dk: a move's count */
} Node;

/* The frontier: a bucket queue, one stack a priority (the costs are whole numbers in a narrow range): the least
 * priority first, the newest first among equals (the pure search's heap order, in O(1) a push or a pop). */
typedef struct {
    uint32_t node;
    int32_t cost;
    uint32_t depth;
} Entry;

typedef struct {
    Entry *v;
    uint32_t n, cap;
} Bucket;

typedef struct {
    Node *nodes;
    size_t nn, ncap;
    uint8_t *arena;
    size_t alen, acap;
    uint64_t *slots; /* (hash high 32 bits << 32) | arena offset of the key's length byte + 1; 0 empty */
    size_t scap, held;
    Bucket *bq;
    int64_t base; /* the priority of bq[0] */
    size_t nb, lo, hn; /* buckets; the lowest that may hold an entry; entries */
    size_t hbytes;
    int kmax; /* the longest key held */
} Store;

static void store_free(Store *S) {
    free(S->nodes);
    free(S->arena);
    free(S->slots);
    for (size_t i = 0; i < S->nb; i++) free(S->bq[i].v);
    free(S->bq);
}

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int rehash(Store *S) {
    size_t cap = S->scap ? S->scap * 2 : 1 << 16;
    uint64_t *slots = calloc(cap, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t i = 0; i < S->scap; i++) {
        uint64_t v = S->slots[i];
        if (!v) continue;
        const uint8_t *k = S->arena + (v & 0xFFFFFFFFull) - 1;
        uint64_t h = hash_bytes(k + 1, k[0]);
        size_t j = (size_t)h & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    free(S->slots);
    S->slots = slots;
    S->scap = cap;
    return 0;
}

/* Holds the key (len bytes) unless held already: the new table's arena offset, -2 if it was held, -1 when out
 * of memory. */
static int64_t store_put_h(Store *S, const uint8_t *key, int len, const uint8_t *order, int olen, uint64_t h) {
    if ((S->held + 1) * 10 >= S->scap * 7 && rehash(S) < 0) return -1;
    uint64_t tag = h & 0xFFFFFFFF00000000ull;
    size_t mask = S->scap - 1, j = (size_t)h & mask;
    while (S->slots[j]) {
        uint64_t v = S->slots[j];
        if ((v & 0xFFFFFFFF00000000ull) == tag) {
            const uint8_t *k = S->arena + (v & 0xFFFFFFFFull) - 1;
            if (k[0] == len && !memcmp(k + 1, key, (size_t)len)) return -2;
        }
        j = (j + 1) & mask;
    }
    if (grow((void **)&S->arena, &S->acap, S->alen + (size_t)len + (size_t)olen + 16, 1) < 0) return -1;
    size_t off = S->alen;
    S->arena[off] = (uint8_t)len;
    memcpy(S->arena + off + 1, key, (size_t)len);
    S->alen += 1 + (size_t)len;
    for (int i = 0; i < olen; i += 2) /* the order of sorted columns, 4 bits a column */
        S->arena[S->alen++] = (uint8_t)(order[i] | ((i + 1 < olen ? order[i + 1] : 0) << 4));
    S->slots[j] = tag | (uint64_t)(off + 1);
    S->held++;
    if (len > S->kmax) S->kmax = len;
    return (int64_t)off;
}

static int64_t store_put(Store *S, const uint8_t *key, int len, const uint8_t *order, int olen) {
    return store_put_h(S, key, len, order, olen, hash_bytes(key, len));
}

static int64_t new_node(Store *S, uint32_t off, uint32_t parent, Step st) {
    if (grow((void **)&S->nodes, &S->ncap, S->nn + 1, sizeof(Node)) < 0) return -1;
    Node *nd = &S->nodes[S->nn];
    nd->parent = parent;
    nd->off = off;
    nd->kind = st.kind;
    nd->s = st.kind == 0 ? (uint8_t)(st.s | (st.d << 4)) : st.s;
    nd->dk = st.k;
    return (int64_t)S->nn++;
}

static void node_order(const Store *S, const Node *nd, int n, uint8_t *order) {
    const uint8_t *p = S->arena + nd->off + 1 + S->arena[nd->off];
    for (int i = 0; i < n; i++) order[i] = (uint8_t)((p[i / 2] >> ((i & 1) * 4)) & 15);
}

static int heap_push(Store *S, int64_t prio, Entry e) {
    if (!S->nb) {
        S->nb = 4096;
        S->base = prio - 2048;
        S->bq = calloc(S->nb, sizeof(Bucket));
        if (!S->bq) return -1;
        S->lo = S->nb;
    }
    int64_t i = prio - S->base;
    if (i < 0) {
        size_t extra = S->nb > (size_t)(-i) + 1024 ? S->nb : (size_t)(-i) + 1024;
        Bucket *b = calloc(S->nb + extra, sizeof(Bucket));
        if (!b) return -1;
        memcpy(b + extra, S->bq, S->nb * sizeof(Bucket));
        free(S->bq);
        S->bq = b;
        S->nb += extra;
        S->base -= (int64_t)extra;
        S->lo += extra;
        i += (int64_t)extra;
    } else if ((size_t)i >= S->nb) {
        size_t extra = S->nb > (size_t)i - S->nb + 1024 ? S->nb : (size_t)i - S->nb + 1024;
        Bucket *b = realloc(S->bq, (S->nb + extra) * sizeof(Bucket));
        if (!b) return -1;
        memset(b + S->nb, 0, extra * sizeof(Bucket));
        if (S->lo == S->nb) S->lo += extra;
        S->bq = b;
        S->nb += extra;
    }
    Bucket *b = &S->bq[i];
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 16;
        Entry *v = realloc(b->v, cap * sizeof(Entry));
        if (!v) return -1;
        S->hbytes += (cap - b->cap) * sizeof(Entry);
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = e;
    if ((size_t)i < S->lo) S->lo = (size_t)i;
    S->hn++;
    return 0;
}

static Entry heap_pop(Store *S) {
    while (!S->bq[S->lo].n) S->lo++;
    S->hn--;
    Bucket *b = &S->bq[S->lo];
    return b->v[--b->n];
}

/* A child worked out before it is looked up. */
typedef struct {
    uint64_t hash;
    int32_t cost;
    uint8_t len, dealt, runs;
    uint8_t order[MAXN];
    uint8_t key[MAXENC];
} Child;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* search(dealt, runs, weights, node_limit, held, seconds) from the root given at construction ->
 * dict(outcome, line, nodes, best, open, held, key_bytes, bytes): solver._search's answers. */
static PyObject *CCore_search(CCore *self, PyObject *args) {
    int dealt0, runs0;
    Weights w;
    long long node_limit, held_cap;
    double seconds;
    if (!PyArg_ParseTuple(args, "ii(iiiiiiii)LLd", &dealt0, &runs0, &w.hidden, &w.buried, &w.out_of_order,
                          &w.off_suit, &w.in_stock, &w.empty_column, &w.finished_run, &w.path, &node_limit,
                          &held_cap, &seconds))
        return NULL;
    CCore *C = self;
    int n = C->n;
    Store S;
    memset(&S, 0, sizeof S);
    const char *outcome = "exhausted";
    int64_t win_node = -1, best_node = 0;
    long long nodes = 0;
    int best = 0, oom = 0;
    double t0 = now_s(), deadline = seconds > 0 ? t0 + seconds : 0;
    Child *kids = NULL;
    Py_BEGIN_ALLOW_THREADS
    Table T = C->root;
    uint8_t key[MAXENC * 2], order[MAXN];
    Code codes[MAXN], fresh[2];
    uint8_t pkey[MAXENC * 2], porder[MAXN];
    int ppos[MAXN + 1];
    const Code *cp[MAXN];
    int pcost[MAXN];
    int klen = encode(C, &T, dealt0, runs0, key, order);
    int64_t off = store_put(&S, key, klen, order, dealt0 >= C->stock_len ? n : 0);
    if (off < 0 || new_node(&S, (uint32_t)off, UINT32_MAX, (Step){255, 0, 0, 0}) < 0) {
        oom = 1;
        goto done;
    }
    int cost0 = w.in_stock * (C->stock_len - dealt0) - w.finished_run * runs0;
    for (int i = 0; i < n; i++) cost0 += col_cost(C, &w, T.c[i], T.len[i]);
    best = cost0;
    if (heap_push(&S, cost0, (Entry){0, cost0, 0}) < 0) {
        oom = 1;
        goto done;
    }
    Step steps[MAXSTEPS];
    kids = malloc(sizeof(Child) * MAXSTEPS);
    if (!kids) {
        oom = 1;
        goto done;
    }
    while (S.hn) {
        if (node_limit > 0 && nodes >= node_limit) {
            outcome = "budget";
            break;
        }
        if ((nodes & 255) == 0) {
            if (deadline > 0 && now_s() > deadline) {
                outcome = "budget";
                break;
            }
            if (held_cap > 0 && (long long)S.held >= held_cap) {
                outcome = "held";
                break;
            }
        }
        Entry e = heap_pop(&S);
        nodes++;
        uint32_t depth = e.depth + 1;
        int dealt, runs;
        const Node *here = &S.nodes[e.node];
        node_order(&S, here, n, order);
        /* the parent's key, and where each of its coded columns starts in it: a move's child shares all but
         * two columns' codes with it (read back out of the key), and its key begins as the parent's */
        memcpy(pkey, S.arena + here->off + 1, S.arena[here->off]);
        decode(C, pkey, order, &T, &dealt, &runs, ppos);
        int dealing = dealt < C->stock_len;
        if (!dealing) memcpy(porder, order, (size_t)n);
        else
            for (int i = 0; i < n; i++) porder[i] = (uint8_t)i;
        for (int j = 0; j < n; j++) code_at(pkey, ppos[j], ppos[j + 1] - ppos[j], &codes[porder[j]]);
        for (int i = 0; i < n; i++) pcost[i] = col_cost(C, &w, T.c[i], T.len[i]);
        int ns = gen_steps(C, &T, dealing, steps);
        /* First every child's key, hash and cost, its slot fetched ahead; then each looked up in turn. */
        if ((S.held + (size_t)ns) * 10 >= S.scap * 7 && rehash(&S) < 0) {
            oom = 1;
            goto done;
        }
        for (int i = 0; i < ns; i++) {
            Step st = steps[i];
            Child *ch = &kids[i];
            Undo u;
            int nd = dealt, gone, c;
            apply_step(C, &T, st, &nd, &gone, &u);
            int done = runs + gone;
            if (st.kind == 0) {
                for (int j = 0; j < n; j++) cp[j] = &codes[j];
                code_col(C, T.c[st.s], T.len[st.s], !dealing, st.s, &fresh[0]);
                code_col(C, T.c[st.d], T.len[st.d], !dealing, st.d, &fresh[1]);
                cp[st.s] = &fresh[0];
                cp[st.d] = &fresh[1];
                ch->len = (uint8_t)join_with(C, cp, nd, done, ch->key, ch->order, pkey, porder, ppos, done == runs,
                                             st.s, st.d);
                c = e.cost + col_cost(C, &w, T.c[st.s], T.len[st.s]) + col_cost(C, &w, T.c[st.d], T.len[st.d]) -
                    pcost[st.s] - pcost[st.d];
                if (done != runs) c -= w.finished_run;
            } else {
                ch->len = (uint8_t)encode(C, &T, nd, done, ch->key, ch->order);
                if (st.kind == 1) {
                    c = e.cost + w.in_stock * (dealt - nd) - w.finished_run * (done - runs);
                    for (int j = 0; j < u.cols; j++) c += col_cost(C, &w, T.c[j], T.len[j]) - pcost[j];
                } else
                    c = e.cost - w.finished_run + col_cost(C, &w, T.c[st.s], T.len[st.s]) - pcost[st.s];
            }
            undo_step(&T, &u);
            ch->hash = hash_bytes(ch->key, ch->len);
            __builtin_prefetch(&S.slots[ch->hash & (S.scap - 1)]);
            ch->cost = c;
            ch->dealt = (uint8_t)nd;
            ch->runs = (uint8_t)done;
        }
        for (int i = 0; i < ns; i++) {
            Child *ch = &kids[i];
            off = store_put_h(&S, ch->key, ch->len, ch->order, ch->dealt >= C->stock_len ? n : 0, ch->hash);
            if (off == -2) continue; /* held already */
            int64_t id = off < 0 ? -1 : new_node(&S, (uint32_t)off, e.node, steps[i]);
            if (id < 0) {
                oom = 1;
                goto done;
            }
            if (ch->runs == C->runs_total) {
                outcome = "win";
                win_node = id;
                best = ch->cost; /* (the pure search's answer: the winning table's disorder) */
                goto done;
            }
            if (ch->cost < best) {
                best = ch->cost;
                best_node = id;
            }
            if (heap_push(&S, (int64_t)ch->cost + (int64_t)w.path * depth, (Entry){(uint32_t)id, ch->cost, depth}) < 0) {
                oom = 1;
                goto done;
            }
        }
    }
done:;
    free(kids);
    Py_END_ALLOW_THREADS
    if (oom) {
        store_free(&S);
        return PyErr_NoMemory();
    }
    double secs = now_s() - t0;
    int64_t to = win_node >= 0 ? win_node : best_node;
    PyObject *line = PyList_New(0);
    for (int64_t k = to; line && k >= 0 && S.nodes[k].parent != UINT32_MAX; k = S.nodes[k].parent) {
        Node *nd = &S.nodes[k];
        Step st = {nd->kind, nd->kind == 0 ? (uint8_t)(nd->s & 15) : nd->s, (uint8_t)(nd->s >> 4), nd->dk};
        PyObject *t = step_tuple(st);
        if (!t || PyList_Append(line, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(line);
            break;
        }
        Py_DECREF(t);
    }
    if (line && PyList_Reverse(line) < 0) Py_CLEAR(line);
    PyObject *res = NULL;
    if (line) {
        size_t held = S.held;
        res = Py_BuildValue("{s:s,s:N,s:L,s:i,s:n,s:n,s:n,s:n,s:n,s:n,s:d,s:i}", "outcome", outcome, "line", line,
                            "nodes", nodes, "best", best, "open", (Py_ssize_t)S.hn, "held", (Py_ssize_t)held,
                            "key_bytes", (Py_ssize_t)S.alen, "node_bytes", (Py_ssize_t)(held * sizeof(Node)),
                            "slot_bytes", (Py_ssize_t)(S.scap * sizeof(uint64_t)),
                            "heap_bytes", (Py_ssize_t)S.hbytes, "seconds", secs, "key_max", S.kmax);
    }
    store_free(&S);
    return res;
}

/* ------------------------------------------------------------------ the proof pass (proof._layers) */
/* One layer's tables: keys in an arena, a set of slots (hash tag | offset + 1) over them. */
typedef struct {
    uint64_t *slots;
    size_t scap, count;
    uint8_t *arena;
    size_t alen, acap;
} LSet;

static void lset_free(LSet *L) {
    free(L->slots);
    free(L->arena);
    memset(L, 0, sizeof *L);
}

static int lset_grow(LSet *L) {
    size_t cap = L->scap ? L->scap * 2 : 256;
    uint64_t *slots = calloc(cap, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t i = 0; i < L->scap; i++) {
        uint64_t v = L->slots[i];
        if (!v) continue;
        const uint8_t *k = L->arena + (v & 0xFFFFFFFFull) - 1;
        size_t j = (size_t)hash_bytes(k + 1, k[0]) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    free(L->slots);
    L->slots = slots;
    L->scap = cap;
    return 0;
}

/* 1: held already; 0: added (at *off); 2: not held and no room (may_add false); -1: out of memory. */
static int lset_put(LSet *L, const uint8_t *key, int len, int may_add, size_t *off) {
    if ((L->count + 1) * 10 >= L->scap * 7 && lset_grow(L) < 0) return -1;
    uint64_t h = hash_bytes(key, len), tag = h & 0xFFFFFFFF00000000ull;
    size_t mask = L->scap - 1, j = (size_t)h & mask;
    while (L->slots[j]) {
        uint64_t v = L->slots[j];
        if ((v & 0xFFFFFFFF00000000ull) == tag) {
            const uint8_t *k = L->arena + (v & 0xFFFFFFFFull) - 1;
            if (k[0] == len && !memcmp(k + 1, key, (size_t)len)) return 1;
        }
        j = (j + 1) & mask;
    }
    if (!may_add) return 2;
    if (grow((void **)&L->arena, &L->acap, L->alen + (size_t)len + 17, 1) < 0) return -1;
    size_t o = L->alen;
    L->arena[o] = (uint8_t)len;
    memcpy(L->arena + o + 1, key, (size_t)len);
    L->alen += 1 + (size_t)len;
    L->slots[j] = tag | (uint64_t)(o + 1);
    L->count++;
    *off = o;
    return 0;
}

/* A key's table as the pure pass holds it: the columns in place while cards are left to deal, else sorted as
 * Python sorts bytes (the pure pass expands its sorted key). */
static void proof_table(const CCore *C, const uint8_t *key, Table *T, int *dealt, int *runs) {
    uint8_t ident[MAXN];
    for (int i = 0; i < C->n; i++) ident[i] = (uint8_t)i;
    decode(C, key, ident, T, dealt, runs, NULL);
    if (*dealt >= C->stock_len) { /* the columns sorted, bytes order (a shorter prefix first) */
        int n = C->n, idx[MAXN];
        for (int i = 0; i < n; i++) {
            int x = i, j = i - 1;
            while (j >= 0 && colcmp(T, idx[j], x) > 0) {
                idx[j + 1] = idx[j];
                j--;
            }
            idx[j + 1] = x;
        }
        int moved = 0;
        for (int i = 0; i < n; i++) moved |= idx[i] != i;
        if (moved) {
            Table S;
            for (int i = 0; i < n; i++) {
                S.len[i] = T->len[idx[i]];
                memcpy(S.c[i], T->c[idx[i]], S.len[i]);
            }
            for (int i = 0; i < n; i++) {
                T->len[i] = S.len[i];
                memcpy(T->c[i], S.c[i], S.len[i]);
            }
        }
    }
}

typedef struct {
    const uint8_t *p; /* the table as Python orders it: each byte + 1, a 0 after each column */
    uint32_t len;
    uint32_t off; /* the key's offset in the layer's arena */
} SortKey;

static int sortkey_cmp(const void *a, const void *b) {
    const SortKey *x = a, *y = b;
    int m = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
    return m ? m : (int)x->len - (int)y->len;
}

/* prove(runs, node_limit, held, seconds) from the root given at construction, nothing dealt yet ->
 * dict(outcome, tables, still, layers, peak, stopped, ...): proof._layers' answers. */
static PyObject *CCore_prove(CCore *self, PyObject *args) {
    int runs0, trace = 0;
    long long node_limit, held_cap;
    double seconds;
    if (!PyArg_ParseTuple(args, "iLLd|p", &runs0, &node_limit, &held_cap, &seconds, &trace)) return NULL;
    CCore *C = self;
    uint8_t *tr = NULL; /* (trace: each table visited, as the sort below writes it) */
    size_t trn = 0, trcap = 0;
    int n = C->n, DN = 0, RN = C->runs_total;
    for (int i = 0; i < n; i++) DN += C->root.c[i][0];
    size_t NL = (size_t)(C->stock_len + 1) * (size_t)(DN + 1) * (size_t)(RN + 1);
    LSet *layers = calloc(NL, sizeof(LSet));
    if (!layers) return PyErr_NoMemory();
    const char *outcome = "lost", *stopped = "";
    long long tables = 0, held = 1, peak = 0, nlayers = 0, still = 0, most = held_cap > 0 ? held_cap : LLONG_MAX;
    size_t cur = 0, peak_bytes = 0, live_bytes = 0;
    int oom = 0;
    uint32_t *todo = NULL;
    size_t tn = 0, tcap = 0;
    SortKey *sk = NULL;
    uint8_t *sbuf = NULL;
    double t0 = now_s(), deadline = seconds > 0 ? t0 + seconds : 0;
    Py_BEGIN_ALLOW_THREADS
    Table T = C->root;
    uint8_t key[MAXENC * 2], order[MAXN];
    Step steps[MAXSTEPS];
    Code codes[MAXN], fresh[2];
    const Code *cp[MAXN];
    int down0 = 0;
    for (int i = 0; i < n; i++) down0 += T.c[i][0];
#define LAYER(dealt, down, runs) ((((size_t)(dealt) * (size_t)(DN + 1)) + (size_t)(DN - (down))) * (size_t)(RN + 1) + (size_t)(runs))
    if (runs0 == RN) {
        outcome = "won";
        goto done;
    }
    {
        int klen = encode(C, &T, 0, runs0, key, order);
        size_t off;
        if (lset_put(&layers[LAYER(0, down0, runs0)], key, klen, 1, &off) < 0) {
            oom = 1;
            goto done;
        }
    }
    for (cur = 0; cur < NL; cur++) {
        LSet *L = &layers[cur];
        if (!L->count) continue;
        int ldown = DN - (int)((cur / (size_t)(RN + 1)) % (size_t)(DN + 1));
        /* the layer's tables in the pure pass's order: sorted, the least visited first */
        size_t cnt = L->count, sbytes = 0;
        free(sk);
        free(sbuf);
        sk = malloc(cnt * sizeof(SortKey));
        sbuf = malloc(cnt * (size_t)(2 * n + 128) + 1); /* (a table: its bytes and a 0 a column) */
        if (!sk || !sbuf) {
            oom = 1;
            goto done;
        }
        size_t m = 0;
        for (size_t i = 0; i < L->scap; i++) {
            uint64_t v = L->slots[i];
            if (!v) continue;
            uint32_t off = (uint32_t)((v & 0xFFFFFFFFull) - 1);
            int dealt, runs;
            proof_table(C, L->arena + off + 1, &T, &dealt, &runs);
            uint8_t *p = sbuf + sbytes;
            size_t q = 0;
            for (int c = 0; c < n; c++) {
                for (int b = 0; b < T.len[c]; b++) p[q++] = (uint8_t)(T.c[c][b] + 1);
                p[q++] = 0;
            }
            sk[m].len = (uint32_t)q;
            sk[m].off = off;
            sk[m].p = (const uint8_t *)(uintptr_t)sbytes; /* (an offset until sbuf is final) */
            sbytes += q;
            m++;
        }
        for (size_t i = 0; i < m; i++) sk[i].p = sbuf + (uintptr_t)sk[i].p;
        qsort(sk, m, sizeof(SortKey), sortkey_cmp);
        if (grow((void **)&todo, &tcap, m + 1, sizeof(uint32_t)) < 0) {
            oom = 1;
            goto done;
        }
        tn = 0;
        for (size_t i = m; i-- > 0;) todo[tn++] = sk[i].off; /* (popped from the end: the least first) */
        free(sk);
        free(sbuf);
        sk = NULL;
        sbuf = NULL;
        while (tn) {
            if (node_limit > 0 && tables >= node_limit) {
                outcome = "open";
                stopped = "node limit";
                goto done;
            }
            if ((tables & 255) == 0 && deadline > 0 && now_s() > deadline) {
                outcome = "open";
                stopped = "time limit";
                goto done;
            }
            uint32_t here = todo[--tn];
            tables++;
            int dealt, runs;
            proof_table(C, L->arena + here + 1, &T, &dealt, &runs);
            if (trace) {
                if (grow((void **)&tr, &trcap, trn + 2 * MAXN + 256, 1) < 0) {
                    oom = 1;
                    goto done;
                }
                for (int c = 0; c < n; c++) {
                    for (int b = 0; b < T.len[c]; b++) tr[trn++] = (uint8_t)(T.c[c][b] + 1);
                    tr[trn++] = 0;
                }
                tr[trn++] = 255; /* (end of a table) */
            }
            int dealing = dealt < C->stock_len;
            for (int i = 0; i < n; i++) { /* (a move's child shares all but two columns' codes with it) */
                code_col(C, T.c[i], T.len[i], !dealing, i, &codes[i]);
                cp[i] = &codes[i];
            }
            int ns = gen_steps(C, &T, dealing, steps);
            for (int i = 0; i < ns; i++) {
                Undo u;
                int nd = dealt, gone, klen;
                int turned = apply_step(C, &T, steps[i], &nd, &gone, &u);
                int done_ = runs + gone;
                if (steps[i].kind == 0) {
                    int s_ = steps[i].s, d_ = steps[i].d;
                    code_col(C, T.c[s_], T.len[s_], !dealing, s_, &fresh[0]);
                    code_col(C, T.c[d_], T.len[d_], !dealing, d_, &fresh[1]);
                    cp[s_] = &fresh[0];
                    cp[d_] = &fresh[1];
                    klen = join(C, cp, nd, done_, key, order);
                    cp[s_] = &codes[s_];
                    cp[d_] = &codes[d_];
                } else
                    klen = encode(C, &T, nd, done_, key, order);
                undo_step(&T, &u);
                size_t off;
                if (steps[i].kind == 0 && !turned && !gone) { /* the same layer: most moves */
                    int r = lset_put(L, key, klen, held < most, &off);
                    if (r < 0) {
                        oom = 1;
                        goto done;
                    }
                    if (r == 2) { /* full: the table in hand counts as not visited */
                        tables--;
                        tn++;
                        outcome = "open";
                        stopped = "memory limit";
                        goto done;
                    }
                    if (r == 0) {
                        if (grow((void **)&todo, &tcap, tn + 1, sizeof(uint32_t)) < 0) {
                            oom = 1;
                            goto done;
                        }
                        todo[tn++] = (uint32_t)off;
                        held++;
                    }
                    continue;
                }
                if (done_ == RN) {
                    outcome = "won";
                    goto done;
                }
                LSet *there = &layers[LAYER(nd, ldown - turned, done_)];
                int r = lset_put(there, key, klen, held < most, &off);
                if (r < 0) {
                    oom = 1;
                    goto done;
                }
                if (r == 2) {
                    tables--;
                    tn++;
                    outcome = "open";
                    stopped = "memory limit";
                    goto done;
                }
                if (r == 0) held++;
            }
        }
        nlayers++;
        if (held > peak) peak = held;
        live_bytes = 0;
        for (size_t j = cur; j < NL; j++)
            live_bytes += layers[j].scap * sizeof(uint64_t) + layers[j].acap;
        if (live_bytes > peak_bytes) peak_bytes = live_bytes;
        held -= (long long)L->count;
        lset_free(L);
    }
    held = 0;
done:;
    Py_END_ALLOW_THREADS
#undef LAYER
    if (!oom) {
        if (strcmp(outcome, "lost")) {
            still = (long long)tn;
            for (size_t j = 0; j < NL; j++)
                if (j != cur) still += (long long)layers[j].count;
        }
        if (held > peak) peak = held;
    }
    PyObject *waiting = PyDict_New(); /* (the layers waiting when it stopped: (dealt, -down, runs) -> tables) */
    for (size_t j = 0; waiting && j < NL; j++)
        if (j != cur && layers[j].count) {
            int rr = (int)(j % (size_t)(RN + 1)), dd = DN - (int)((j / (size_t)(RN + 1)) % (size_t)(DN + 1));
            int dl = (int)(j / ((size_t)(RN + 1) * (size_t)(DN + 1)));
            PyObject *k = Py_BuildValue("(iii)", dl, -dd, rr), *v = PyLong_FromSize_t(layers[j].count);
            if (!k || !v || PyDict_SetItem(waiting, k, v) < 0) Py_CLEAR(waiting);
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
    for (size_t j = 0; j < NL; j++) lset_free(&layers[j]);
    free(layers);
    free(todo);
    free(sk);
    free(sbuf);
    if (oom || !waiting) {
        free(tr);
        Py_XDECREF(waiting);
        return oom ? PyErr_NoMemory() : NULL;
    }
    PyObject *visits = trace ? PyBytes_FromStringAndSize((const char *)tr, (Py_ssize_t)trn) : Py_None;
    if (!trace) Py_INCREF(Py_None);
    free(tr);
    if (!visits) {
        Py_DECREF(waiting);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:L,s:L,s:L,s:L,s:s,s:d,s:n,s:N,s:N,s:n}", "outcome", outcome, "tables", tables,
                         "still", still, "layers", nlayers, "peak", peak, "stopped", stopped, "seconds",
                         now_s() - t0, "peak_bytes", (Py_ssize_t)peak_bytes, "visits", visits, "waiting", waiting,
                         "todo", (Py_ssize_t)tn);
}

static PyMethodDef CCore_methods[] = {
    {"children", (PyCFunction)CCore_children, METH_VARARGS, "children(cols, dealt, runs): every step's child"},
    {"key", (PyCFunction)CCore_key, METH_VARARGS, "key(cols, dealt, runs) -> (key, order)"},
    {"decode", (PyCFunction)CCore_decode, METH_VARARGS, "decode(key, order) -> (cols, dealt, runs)"},
    {"prove", (PyCFunction)CCore_prove, METH_VARARGS,
     "prove(runs, node_limit, held, seconds): the proof pass's layers from the root, nothing dealt yet"},
    {"search", (PyCFunction)CCore_search, METH_VARARGS,
     "search(dealt, runs, weights, node_limit, held, seconds): the solver's best-first search from the root"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spiderette.engine._ccore.CCore",
    .tp_basicsize = sizeof(CCore),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game's rules, stock and root table, compiled (a prototype of issue 44's core).",
    .tp_methods = CCore_methods,
    .tp_init = (initproc)CCore_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_ccore", "A prototype compiled search core.", -1,
                                    NULL};

PyMODINIT_FUNC PyInit__ccore(void) {
    if (PyType_Ready(&CCoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&CCoreType);
    if (PyModule_AddObject(m, "CCore", (PyObject *)&CCoreType) < 0) {
        Py_DECREF(&CCoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
