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
    PyObject *cancel = Py_None;
    if (!PyArg_ParseTuple(args, "iLLd|pO", &runs0, &node_limit, &held_cap, &seconds, &trace, &cancel)) return NULL;
    if (cancel == Py_None) cancel = NULL;
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

