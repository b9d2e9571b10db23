/* ------------------------------------------------------------------ the solver's search (solver._search) */
typedef struct {
    int hidden, buried, out_of_order, off_suit, in_stock, empty_column, finished_run, path;
    int32_t pair[4096]; /* pair[below * 64 + above]: the cost of a face-up card on a face-up card */
} Weights;

static void pair_costs(const CCore *C, Weights *w) {
    for (int below = 0; below < 64; below++)
        for (int above = 0; above < 64; above++) {
            int x = below * 64 + above, cost = 0;
            if (RANK(below) != RANK(above) + 1)
                cost = w->out_of_order;
            else if (!C->links[x])
                cost = (C->has_fits && !C->fits[x]) ? w->out_of_order : w->off_suit;
            w->pair[x] = cost;
        }
}

static inline int col_cost(const CCore *C, const Weights *w, const uint8_t *col, int len) {
    (void)C;
    int down = col[0], top = len - 1;
    int cost = w->hidden * down + (down ? w->buried * (top - down) : 0);
    for (int i = down + 2; i <= top; i++) cost += w->pair[col[i - 1] * 64 + col[i]];
    if (!top) cost -= w->empty_column;
    return cost;
}

/* code_col() and col_cost() in one pass over the column: its code in *k, its cost returned. */
static inline int code_col_cost(const CCore *C, const Weights *wt, const uint8_t *col, int len, int sorted, int i,
                                Code *k) {
    int down = col[0], top = len - 1;
    int cost = wt->hidden * down + (down ? wt->buried * (top - down) : 0);
    if (!top) cost -= wt->empty_column;
    return cost + code_col_pc(C, wt->pair, col, len, sorted, i, k);
}

static inline int base_cost(const Weights *w, int down, int top) {
    return w->hidden * down + (down ? w->buried * (top - down) : 0) - (top ? 0 : w->empty_column);
}

/* code_col_cost() of a move's destination (col, len: after the move; no run finished there) from its code and cost
 * before (old, old_cost): the old code less its end, then the k cards moved (not the whole column again). */
static inline int code_dest(const CCore *C, const Weights *wt, const uint8_t *col, int len, int k, const Code *old,
                            int old_cost, Code *out, int sorted, int i) {
    int down = col[0], olen = len - k;
    int nb = old->nbits - (olen == 1 ? 6 : 4); /* (the end: 6 bits of 0 for a bare column, else a suit code) */
    int q = nb >> 6, r = nb & 63;
    memcpy(out->w, old->w, (size_t)q * sizeof(uint64_t));
    WW w = {out->w, r ? old->w[q] & ((1ull << r) - 1) : 0, r, q};
    int cost = old_cost - base_cost(wt, down, olen - 1) + base_cost(wt, down, len - 1);
    int prev = olen - 1 > down ? col[olen - 1] : -1;
    for (int p = olen; p < len; p++) {
        int c = col[p];
        if (p >= down + 2) cost += wt->pair[col[p - 1] * 64 + c];
        put_card(&w, prev, c);
        prev = c;
    }
    ww_put(&w, 1u | ((uint32_t)(prev >> 4) << 2), 4);
    out->nbits = w.q * 64 + w.n;
    if (w.n) out->w[w.q] = w.acc;
#ifdef CCORE_CHECK
    Code full;
    int fc = code_col_cost(C, wt, col, len, sorted, i, &full);
    if (fc != cost || codecmp(&full, out)) abort();
#else
    (void)C;
    (void)sorted;
    (void)i;
#endif
    return cost;
}

/* code_col_cost() of a move's source (col, len: after the move; no card turned over; the k cards moved still lie
 * past len) from its code and cost before: the old code cut before the moved cards' codes, and a new end. */
static inline int code_src(const CCore *C, const Weights *wt, const uint8_t *col, int len, int k, const Code *old,
                           int old_cost, Code *out, int sorted, int i) {
    int down = col[0], olen = len + k;
    int cut = old->nbits - 4; /* (the old end: the column had a face-up card) */
    int cost = old_cost - base_cost(wt, down, olen - 1) + base_cost(wt, down, len - 1);
    for (int p = len; p < olen; p++) {
        int c = col[p];
        if (p >= down + 2) cost -= wt->pair[col[p - 1] * 64 + c];
        if (p == down + 1)
            cut -= (down && C->implicit_first) ? 0 : 6;
        else {
            int prev = col[p - 1];
            cut -= (c == prev - 1 && RANK(prev) >= 2) ? 1 : (RANK(prev) >= 2 && RANK(c) == RANK(prev) - 1) ? 4 : 8;
        }
    }
    int q = cut >> 6, r = cut & 63;
    memcpy(out->w, old->w, (size_t)q * sizeof(uint64_t));
    WW w = {out->w, r ? old->w[q] & ((1ull << r) - 1) : 0, r, q};
    if (len - 1 > down)
        ww_put(&w, 1u | ((uint32_t)(col[len - 1] >> 4) << 2), 4);
    else
        ww_put(&w, 0, 6);
    out->nbits = w.q * 64 + w.n;
    if (w.n) out->w[w.q] = w.acc;
#ifdef CCORE_CHECK
    Code full;
    int fc = code_col_cost(C, wt, col, len, sorted, i, &full);
    if (fc != cost || codecmp(&full, out)) abort();
#else
    (void)sorted;
    (void)i;
#endif
    return cost;
}

/* A table held is a record in the arena: its parent (4 bytes: the parent's id), the move that made it (2 bytes: a
 * move's source | destination << 4 or a send's column; its count | kind << 4 | UNDONE: a move's count is at most 13),
 * when the columns are sorted the order of the columns (its Lehmer code: obytes), then the key (no length: the
 * keys are prefix-free, and decode() finds the end). A table's id is the arena offset of its key. 6 bytes, plus the
 * key's and the order's. */
#define NODE_HEAD 6
#define ROOT_KIND 3
#define UNDONE 64 /* (in a record's move: the move turned no card over and finished no run: moving back undoes it) */

/* The frontier: a bucket queue, one stack a priority (the costs are whole numbers in a narrow range): the least
 * priority first, the newest first among equals (the pure search's heap order, in O(1) a push or a pop). */
typedef struct {
    uint32_t node;
    uint32_t depth; /* (the cost: the bucket's priority less path * depth) */
} Entry;

typedef struct {
    Entry *v;
    uint32_t n, cap;
} Bucket;

typedef struct {
    uint8_t *arena;
    size_t alen, acap;
    uint64_t *slots; /* (hash high 32 bits << 32) | the table's id (its key's arena offset) + 1; 0 empty */
    size_t scap, held;
    int sbits; /* scap == 1 << sbits: a key's home slot is its hash's top sbits bits (<= 32: they are the tag's, so
                * growing moves slots without reading a key) */
    Bucket *bq;
    int64_t base; /* the priority of bq[0] */
    size_t nb, lo, hn; /* buckets; the lowest that may hold an entry; entries */
    size_t hbytes;
    int kmax; /* the longest key held */
    size_t kbytes; /* the bytes of the keys held, their lengths and orders (the rest of the arena: parents, moves) */
    int n, obytes; /* columns; bytes of a sorted table's order */
    int dmask, stock_len; /* (a key's first byte & dmask: its dealt, sorted when >= stock_len) */
} Store;

static void store_free(Store *S) {
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

static inline size_t slot_of(const Store *S, uint64_t h) { return (size_t)(h >> (64 - S->sbits)); }

static int rehash(Store *S) {
    int bits = S->scap ? S->sbits + 1 : 16;
    if (bits > 32) return -1;
    size_t cap = (size_t)1 << bits;
    uint64_t *slots = calloc(cap, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t i = 0; i < S->scap; i++) {
        uint64_t v = S->slots[i];
        if (!v) continue;
        size_t j = (size_t)(v >> (64 - bits));
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    free(S->slots);
    S->slots = slots;
    S->scap = cap;
    S->sbits = bits;
    return 0;
}

/* Holds the key (len bytes) unless held already: the new table's arena offset, -2 if it was held, -1 when out
 * of memory. */
/* A permutation of n (< 11) columns as its Lehmer code, one bit field a digit (the i-th: how many of the columns
 * after the i-th are smaller, in bits_for(n - 1 - i) bits): 14 bits for 7 columns, 26 for 10. And back. */
static inline uint32_t perm_pack(const uint8_t *order, int n) {
    uint32_t r = 0;
    int at = 0;
    for (int i = 0; i < n - 1; i++) {
        uint32_t less = 0;
        for (int j = i + 1; j < n; j++) less += order[j] < order[i];
        r |= less << at;
        at += bits_for(n - 1 - i);
    }
    return r;
}

static inline void perm_unpack(uint32_t r, int n, uint8_t *order) {
    uint16_t left = (uint16_t)((1u << n) - 1);
    for (int i = 0; i < n; i++) { /* the digit-th smallest column left */
        int b = bits_for(n - 1 - i);
        int digit = (int)(r & ((1u << b) - 1));
        r >>= b;
        uint16_t m = left;
        for (int t = 0; t < digit; t++) m &= (uint16_t)(m - 1);
        int c = __builtin_ctz(m);
        order[i] = (uint8_t)c;
        left &= (uint16_t)~(1u << c);
    }
}

/* The seen set's hash of a key (readable 8 bytes past its end): two lanes of one multiply a word, then mixed. */
static inline uint64_t hash_key(const uint8_t *p, int len) {
    uint64_t a = 0x9E3779B97F4A7C15ull ^ (uint64_t)len, b = 0xC2B2AE3D27D4EB4Full, v, u;
    for (; len >= 16; p += 16, len -= 16) {
        memcpy(&v, p, 8);
        memcpy(&u, p + 8, 8);
        a = (a ^ v) * 0xBF58476D1CE4E5B9ull;
        b = (b ^ u) * 0x94D049BB133111EBull;
    }
    if (len >= 8) {
        memcpy(&v, p, 8);
        a = (a ^ v) * 0xBF58476D1CE4E5B9ull;
        p += 8;
        len -= 8;
    }
    if (len) {
        memcpy(&u, p, 8);
        u &= ~0ull >> (64 - 8 * len); /* (little-endian: the len bytes left are the low ones) */
        b = (b ^ u) * 0x94D049BB133111EBull;
    }
    uint64_t h = a ^ ((b << 29) | (b >> 35));
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

/* Are the first len bytes of a and b the same? (Both readable up to 7 bytes past them.) */
static inline int key_eq(const uint8_t *a, const uint8_t *b, int len) {
    uint64_t x, y;
    for (; len >= 8; a += 8, b += 8, len -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    if (!len) return 1;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return !((x ^ y) & (~0ull >> (64 - 8 * len))); /* (little-endian: the first len bytes are the low ones) */
}

/* Holds the key (len bytes; with the order of its columns when sorted) unless held already: the new table's id,
 * -2 if it was held, -1 when out of memory. */
static int64_t store_put_h(Store *S, const uint8_t *key, int len, const uint8_t *order, int sorted, uint64_t h,
                           uint32_t parent, Step st, int undone) {
    if ((S->held + 1) * 4 >= S->scap * 3 && rehash(S) < 0) return -1;
    uint64_t tag = h & 0xFFFFFFFF00000000ull;
    size_t mask = S->scap - 1, j = slot_of(S, h);
    while (S->slots[j]) {
        uint64_t v = S->slots[j];
        if ((v & 0xFFFFFFFF00000000ull) == tag) {
            /* (the keys are prefix-free: a held key is this one exactly when its first len bytes are this one's) */
            if (key_eq(S->arena + (v & 0xFFFFFFFFull) - 1, key, len)) return -2;
        }
        j = (j + 1) & mask;
    }
    int olen = sorted ? S->obytes : 0;
    size_t rec = NODE_HEAD + (size_t)olen + (size_t)len;
    /* (room past the end: a key is compared over the new key's length, and read 8 bytes past its end) */
    if (grow((void **)&S->arena, &S->acap, S->alen + rec + MAXENC + 16, 1) < 0) return -1;
    if (S->alen + rec >= UINT32_MAX - 1) return -1;
    uint8_t *p = S->arena + S->alen;
    memcpy(p, &parent, 4);
    p[4] = st.kind == 0 ? (uint8_t)(st.s | (st.d << 4)) : st.s;
    p[5] = (uint8_t)((st.k & 15) | ((st.kind & 3) << 4) | (undone ? UNDONE : 0));
    if (olen) {
        uint32_t r = perm_pack(order, S->n);
        memcpy(p + NODE_HEAD, &r, (size_t)olen); /* (little-endian) */
    }
    size_t id = S->alen + NODE_HEAD + (size_t)olen;
    memcpy(S->arena + id, key, (size_t)len);
    S->alen += rec;
    S->kbytes += (size_t)len + (size_t)olen;
    S->slots[j] = tag | (uint64_t)(id + 1);
    S->held++;
    if (len > S->kmax) S->kmax = len;
    return (int64_t)id;
}

/* Where a table's record begins (before its order, when its columns are sorted: the key's dealt says). */
static inline const uint8_t *node_head(const Store *S, uint32_t id) {
    const uint8_t *k = S->arena + id;
    return k - NODE_HEAD - (((int)(k[0] & S->dmask) >= S->stock_len) ? S->obytes : 0);
}

static inline uint32_t node_parent(const Store *S, uint32_t id) {
    uint32_t p;
    memcpy(&p, node_head(S, id), 4);
    return p;
}

static inline Step node_step(const Store *S, uint32_t id) {
    const uint8_t *p = node_head(S, id) + 4;
    int kind = (p[1] >> 4) & 3;
    if (kind == 0) return (Step){0, (uint8_t)(p[0] & 15), (uint8_t)(p[0] >> 4), (uint8_t)(p[1] & 15)};
    return (Step){(uint8_t)kind, p[0], 0, 0};
}

static void node_order(const Store *S, uint32_t id, int n, uint8_t *order) {
    uint32_t r = 0;
    memcpy(&r, S->arena + id - S->obytes, (size_t)S->obytes);
    perm_unpack(r, n, order);
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

static Entry heap_pop(Store *S, int64_t *prio) {
    while (!S->bq[S->lo].n) S->lo++;
    S->hn--;
    Bucket *b = &S->bq[S->lo];
    *prio = S->base + (int64_t)S->lo;
    Entry e = b->v[--b->n];
    if (b->n) __builtin_prefetch(S->arena + b->v[b->n - 1].node - 8); /* (likely the next popped) */
    return e;
}

/* A child worked out before it is looked up. */
typedef struct {
    uint64_t hash;
    int32_t cost;
    uint8_t len, dealt, runs, undone;
    uint8_t order[MAXN];
    uint8_t key[MAXENC];
} Child;

/* search(dealt, runs, weights, node_limit, held, seconds) from the root given at construction ->
 * dict(outcome, line, nodes, best, open, held, key_bytes, bytes): solver._search's answers. */
static PyObject *CCore_search(CCore *self, PyObject *args) {
    int dealt0, runs0;
    Weights w;
    long long node_limit, held_cap;
    double seconds;
    PyObject *cancel = Py_None;
    if (!PyArg_ParseTuple(args, "ii(iiiiiiii)LLd|O", &dealt0, &runs0, &w.hidden, &w.buried, &w.out_of_order,
                          &w.off_suit, &w.in_stock, &w.empty_column, &w.finished_run, &w.path, &node_limit,
                          &held_cap, &seconds, &cancel))
        return NULL;
    if (cancel == Py_None) cancel = NULL;
    pair_costs(self, &w);
    CCore *C = self;
    int n = C->n;
    Store S;
    memset(&S, 0, sizeof S);
    const char *outcome = "exhausted";
    int64_t win_node = -1, best_node = -1;
    long long nodes = 0;
    int best = 0, oom = 0;
    double t0 = now_s(), deadline = seconds > 0 ? t0 + seconds : 0;
    Child *kids = NULL;
    Py_BEGIN_ALLOW_THREADS
    Table T = C->root;
    uint8_t key[MAXENC * 2], order[MAXN];
    Code codes[MAXN], fresh[2], dealt_codes[MAXN];
    uint8_t porder[MAXN];
    int ppos[MAXN + 1];
    const Code *cp[MAXN];
    int pcost[MAXN];
    int klen = encode(C, &T, dealt0, runs0, key, order);
    uint32_t last = UINT32_MAX - 1; /* the table last expanded (T, codes, pcost, dealt, runs: its) */
    int dealt = dealt0, runs = runs0;
    S.n = n;
    S.obytes = 0;
    for (int i = 0; i < n - 1; i++) S.obytes += bits_for(n - 1 - i);
    S.obytes = (S.obytes + 7) / 8;
    S.dmask = (1 << C->dealt_bits) - 1;
    S.stock_len = C->stock_len;
    int64_t off = store_put_h(&S, key, klen, order, dealt0 >= C->stock_len, hash_key(key, klen), UINT32_MAX,
                              (Step){ROOT_KIND, 0, 0, 0}, 0);
    best_node = off;
    if (off < 0) {
        oom = 1;
        goto done;
    }
    int cost0 = w.in_stock * (C->stock_len - dealt0) - w.finished_run * runs0;
    for (int i = 0; i < n; i++) cost0 += col_cost(C, &w, T.c[i], T.len[i]);
    best = cost0;
    if (heap_push(&S, cost0, (Entry){(uint32_t)off, 0}) < 0) {
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
            if (cancel && (nodes & (CANCEL_EVERY - 1)) == 0) {
                int stop;
                Py_BLOCK_THREADS
                stop = is_cancelled(cancel);
                Py_UNBLOCK_THREADS
                if (stop) {
                    outcome = "cancelled";
                    break;
                }
            }
        }
        int64_t prio;
        Entry e = heap_pop(&S, &prio);
        int ecost = (int)(prio - (int64_t)w.path * e.depth);
        nodes++;
        uint32_t depth = e.depth + 1;
        uint32_t here = e.node;
        const uint8_t *pkey = S.arena + here; /* (the arena is not grown before the children are worked out) */
        int dealing;
        Step hst = node_step(&S, here);
        if (hst.kind == 0 && node_parent(&S, here) == last) {
            /* a move's child of the table just expanded (still in T, its columns' codes and costs at hand): the
             * move applied again, two columns coded and costed, no decode */
            Step st = hst;
            Undo u;
            int gone;
            apply_step(C, &T, st, &dealt, &gone, &u);
            runs += gone;
            dealing = dealt < C->stock_len;
            if (T.c[st.s][0] != u.down[0])
                pcost[st.s] = code_col_cost(C, &w, T.c[st.s], T.len[st.s], !dealing, st.s, &codes[st.s]);
            else {
                pcost[st.s] = code_src(C, &w, T.c[st.s], T.len[st.s], st.k, &codes[st.s], pcost[st.s], &fresh[0],
                                       !dealing, st.s);
                code_copy(&codes[st.s], &fresh[0]);
            }
            if (gone)
                pcost[st.d] = code_col_cost(C, &w, T.c[st.d], T.len[st.d], !dealing, st.d, &codes[st.d]);
            else {
                pcost[st.d] = code_dest(C, &w, T.c[st.d], T.len[st.d], st.k, &codes[st.d], pcost[st.d], &fresh[1], !dealing, st.d);
                code_copy(&codes[st.d], &fresh[1]);
            }
            if (!dealing) node_order(&S, here, n, porder);
            else
                for (int i = 0; i < n; i++) porder[i] = (uint8_t)i;
            ppos[0] = C->dealt_bits + C->runs_bits;
            for (int j = 0; j < n; j++) ppos[j + 1] = ppos[j] + codes[porder[j]].nbits;
        } else {
            node_order(&S, here, n, order);
            /* the parent's key, and where each of its coded columns starts in it: a move's child shares all but
             * two columns' codes with it (read back out of the key), and its key begins as the parent's */
            decode_pc(C, w.pair, pkey, order, &T, &dealt, &runs, ppos, pcost);
            dealing = dealt < C->stock_len;
            if (!dealing) memcpy(porder, order, (size_t)n);
            else
                for (int i = 0; i < n; i++) porder[i] = (uint8_t)i;
            for (int j = 0; j < n; j++) code_at(pkey, ppos[j], ppos[j + 1] - ppos[j], &codes[porder[j]]);
            for (int i = 0; i < n; i++) { /* (the pairs' costs from decode) */
                int down = T.c[i][0], top = T.len[i] - 1;
                pcost[i] += w.hidden * down + (down ? w.buried * (top - down) : 0) - (top ? 0 : w.empty_column);
            }
        }
        last = e.node;
        int ns = gen_steps(C, &T, dealing, steps);
        if (hst.kind == 0 && (node_head(&S, here)[5] & UNDONE)) /* moving back gives the parent's parent, held: skipped */
            for (int i = 0; i < ns; i++)
                if (steps[i].kind == 0 && steps[i].s == hst.d && steps[i].d == hst.s && steps[i].k == hst.k) {
                    memmove(steps + i, steps + i + 1, (size_t)(ns - i - 1) * sizeof(Step));
                    ns--;
                    break;
                }
        /* First every child's key, hash and cost, its slot fetched ahead; then each looked up in turn. */
        if ((S.held + (size_t)ns) * 4 >= S.scap * 3 && rehash(&S) < 0) {
            oom = 1;
            goto done;
        }
        for (int i = 0; i < ns; i++) {
            Step st = steps[i];
            Child *ch = &kids[i];
            Undo u;
            int nd = dealt, gone, c;
            int turned = apply_step(C, &T, st, &nd, &gone, &u);
            int done = runs + gone;
            ch->undone = (uint8_t)(st.kind == 0 && !turned && !gone);
            if (st.kind == 0) {
                for (int j = 0; j < n; j++) cp[j] = &codes[j];
                int cs = T.c[st.s][0] != u.down[0] ? code_col_cost(C, &w, T.c[st.s], T.len[st.s], !dealing, st.s, &fresh[0])
                                : code_src(C, &w, T.c[st.s], T.len[st.s], st.k, &codes[st.s], pcost[st.s], &fresh[0],
                                           !dealing, st.s);
                int cd = gone ? code_col_cost(C, &w, T.c[st.d], T.len[st.d], !dealing, st.d, &fresh[1])
                              : code_dest(C, &w, T.c[st.d], T.len[st.d], st.k, &codes[st.d], pcost[st.d], &fresh[1], !dealing, st.d);
                cp[st.s] = &fresh[0];
                cp[st.d] = &fresh[1];
                ch->len = (uint8_t)join_with(C, cp, nd, done, ch->key, ch->order, pkey, porder, ppos, done == runs,
                                             st.s, st.d);
                c = ecost + cs + cd - pcost[st.s] - pcost[st.d];
                if (done != runs) c -= w.finished_run;
            } else if (st.kind == 1 && !gone && nd < C->stock_len) {
                /* a deal that leaves cards to deal and finishes no run: each column dealt to coded on from its code */
                c = ecost + w.in_stock * (dealt - nd);
                for (int j = 0; j < n; j++) cp[j] = &codes[j];
                for (int j = 0; j < u.cols; j++) {
                    c += code_dest(C, &w, T.c[j], T.len[j], 1, &codes[j], pcost[j], &dealt_codes[j], 0, j) - pcost[j];
                    cp[j] = &dealt_codes[j];
                }
                ch->len = (uint8_t)join(C, cp, nd, done, ch->key, ch->order);
            } else {
                ch->len = (uint8_t)encode(C, &T, nd, done, ch->key, ch->order);
                if (st.kind == 1) {
                    c = ecost + w.in_stock * (dealt - nd) - w.finished_run * (done - runs);
                    for (int j = 0; j < u.cols; j++) c += col_cost(C, &w, T.c[j], T.len[j]) - pcost[j];
                } else
                    c = ecost - w.finished_run + col_cost(C, &w, T.c[st.s], T.len[st.s]) - pcost[st.s];
            }
            undo_step(&T, &u);
            ch->hash = hash_key(ch->key, ch->len);
            __builtin_prefetch(&S.slots[slot_of(&S, ch->hash)]);
            ch->cost = c;
            ch->dealt = (uint8_t)nd;
            ch->runs = (uint8_t)done;
        }
        for (int i = 0; i < ns; i++) {
            Child *ch = &kids[i];
            int64_t id = store_put_h(&S, ch->key, ch->len, ch->order, ch->dealt >= C->stock_len, ch->hash, e.node,
                                     steps[i], ch->undone);
            if (id == -2) continue; /* held already */
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
            if (heap_push(&S, (int64_t)ch->cost + (int64_t)w.path * depth, (Entry){(uint32_t)id, depth}) < 0) {
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
    for (int64_t k = to; line && k >= 0 && node_parent(&S, (uint32_t)k) != UINT32_MAX; k = node_parent(&S, (uint32_t)k)) {
        PyObject *t = step_tuple(node_step(&S, (uint32_t)k));
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
                            "key_bytes", (Py_ssize_t)S.kbytes, "node_bytes", (Py_ssize_t)(S.alen - S.kbytes),
                            "slot_bytes", (Py_ssize_t)(S.scap * sizeof(uint64_t)),
                            "heap_bytes", (Py_ssize_t)S.hbytes, "seconds", secs, "key_max", S.kmax);
    }
    store_free(&S);
    return res;
}

