/* ------------------------------------------------------------------ the proof pass (proof._layers)
 * Its own key (not keys.h's): a layer's tables share their cards dealt and runs finished, so a key is only the
 * columns, and it is ORDER-PRESERVING: two keys compare as bytes (memcmp) as the pure pass's keys compare in
 * Python (a tuple of bytes, one a column: its face-down count, then its cards; a shorter prefix first). So a
 * layer is put in the pure pass's order by sorting its keys as they are, and a key decodes straight to the
 * table the pure pass expands (the columns in place while cards are left to deal, else sorted).
 *
 * A key is a bit string, most significant bit first, each column in turn:
 *   its face-down count (down_bits);
 *   [sorted, cards face down: the rank, in bytes order, of its face-down cards and lowest face-up card (the
 *    root columns' first down + 1 cards, distinct ones ranked: orank), orig_bits];
 *   then each face-up card not implied (the lowest of a column with cards face down is: it has lain there since
 *   the root), as a code on the card below it, p:
 *     p of rank >= 2:  00 end of column | 01 cccccc a card below p - 1 | 10 the card p - 1 (one lower, in suit)
 *                      | 11 cccccc a card above p - 1
 *     else (or none):  0 end of column | 1 cccccc any card
 * Each code is prefix-free and in the order of what it stands for (the end first: a shorter column first), so
 * the first bit where two keys differ is the first place where the tables differ, in the right order. Bytes
 * past a key's end are 0 up to its last byte; two keys are equal when their bytes are over the new one's
 * length (a key ends where its columns do). */
typedef struct {
    const CCore *C;
    int n, sorted_bits, implicit;
    int down_bits, orig_bits;
    uint8_t orank[MAXCOL][MAXN];   /* orank[down][root column]: the rank of its first down + 1 cards */
    uint8_t rank2col[MAXCOL][MAXN]; /* the first root column of each rank */
    size_t kmax;                    /* bytes: more than any key */
} PK;

typedef struct {
    uint8_t *p;
    uint64_t acc;
    int n;
} PW;

/* Big blocks (the layers' slots and keys, the todo stack, the sort) mapped straight from the system where it can
 * (Linux): freed, they go back at once, and grown, they are remapped, not copied. (Through malloc they would come
 * from the heap once glibc's moving mmap threshold has risen, and stay there: a fifth more memory at the peak.) */
#if defined(__linux__)
#include <sys/mman.h>
#define PK_BIG ((size_t)1 << 17)
static void *pk_alloc(size_t bytes) { /* zeroed */
    if (bytes < PK_BIG) return calloc(bytes, 1);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
static void pk_free(void *p, size_t bytes) {
    if (!p) return;
    if (bytes < PK_BIG)
        free(p);
    else
        munmap(p, bytes);
}
static void *pk_realloc(void *p, size_t old, size_t bytes) { /* (the new bytes not zeroed) */
    if (!p) return pk_alloc(bytes);
    if (bytes < PK_BIG) return realloc(p, bytes); /* (old < bytes: small too) */
    if (old >= PK_BIG) {
        void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
        return q == MAP_FAILED ? NULL : q;
    }
    void *q = pk_alloc(bytes);
    if (q) {
        memcpy(q, p, old);
        free(p);
    }
    return q;
}
#else
static void *pk_alloc(size_t bytes) { return calloc(bytes, 1); }
static void pk_free(void *p, size_t bytes) {
    (void)bytes;
    free(p);
}
static void *pk_realloc(void *p, size_t old, size_t bytes) {
    (void)old;
    return realloc(p, bytes);
}
#endif

static int pk_grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = pk_realloc(*p, *cap * size, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static inline int pk_colcmp(const Table *T, int a, int b) { /* as Python compares bytes */
    int la = T->len[a], lb = T->len[b], m = la < lb ? la : lb;
    const uint8_t *x = T->c[a], *y = T->c[b];
    for (int i = 0; i < m; i++)
        if (x[i] != y[i]) return (int)x[i] - (int)y[i];
    return la - lb;
}

#if defined(_MSC_VER)
#define PK_BE64(x) _byteswap_uint64(x)
#else
#define PK_BE64(x) __builtin_bswap64(x)
#endif

/* The writer: acc holds its n newest bits at its top; a full word is written at once (8 bytes of room past a
 * key's end). */
static inline void pw_put(PW *w, uint64_t v, int bits) { /* 1 <= bits <= 56, v < 2^bits */
    int n = w->n + bits;
    if (n < 64) {
        w->acc |= v << (64 - n);
        w->n = n;
        return;
    }
    n -= 64;
    uint64_t x = PK_BE64(w->acc | (v >> n));
    memcpy(w->p, &x, 8);
    w->p += 8;
    w->acc = n ? v << (64 - n) : 0;
    w->n = n;
}

static inline int pw_end(PW *w, const uint8_t *start) {
    uint64_t x = PK_BE64(w->acc);
    memcpy(w->p, &x, 8);
    return (int)(w->p - start) + (w->n + 7) / 8;
}


/* The 64 bits from bit pos on (the top 57 are exact), p readable 8 bytes past pos / 8. */
static inline uint64_t pk_peek(const uint8_t *p, size_t pos) {
    uint64_t v;
    memcpy(&v, p + (pos >> 3), 8);
    return PK_BE64(v) << (pos & 7);
}

static void pk_init(PK *K, const CCore *C) {
    K->C = C;
    K->n = C->n;
    K->implicit = C->implicit_first;
    K->down_bits = C->down_bits;
    K->orig_bits = bits_for(C->n - 1);
    int most = 0, cards = 0;
    for (int i = 0; i < C->n; i++) {
        if (C->root.c[i][0] > most) most = C->root.c[i][0];
        cards += C->root.len[i] - 1;
    }
    cards += C->stock_len;
    memset(K->orank, 0, sizeof K->orank);
    memset(K->rank2col, 0, sizeof K->rank2col);
    for (int d = 1; d <= most; d++) {
        int same = d + (K->implicit ? 1 : 0), cls[MAXN], nc = 0;
        for (int j = 0; j < C->n; j++) { /* the distinct first-d(+1) cards, in bytes order */
            if (C->root.c[j][0] < d) continue;
            int k = 0;
            while (k < nc && memcmp(C->root.c[cls[k]] + 1, C->root.c[j] + 1, (size_t)same) < 0) k++;
            if (k < nc && !memcmp(C->root.c[cls[k]] + 1, C->root.c[j] + 1, (size_t)same)) continue;
            memmove(cls + k + 1, cls + k, (size_t)(nc - k) * sizeof(int));
            cls[k] = j;
            nc++;
        }
        for (int k = 0; k < nc; k++) K->rank2col[d][k] = (uint8_t)cls[k];
        for (int j = 0; j < C->n; j++)
            for (int k = 0; k < nc; k++)
                if (C->root.c[j][0] >= d && !memcmp(C->root.c[cls[k]] + 1, C->root.c[j] + 1, (size_t)same))
                    K->orank[d][j] = (uint8_t)k;
    }
    K->kmax = (size_t)(C->n * (K->down_bits + K->orig_bits + 2) + cards * 8) / 8 + 16;
}

/* The rank of a column's face-down cards (and implied lowest face-up card): read from its cards. */
static inline int pk_orank(const PK *K, const uint8_t *col) {
    const CCore *C = K->C;
    int down = col[0], same = down + (K->implicit ? 1 : 0);
    for (int j = 0; j < C->n; j++)
        if (C->root.c[j][0] >= down && !memcmp(C->root.c[j] + 1, col + 1, (size_t)same)) return K->orank[down][j];
    return 0; /* (not reached: a column's face-down cards are its root column's) */
}

static inline void pk_sym(PW *w, int prev, int c) { /* card c on prev (-1: none) */
    if (prev >= 0 && RANK(prev) >= 2) {
        int t = prev - 1;
        if (c == t)
            pw_put(w, 2, 2);
        else
            pw_put(w, (uint64_t)((c < t ? 1u : 3u) << 6 | (unsigned)c), 8);
    } else
        pw_put(w, (uint64_t)(64u | (unsigned)c), 7);
}

static inline void pk_end(PW *w, int prev) {
    pw_put(w, 0, (prev >= 0 && RANK(prev) >= 2) ? 2 : 1);
}

static inline void pk_col(const PK *K, const uint8_t *col, int len, int sorted, PW *w) {
    int down = col[0], p = 1 + down, prev = -1;
    if (K->down_bits) pw_put(w, (uint64_t)down, K->down_bits);
    if (down) {
        if (sorted && K->orig_bits) pw_put(w, (uint64_t)pk_orank(K, col), K->orig_bits);
        if (K->implicit) prev = col[p++];
    }
    for (; p < len; p++) {
        pk_sym(w, prev, col[p]);
        prev = col[p];
    }
    pk_end(w, prev);
}

/* Bits a .. b of p, copied. */
static inline void pk_copy(PW *w, const uint8_t *p, size_t a, size_t b) {
    while (a < b) {
        int k = b - a < 56 ? (int)(b - a) : 56;
        pw_put(w, pk_peek(p, a) >> (64 - k), k);
        a += (size_t)k;
    }
}

/* The columns' order in a key: in place, or sorted as Python sorts bytes (insertion: a child's order is its
 * parent's but for one or two columns). */
static inline void pk_order(const PK *K, const Table *T, int sorted, uint8_t *order) {
    int n = K->n;
    for (int i = 0; i < n; i++) order[i] = (uint8_t)i;
    if (!sorted) return;
    for (int i = 1; i < n; i++) {
        uint8_t x = order[i];
        int j = i - 1;
        while (j >= 0 && pk_colcmp(T, order[j], x) > 0) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}

static int pk_encode(const PK *K, const Table *T, int sorted, uint8_t *out) {
    uint8_t order[MAXN];
    pk_order(K, T, sorted, order);
    PW w = {out, 0, 0};
    for (int j = 0; j < K->n; j++) pk_col(K, T->c[order[j]], T->len[order[j]], sorted, &w);
    return pw_end(&w, out);
}

/* A key's table, its columns in key order; starts[j]: the bit where column j begins (starts[n]: the end). */
typedef uint16_t PKPos[MAXN][MAXCOL];

static void pk_decode(const PK *K, const uint8_t *key, int sorted, Table *T, uint32_t *starts, PKPos cpos) {
    const CCore *C = K->C;
    size_t pos = 0;
    for (int i = 0; i < K->n; i++) {
        starts[i] = (uint32_t)pos;
        uint64_t v = pk_peek(key, pos);
        int down = K->down_bits ? (int)(v >> (64 - K->down_bits)) : 0, origin = i;
        pos += (size_t)K->down_bits;
        if (down && sorted) {
            origin = K->rank2col[down][K->orig_bits ? pk_peek(key, pos) >> (64 - K->orig_bits) : 0];
            pos += (size_t)K->orig_bits;
        }
        uint8_t *col = T->c[i];
        const uint8_t *rc = C->root.c[origin];
        col[0] = (uint8_t)down;
        memcpy(col + 1, rc + 1, (size_t)down);
        int len = 1 + down, prev = -1;
        if (down && K->implicit) {
            prev = rc[down + 1];
            col[len++] = (uint8_t)prev;
        }
        for (;;) {
            cpos[i][len] = (uint16_t)pos; /* (where the card at len is coded, or the column's end) */
            v = pk_peek(key, pos);
            int c;
            if (prev >= 0 && RANK(prev) >= 2) {
                unsigned top = (unsigned)(v >> 62);
                if (top == 0) {
                    pos += 2;
                    break;
                }
                if (top == 2) {
                    c = prev - 1;
                    pos += 2;
                } else {
                    c = (int)((v >> 56) & 63);
                    pos += 8;
                }
            } else {
                if (!(v >> 63)) {
                    pos += 1;
                    break;
                }
                c = (int)((v >> 57) & 63);
                pos += 7;
            }
            col[len++] = (uint8_t)c;
            prev = c;
        }
        T->len[i] = (uint8_t)len;
    }
    starts[K->n] = (uint32_t)pos;
}

/* A child's key after a move from s to d: the parent's codes but for columns s and d, in the child's order; those
 * two from the parent's bits too where no card turned and no run left (s: cut short; d: its cards, then the
 * first moved card on its old top, then the other moved ones' codes as they were on s). s0, d0: the parent's
 * lengths of s and d, sdown: the parent's face-down count of s. */
static int pk_child(const PK *K, const Table *T, int sorted, const uint8_t *parent, const uint32_t *starts,
                    PKPos cpos, int s, int d, int s0, int d0, int sdown, int gone, uint8_t *out) {
    uint8_t order[MAXN];
    pk_order(K, T, sorted, order);
    int n = K->n, j = 0;
    while (j < n && order[j] == j && j != s && j != d) j++;
    size_t head = starts[j]; /* (the columns before the first changed one: the parent's bits as they are) */
    memcpy(out, parent, head >> 3);
    PW w = {out + (head >> 3), 0, (int)(head & 7)};
    if (w.n) w.acc = (uint64_t)(parent[head >> 3] >> (8 - w.n)) << (64 - w.n);
    for (; j < n; j++) {
        int i = order[j];
        if (i == s) {
            const uint8_t *col = T->c[s];
            int ls = T->len[s];
            if (col[0] != sdown) {
                pk_col(K, col, ls, sorted, &w);
                continue;
            }
            pk_copy(&w, parent, starts[s], cpos[s][ls]);
            pk_end(&w, ls - 1 >= 1 + col[0] ? col[ls - 1] : -1);
            continue;
        }
        if (i == d) {
            const uint8_t *col = T->c[d];
            if (gone) {
                pk_col(K, col, T->len[d], sorted, &w);
                continue;
            }
            int ls = T->len[s];
            pk_copy(&w, parent, starts[d], cpos[d][d0]);
            pk_sym(&w, d0 - 1 >= 1 + col[0] ? col[d0 - 1] : -1, col[d0]);
            pk_copy(&w, parent, cpos[s][ls + 1], cpos[s][s0]);
            pk_end(&w, col[T->len[d] - 1]);
            continue;
        }
        size_t a = starts[i];
        int rem = (int)(starts[i + 1] - a);
        while (rem > 0) {
            int k = rem < 56 ? rem : 56;
            pw_put(&w, pk_peek(parent, a) >> (64 - k), k);
            a += (size_t)k;
            rem -= k;
        }
    }
    return pw_end(&w, out);
}

/* One layer's tables: keys in an arena (no length: a key ends where its columns do), a set of slots (the hash's
 * top 32 bits | offset + 1) over them; a slot's place is read from its own top bits, so growing reads no key. */
typedef struct {
    uint64_t *slots;
    size_t scap, count;
    uint8_t *arena;
    size_t alen, acap;
} LSet;

#define PK_HI 0xFFFFFFFF00000000ull
#define PK_LO 0xFFFFFFFFull

static void lset_free(LSet *L) {
    pk_free(L->slots, L->scap * sizeof(uint64_t));
    pk_free(L->arena, L->acap);
    memset(L, 0, sizeof *L);
}

static int lset_grow(LSet *L) {
    size_t cap = L->scap ? L->scap * 2 : 64;
    uint64_t *slots = pk_alloc(cap * sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t i = 0; i < L->scap; i++) {
        uint64_t v = L->slots[i];
        if (!v) continue;
        size_t j = (size_t)(v >> 32) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    pk_free(L->slots, L->scap * sizeof(uint64_t));
    L->slots = slots;
    L->scap = cap;
    return 0;
}

/* 1: held already; 0: added (at *off); 2: not held and no room (may_add false); -1: out of memory. */
static int lset_put(LSet *L, const uint8_t *key, int len, uint64_t h, size_t slack, int may_add, size_t *off) {
    if ((L->count + 1) * 4 >= L->scap * 3 && lset_grow(L) < 0) return -1;
    uint64_t tag = h & PK_HI;
    size_t mask = L->scap - 1, j = (size_t)(h >> 32) & mask;
    while (L->slots[j]) {
        uint64_t v = L->slots[j];
        if ((v & PK_HI) == tag && !memcmp(L->arena + (v & PK_LO) - 1, key, (size_t)len)) return 1;
        j = (j + 1) & mask;
    }
    if (!may_add) return 2;
    size_t need = L->alen + (size_t)len + slack;
    if (need >= PK_LO) return -1; /* (a layer's keys take at most 4 GiB: offsets are 32 bits) */
    if (need > L->acap) { /* (by a quarter: realloc moves big blocks by remapping; the slack: reads past a key) */
        size_t c = L->acap ? L->acap : 4096;
        while (c < need) c += c / 4 + 4096;
        uint8_t *a = pk_realloc(L->arena, L->acap, c);
        if (!a) return -1;
        memset(a + L->acap, 0, c - L->acap > slack ? slack : c - L->acap);
        L->arena = a;
        L->acap = c;
    }
    size_t o = L->alen;
    memcpy(L->arena + o, key, (size_t)len);
    memset(L->arena + o + len, 0, slack < 16 ? slack : 16);
    L->alen += (size_t)len;
    L->slots[j] = tag | (uint64_t)(o + 1);
    L->count++;
    *off = o;
    return 0;
}

/* A layer's keys sorted, the greatest first (popped from the end: the least first, as the pure pass does):
 * by their first 8 bytes as a number, then by the rest. */
typedef struct {
    uint64_t pre;
    uint32_t off;
} PSort;

static inline int psort_less(const PSort *a, const PSort *b, const uint8_t *arena, size_t kmax) {
    /* "less" in the popping order: a comes before b when a's key is greater */
    if (a->pre != b->pre) return a->pre > b->pre;
    return memcmp(arena + a->off + 8, arena + b->off + 8, kmax) > 0;
}

static void psort(PSort *v, size_t n, const uint8_t *arena, size_t kmax) {
    while (n > 16) {
        PSort *a = &v[0], *b = &v[n / 2], *c = &v[n - 1], t; /* (median of three as the pivot) */
        if (psort_less(b, a, arena, kmax)) { t = *a; *a = *b; *b = t; }
        if (psort_less(c, b, arena, kmax)) {
            t = *b; *b = *c; *c = t;
            if (psort_less(b, a, arena, kmax)) { t = *a; *a = *b; *b = t; }
        }
        PSort pivot = *b;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (psort_less(&v[i], &pivot, arena, kmax)) i++;
            while (psort_less(&pivot, &v[j], arena, kmax)) j--;
            if (i >= j) break;
            t = v[i]; v[i] = v[j]; v[j] = t;
            i++;
            j--;
        }
        size_t left = j + 1; /* [0, left) and [left, n) */
        if (left < n - left) {
            psort(v, left, arena, kmax);
            v += left;
            n -= left;
        } else {
            psort(v + left, n - left, arena, kmax);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        PSort x = v[i];
        size_t j = i;
        while (j > 0 && psort_less(&x, &v[j - 1], arena, kmax)) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* A child waiting to be looked up: its key (in the batch's buffer), hash and layer. */
typedef struct {
    uint64_t hash;
    uint32_t kat;
    int16_t len;
    int8_t same, won;
    size_t layer;
} PChild;

/* prove(runs, node_limit, held, seconds[, trace, cancel]) from the root given at construction (any position: its
 * cards dealt and runs finished count from there) -> dict(outcome, tables, still, layers, peak, stopped, ...):
 * proof._layers' answers, table for table. */
static PyObject *CCore_prove(CCore *self, PyObject *args) {
    int runs0, trace = 0;
    long long node_limit, held_cap;
    double seconds;
    PyObject *cancel = Py_None;
    if (!PyArg_ParseTuple(args, "iLLd|pO", &runs0, &node_limit, &held_cap, &seconds, &trace, &cancel)) return NULL;
    if (cancel == Py_None) cancel = NULL;
    CCore *C = self;
    PK *K = malloc(sizeof(PK));
    if (!K) return PyErr_NoMemory();
    pk_init(K, C);
    uint8_t *tr = NULL; /* (trace: each table visited, as the pure pass holds it) */
    size_t trn = 0, trcap = 0;
    int n = C->n, DN = 0, RN = C->runs_total;
    for (int i = 0; i < n; i++) DN += C->root.c[i][0];
    size_t NL = (size_t)(C->stock_len + 1) * (size_t)(DN + 1) * (size_t)(RN + 1);
    size_t slack = K->kmax + 16, KS = (K->kmax + 15) & ~(size_t)7;
    LSet *layers = calloc(NL, sizeof(LSet));
    uint8_t *kbuf = malloc((size_t)MAXSTEPS * KS);
    PChild *kids = malloc((size_t)MAXSTEPS * sizeof(PChild));
    if (!layers || !kbuf || !kids) {
        free(layers);
        free(kbuf);
        free(kids);
        free(K);
        return PyErr_NoMemory();
    }
    const char *outcome = "lost", *stopped = "";
    long long tables = 0, held = 1, peak = 0, nlayers = 0, still = 0, most = held_cap > 0 ? held_cap : LLONG_MAX;
    size_t cur = 0, peak_bytes = 0, live_bytes = 0, tcap = 0, tn = 0;
    int oom = 0;
    uint32_t *todo = NULL;
    PSort *sk = NULL;
    size_t skn = 0;
    double t0 = now_s(), deadline = seconds > 0 ? t0 + seconds : 0;
    Py_BEGIN_ALLOW_THREADS
    Table T = C->root;
    uint8_t key[4 * MAXCOL + 64];
    Step steps[MAXSTEPS];
    uint32_t starts[MAXN + 1];
    PKPos *cpos = malloc(sizeof(PKPos));
    if (!cpos) {
        oom = 1;
        goto done;
    }
    int down0 = 0;
    for (int i = 0; i < n; i++) down0 += T.c[i][0];
#define LAYER(dealt, down, runs) ((((size_t)(dealt) * (size_t)(DN + 1)) + (size_t)(DN - (down))) * (size_t)(RN + 1) + (size_t)(runs))
    if (runs0 == RN) {
        outcome = "won";
        goto done;
    }
    {
        int klen = pk_encode(K, &T, 0 >= C->stock_len, key);
        size_t off;
        if (lset_put(&layers[LAYER(0, down0, runs0)], key, klen, hash_bytes(key, klen), slack, 1, &off) < 0) {
            oom = 1;
            goto done;
        }
    }
    for (cur = 0; cur < NL; cur++) {
        LSet *L = &layers[cur];
        if (!L->count) continue;
        int ldown = DN - (int)((cur / (size_t)(RN + 1)) % (size_t)(DN + 1));
        int ldealt = (int)(cur / ((size_t)(RN + 1) * (size_t)(DN + 1))), lruns = (int)(cur % (size_t)(RN + 1));
        int dealing = ldealt < C->stock_len;
        /* the layer's tables in the pure pass's order: their keys sorted, the least visited first */
        size_t m = 0;
        skn = L->count;
        sk = pk_alloc(skn * sizeof(PSort));
        if (!sk || pk_grow((void **)&todo, &tcap, L->count + 1, sizeof(uint32_t)) < 0) {
            oom = 1;
            goto done;
        }
        for (size_t i = 0; i < L->scap; i++) {
            uint64_t v = L->slots[i];
            if (!v) continue;
            uint32_t off = (uint32_t)((v & PK_LO) - 1);
            uint64_t pre;
            memcpy(&pre, L->arena + off, 8);
            sk[m].pre = PK_BE64(pre);
            sk[m].off = off;
            m++;
        }
        live_bytes = m * sizeof(PSort) + tcap * sizeof(uint32_t);
        for (size_t j = cur; j < NL; j++) live_bytes += layers[j].scap * sizeof(uint64_t) + layers[j].alen;
        if (live_bytes > peak_bytes) peak_bytes = live_bytes;
        psort(sk, m, L->arena, K->kmax);
        tn = 0;
        for (size_t i = 0; i < m; i++) todo[tn++] = sk[i].off;
        pk_free(sk, skn * sizeof(PSort));
        sk = NULL;
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
            if (cancel && (tables & (CANCEL_EVERY - 1)) == 0) {
                int stop;
                Py_BLOCK_THREADS
                stop = is_cancelled(cancel);
                Py_UNBLOCK_THREADS
                if (stop) {
                    outcome = "open";
                    stopped = "cancelled";
                    goto done;
                }
            }
            uint32_t here = todo[--tn];
            tables++;
            if (tn) { /* (the next table to pop, unless this one's children come first) */
                __builtin_prefetch(L->arena + todo[tn - 1]);
                __builtin_prefetch(L->arena + todo[tn - 1] + 40);
            }
            const uint8_t *pkey = L->arena + here;
            pk_decode(K, pkey, !dealing, &T, starts, *cpos);
            if (trace) {
                if (pk_grow((void **)&tr, &trcap, trn + 2 * MAXN + 256, 1) < 0) {
                    oom = 1;
                    goto done;
                }
                for (int c = 0; c < n; c++) {
                    for (int b = 0; b < T.len[c]; b++) tr[trn++] = (uint8_t)(T.c[c][b] + 1);
                    tr[trn++] = 0;
                }
                tr[trn++] = 255; /* (end of a table) */
            }
            int ns = gen_steps(C, &T, dealing, steps);
            /* every child's key, hash and layer first, its slot prefetched; then the look-ups, in order */
            for (int i = 0; i < ns; i++) {
                Undo u;
                int nd = ldealt, gone;
                int turned = apply_step(C, &T, steps[i], &nd, &gone, &u);
                int done_ = lruns + gone, klen;
                uint8_t *kk = kbuf + (size_t)i * KS;
                if (steps[i].kind == 0)
                    klen = pk_child(K, &T, !dealing, pkey, starts, *cpos, steps[i].s, steps[i].d, u.len[0], u.len[1],
                                    u.down[0], gone, kk);
                else
                    klen = pk_encode(K, &T, nd >= C->stock_len, kk);
                undo_step(&T, &u);
                PChild *ch = &kids[i];
                ch->kat = (uint32_t)((size_t)i * KS);
                ch->len = (int16_t)klen;
                ch->hash = hash_bytes(kk, klen);
                ch->same = steps[i].kind == 0 && !turned && !gone; /* the same layer: most moves */
                ch->won = done_ == RN;
                ch->layer = ch->same ? cur : LAYER(nd, ldown - turned, done_);
                if (!ch->won) {
                    const LSet *S = &layers[ch->layer];
                    if (S->scap) __builtin_prefetch(&S->slots[(size_t)(ch->hash >> 32) & (S->scap - 1)]);
                }
            }
            for (int i = 0; i < ns; i++) {
                PChild *ch = &kids[i];
                if (!ch->same && ch->won) {
                    outcome = "won";
                    goto done;
                }
                size_t off;
                int r = lset_put(&layers[ch->layer], kbuf + ch->kat, ch->len, ch->hash, slack, held < most, &off);
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
                    held++;
                    if (ch->same) {
                        if (pk_grow((void **)&todo, &tcap, tn + 1, sizeof(uint32_t)) < 0) {
                            oom = 1;
                            goto done;
                        }
                        todo[tn++] = (uint32_t)off;
                        pkey = L->arena + here; /* (the arena may have moved) */
                    }
                }
            }
        }
        nlayers++;
        if (held > peak) peak = held;
        live_bytes = tcap * sizeof(uint32_t);
        for (size_t j = cur; j < NL; j++) live_bytes += layers[j].scap * sizeof(uint64_t) + layers[j].alen;
        if (live_bytes > peak_bytes) peak_bytes = live_bytes;
        held -= (long long)L->count;
        lset_free(L);
    }
    held = 0;
done:;
    free(cpos);
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
    pk_free(todo, tcap * sizeof(uint32_t));
    pk_free(sk, skn * sizeof(PSort));
    free(kbuf);
    free(kids);
    free(K);
    if (oom || !waiting) {
        pk_free(tr, trcap);
        Py_XDECREF(waiting);
        return oom ? PyErr_NoMemory() : NULL;
    }
    PyObject *visits = trace ? PyBytes_FromStringAndSize((const char *)tr, (Py_ssize_t)trn) : Py_None;
    if (!trace) Py_INCREF(Py_None);
    pk_free(tr, trcap);
    if (!visits) {
        Py_DECREF(waiting);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:L,s:L,s:L,s:L,s:s,s:d,s:n,s:N,s:N,s:n}", "outcome", outcome, "tables", tables,
                         "still", still, "layers", nlayers, "peak", peak, "stopped", stopped, "seconds",
                         now_s() - t0, "peak_bytes", (Py_ssize_t)peak_bytes, "visits", visits, "waiting", waiting,
                         "todo", (Py_ssize_t)tn);
}
