/* ------------------------------------------------------------------ the compact key
 * A bit string, least significant bit first: dealt (dealt_bits), runs (runs_bits); then each column (in table
 * order while cards are left to deal, else sorted: the columns are then interchangeable): its face-down count
 * (0 for none, else 1 then the count in down_bits; nothing where no root column has cards face down), [sorted and
 * cards face down: the column it stands in at the root (orig_bits): which face-down cards], then each face-up card:
 * the column's first one, on nothing (a face-down card or the bare column): the card in 6 bits, and 6 bits of 0 for a
 * column without face-up cards (no card is 0); each next one as a code on the card below it (prev):
 *   0            one rank lower, same suit (the card's value minus one)
 *   1 0 ss       one rank lower, suit ss (another suit than prev's)
 *   1 0 ss       with ss prev's own suit: the end of the column
 *   1 1 cccccc   any other card
 * The face-down cards are never written (a column's are the first `down` of its root column), nor, where every
 * card is known, the lowest face-up card of a column with cards face down (the root column's next card: a card
 * lying on a face-down one has lain there since the root). Exact and decodable (decode()); prefix-free: two keys
 * are equal exactly when their first (either's length) bytes are. */
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

/* Writes card c's code on card prev (-1: none under it): 0 (same suit, a rank lower), 10ss (a rank lower, suit
 * ss), 11 and the card (any other), or the card alone (a column's first face-up card). */
static inline void put_card(WW *w, int prev, int c) {
    if (prev < 0)
        ww_put(w, (uint64_t)c, 6);
    else if (c == prev - 1 && RANK(prev) >= 2)
        ww_put(w, 0, 1);
    else if (RANK(prev) >= 2 && RANK(c) == RANK(prev) - 1)
        ww_put(w, 1u | ((uint32_t)(c >> 4) << 2), 4);
    else
        ww_put(w, 3u | ((uint32_t)c << 2), 8);
}

/* A column's code (see above) in *k; returned: the sum of pair[below * 64 + above] over its face-up cards lying on
 * face-up cards (0 without pair: the solver's costs, worked out in the same pass). */
static inline int code_col_pc(const CCore *C, const int32_t *pair, const uint8_t *col, int len, int sorted, int i,
                              Code *k) {
    WW w = {k->w, 0, 0, 0};
    int down = col[0], cost = 0;
    if (C->down_bits) ww_put(&w, down ? 1u | ((uint32_t)down << 1) : 0u, down ? 1 + C->down_bits : 1);
    if (sorted && down) ww_put(&w, origin_of(C, col, i), C->orig_bits);
    int p = down + 1, prev = -1;
    if (down && C->implicit_first) {
        prev = col[p];
        p++;
    }
    for (; p < len; p++) {
        int c = col[p];
        if (pair && p >= down + 2) cost += pair[col[p - 1] * 64 + c];
        put_card(&w, prev, c);
        prev = c;
    }
    if (prev < 0)
        ww_put(&w, 0, 6);
    else
        ww_put(&w, 1u | ((uint32_t)(prev >> 4) << 2), 4);
    k->nbits = w.q * 64 + w.n;
    if (w.n) k->w[w.q] = w.acc;
    return cost;
}

static inline void code_col(const CCore *C, const uint8_t *col, int len, int sorted, int i, Code *k) {
    code_col_pc(C, NULL, col, len, sorted, i, k);
}

static inline void code_copy(Code *to, const Code *from) {
    to->nbits = from->nbits;
    memcpy(to->w, from->w, (size_t)((from->nbits + 63) >> 6) * sizeof(uint64_t));
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
    if (dealt >= C->stock_len && parent) {
        /* a move's child: the parent's order (by code, then column) less the two changed columns is still in order;
         * the two are put back in their places (the same order as sorting all) */
        int m = 0;
        for (int j = 0; j < n; j++)
            if (porder[j] != s && porder[j] != d) order[m++] = porder[j];
        for (int t = 0; t < 2; t++) {
            uint8_t x = (uint8_t)(t ? d : s);
            int k = m;
            while (k > 0) {
                int c = codecmp(cp[order[k - 1]], cp[x]);
                if (c < 0 || (c == 0 && order[k - 1] < x)) break;
                order[k] = order[k - 1];
                k--;
            }
            order[k] = x;
            m++;
        }
    } else if (dealt >= C->stock_len)
        for (int i = 1; i < n; i++) {
            uint8_t x = order[i];
            int j = i - 1;
            while (j >= 0 && codecmp(cp[order[j]], cp[x]) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    uint64_t kw[KEYW], acc;
    int j = 0, q, r; /* kw[0 .. q-1] written; acc: the next word's r bits */
    if (parent && same_head) { /* the columns coded before the first that differs from the parent's: its bits */
        while (j < n && order[j] == porder[j] && order[j] != s && order[j] != d) j++;
        q = ppos[j] >> 6;
        r = ppos[j] & 63;
        memcpy(kw, parent, (size_t)q * 8);
        memcpy(&acc, parent + q * 8, 8);
        acc = r ? acc & ((1ull << r) - 1) : 0;
    } else {
        q = 0;
        acc = (uint64_t)dealt | ((uint64_t)runs << C->dealt_bits);
        r = C->dealt_bits + C->runs_bits;
    }
    for (; j < n; j++) {
        const Code *k = cp[order[j]];
        for (int t = 0, left = k->nbits; left > 0; t++, left -= 64) {
            uint64_t v = k->w[t]; /* (its bits above the code's are 0) */
            int b = left < 64 ? left : 64;
            acc |= v << r;
            if (r + b >= 64) {
                kw[q++] = acc;
                acc = r ? v >> (64 - r) : 0;
                r = r + b - 64;
            } else
                r += b;
        }
    }
    kw[q] = acc;
    int pos = q * 64 + r;
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

/* 57 bits or more of a key from bit `bit` on (the key readable 8 bytes past its end: the arenas leave room). */
static inline uint64_t peek57(const uint8_t *p, int bit) {
    uint64_t v;
    memcpy(&v, p + (bit >> 3), 8);
    return v >> (bit & 7);
}

/* The table of a key; order[] (as encode() gave it) puts the columns back where they stood. (Reads the key 8 bytes
 * past its end.) */
static inline void decode_pc(const CCore *C, const int32_t *pair, const uint8_t *key, const uint8_t *order, Table *T,
                             int *dealt, int *runs, int *starts, int *pcs) {
    int n = C->n, pos = 0;
    uint64_t win = peek57(key, 0);
    *dealt = (int)(win & ((1u << C->dealt_bits) - 1));
    *runs = (int)((win >> C->dealt_bits) & ((1u << C->runs_bits) - 1));
    pos = C->dealt_bits + C->runs_bits;
    int sorted = *dealt >= C->stock_len;
    uint64_t dmask = (1u << C->down_bits) - 1, omask = (1u << C->orig_bits) - 1;
    for (int j = 0; j < n; j++) {
        if (starts) starts[j] = pos; /* (where the j-th coded column starts) */
        win = peek57(key, pos);
        int down = 0;
        if (C->down_bits) {
            if (win & 1) {
                down = (int)((win >> 1) & dmask);
                pos += 1 + C->down_bits;
                win >>= 1 + C->down_bits;
            } else {
                pos++;
                win >>= 1;
            }
        }
        int i = sorted ? order[j] : j;
        int origin = i;
        if (sorted && down) {
            origin = (int)(win & omask);
            pos += C->orig_bits;
        }
        uint8_t *col = T->c[i];
        const uint8_t *rc = C->root.c[origin];
        col[0] = (uint8_t)down;
        memcpy(col + 1, rc + 1, (size_t)down);
        int len = 1 + down, prev = -1;
        int pc = 0;
        if (down && C->implicit_first) {
            prev = rc[down + 1];
            col[len++] = (uint8_t)prev;
        }
        if (prev < 0) { /* the first card, any card (0: none) */
            int c = (int)(peek57(key, pos) & 63);
            pos += 6;
            if (c) {
                col[len++] = (uint8_t)c;
                prev = c;
            }
        }
        if (prev >= 0)
            for (;;) {
                win = peek57(key, pos);
                if (!(win & 1)) { /* a run of cards each one lower in the same suit */
                    int z = __builtin_ctzll(win | (1ull << 56));
                    for (int t = 0; t < z; t++) {
                        if (pair) pc += pair[prev * 64 + prev - 1];
                        col[len++] = (uint8_t)--prev;
                    }
                    pos += z;
                    continue;
                }
                int c;
                if (!(win & 2)) {
                    int ss = (int)((win >> 2) & 3);
                    pos += 4;
                    if (ss == prev >> 4) break; /* (the end: its own suit) */
                    c = ss << 4 | (RANK(prev) - 1);
                } else {
                    c = (int)((win >> 2) & 63);
                    pos += 8;
                }
                if (pair) pc += pair[prev * 64 + c];
                col[len++] = (uint8_t)c;
                prev = c;
            }
        if (pcs) pcs[i] = pc;
        T->len[i] = (uint8_t)len;
    }
    if (starts) starts[n] = pos;
}

/* The table of a key; order[] (as encode() gave it) puts the columns back where they stood. (Reads the key 8 bytes
 * past its end.) */
static void decode(const CCore *C, const uint8_t *key, const uint8_t *order, Table *T, int *dealt, int *runs,
                   int *starts) {
    decode_pc(C, NULL, key, order, T, dealt, runs, starts, NULL);
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

