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
    int sbits; /* scap == 1 << sbits: a key's home slot is its hash's top sbits bits (<= 32: they are the tag's, so
                * growing moves slots without reading a key) */
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
static int64_t store_put_h(Store *S, const uint8_t *key, int len, const uint8_t *order, int olen, uint64_t h) {
    if ((S->held + 1) * 10 >= S->scap * 7 && rehash(S) < 0) return -1;
    uint64_t tag = h & 0xFFFFFFFF00000000ull;
    size_t mask = S->scap - 1, j = slot_of(S, h);
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
/* Has ``cancel`` (a threading.Event, or anything with is_set()) been set? Called with the GIL held, every
 * CANCEL_EVERY tables; an error in is_set() counts as not cancelled. */
#define CANCEL_EVERY 4096
static int is_cancelled(PyObject *cancel) {
    PyObject *r = PyObject_CallMethod(cancel, "is_set", NULL);
    if (!r) {
        PyErr_Clear();
        return 0;
    }
    int v = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (v < 0) PyErr_Clear();
    return v > 0;
}

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
    uint32_t last = UINT32_MAX - 1; /* the table last expanded (T, codes, pcost, dealt, runs: its) */
    int dealt = dealt0, runs = runs0;
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
        Entry e = heap_pop(&S);
        nodes++;
        uint32_t depth = e.depth + 1;
        const Node *here = &S.nodes[e.node];
        int dealing;
        if (here->parent == last && here->kind == 0) {
            /* a move's child of the table just expanded (still in T, its columns' codes and costs at hand): the
             * move applied again, two columns coded and costed, no decode */
            Step st = {0, (uint8_t)(here->s & 15), (uint8_t)(here->s >> 4), here->dk};
            Undo u;
            int gone;
            apply_step(C, &T, st, &dealt, &gone, &u);
            runs += gone;
            dealing = dealt < C->stock_len;
            code_col(C, T.c[st.s], T.len[st.s], !dealing, st.s, &codes[st.s]);
            code_col(C, T.c[st.d], T.len[st.d], !dealing, st.d, &codes[st.d]);
            pcost[st.s] = col_cost(C, &w, T.c[st.s], T.len[st.s]);
            pcost[st.d] = col_cost(C, &w, T.c[st.d], T.len[st.d]);
            if (!dealing) node_order(&S, here, n, porder);
            else
                for (int i = 0; i < n; i++) porder[i] = (uint8_t)i;
            ppos[0] = C->dealt_bits + C->runs_bits;
            for (int j = 0; j < n; j++) ppos[j + 1] = ppos[j] + codes[porder[j]].nbits;
            memcpy(pkey, S.arena + here->off + 1, S.arena[here->off]);
        } else {
            node_order(&S, here, n, order);
            /* the parent's key, and where each of its coded columns starts in it: a move's child shares all but
             * two columns' codes with it (read back out of the key), and its key begins as the parent's */
            memcpy(pkey, S.arena + here->off + 1, S.arena[here->off]);
            decode(C, pkey, order, &T, &dealt, &runs, ppos);
            dealing = dealt < C->stock_len;
            if (!dealing) memcpy(porder, order, (size_t)n);
            else
                for (int i = 0; i < n; i++) porder[i] = (uint8_t)i;
            for (int j = 0; j < n; j++) code_at(pkey, ppos[j], ppos[j + 1] - ppos[j], &codes[porder[j]]);
            for (int i = 0; i < n; i++) pcost[i] = col_cost(C, &w, T.c[i], T.len[i]);
        }
        last = e.node;
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
            __builtin_prefetch(&S.slots[slot_of(&S, ch->hash)]);
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

