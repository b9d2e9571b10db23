/* The planner's inner search (players/plan_search.py, search): best-first over the visible table, with the
 * planner's costs (players/plan_costs.py, PlanCosts; the learned value of players/value.py, LearnedValue), the
 * same answers node for node. Included by _ccore.c after moves.h (gen_steps, apply_step, undo_step).
 *
 * A visible table: a 0 for every face-down card (the core is built with no stock and implicit_first = 0; the
 * keys are not used: the visited set holds the tables' bytes). The costs come in one blob (PlanParams, packed
 * by plan_search._params), the cards unseen as bytes. The GIL is held throughout (a plan is milliseconds):
 * the Python answers are built at the end, the cancel event read every PLAN_CANCEL_EVERY tables expanded. */

#define PLAN_CANCEL_EVERY 64
#define PLAN_FEATURES 12
#define PLAN_DIG 12

/* The costs, as plan_search._params packs them ("=12d" then 32 int64). */
typedef struct {
    double w[PLAN_FEATURES]; /* the learned weights of the column features (mode 1) */
    int64_t mode;            /* 0: the hand-made weights, 1: the learned value */
    int64_t run_bonus, penalty, step, turn_bonus, face_down, buried, out_of_order, off_suit, empty_column,
        king_home, ndig;
    int64_t dig[PLAN_DIG];
    int64_t spare[8];
} PlanParams;

/* ------------------------------------------------------------------ one column's cost (PlanCosts.column_cost) */
static long long plan_round(double x) { /* Python's round(float): half to even */
    double r = round(x);
    if (fabs(x - r) == 0.5) r = 2.0 * round(x / 2.0);
    return (long long)r;
}

static long long plan_learned(const CCore *C, const PlanParams *P, const uint8_t *col, int len) {
    int down = col[0], first = down + 1, n = len - first;
    int breaks = 0, off = 0, linked = 0;
    const uint8_t *up = col + first;
    for (int i = 1; i < n; i++) {
        int below = up[i - 1], above = up[i];
        if (RANK(below) != RANK(above) + 1)
            breaks++;
        else if (C->links[below * 64 + above])
            linked++;
        else if (C->has_fits && !C->fits[below * 64 + above])
            breaks++;
        else
            off++;
    }
    int group = 0;
    if (n) {
        group = 1;
        while (group < n && C->links[up[n - group - 1] * 64 + up[n - group]]) group++;
        if (C->unit && group > C->unit) group = C->unit;
    }
    int king = !down && n > 0 && RANK(up[0]) == KING;
    int x[PLAN_FEATURES] = {down, down * down, down == 1, down == 2, down ? n : 0, breaks, off, linked,
                            !down && !n, !down && n > 0 && !king, king, group};
    /* sum(w * x) as Python sums floats, each product rounded to a double first (volatile: never fused):
     * left to right until 3.11, with Neumaier's compensation from 3.12 on (builtin sum) */
    double s = 0.0;
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (int i = 0; i < PLAN_FEATURES; i++) {
        volatile double p = P->w[i] * (double)x[i];
        double v = p, t = s + v;
        if (fabs(s) >= fabs(v))
            c += (s - t) + v;
        else
            c += (v - t) + s;
        s = t;
    }
    if (c && isfinite(c)) s += c;
#else
    for (int i = 0; i < PLAN_FEATURES; i++) {
        volatile double p = P->w[i] * (double)x[i];
        s += p;
    }
#endif
    return plan_round(s);
}

static long long plan_handmade(const CCore *C, const PlanParams *P, const uint8_t *col, int len) {
    int down = col[0], first = down + 1;
    long long cost = P->face_down * down + (down > 0 ? P->dig[down < P->ndig - 1 ? down : P->ndig - 1] : 0);
    if (len == first) return down ? cost : -P->empty_column;
    if (down)
        cost += P->buried * (len - first);
    else if (RANK(col[first]) == KING)
        cost -= P->king_home;
    for (int i = first + 1; i < len; i++) {
        int below = col[i - 1], above = col[i];
        if (RANK(below) != RANK(above) + 1)
            cost += P->out_of_order;
        else if (!C->links[below * 64 + above])
            cost += C->has_fits && !C->fits[below * 64 + above] ? P->out_of_order : P->off_suit;
    }
    return cost;
}

static inline long long plan_cost(const CCore *C, const PlanParams *P, const uint8_t *col, int len) {
    return P->mode ? plan_learned(C, P, col, len) : plan_handmade(C, P, col, len);
}

/* turn_value: column `col` of T just after a card turned face up in it, `down` still face down. */
static long long plan_turn(const CCore *C, const PlanParams *P, const Table *T, int col, int down,
                           const int *ranks, int total) {
    uint8_t base[MAXCOL];
    memset(base, 0, (size_t)down + 2);
    base[0] = (uint8_t)down;
    long long v = plan_cost(C, P, base, down + 2) - P->turn_bonus;
    if (!total) return v;
    int tops = 0, empty = 0;
    for (int i = 0; i < C->n; i++) {
        if (i == col) continue;
        if (T->len[i] - 1 > T->c[i][0])
            tops |= 1 << RANK(T->c[i][T->len[i] - 1]);
        else if (T->len[i] == 1)
            empty = 1;
    }
    long long free = 0;
    if (empty && down > 0)
        free = total;
    else
        for (int r = 0; r < 15; r++)
            if (ranks[r] && (tops >> (r + 1) & 1)) free += ranks[r];
    return v - (free * (P->face_down / 2 + P->buried * (down > 0))) / total;
}

/* ------------------------------------------------------------------ the tables met: an arena and a hash set */
typedef struct {
    uint8_t *buf;
    size_t len, cap;
    int64_t *slots; /* offset + 1 into buf (0: free) */
    uint64_t *hashes;
    size_t nslots, used;
} PlanTables;

/* (copies in words of 8 bytes: a column's array and the arena have room past their ends) */
static inline void plan_copy(uint8_t *to, const uint8_t *from, int len) {
    for (int j = 0; j < len; j += 8) memcpy(to + j, from + j, 8);
}

static size_t plan_pack(const CCore *C, const Table *T, uint8_t *out) {
    size_t at = 0;
    for (int i = 0; i < C->n; i++) {
        out[at++] = T->len[i];
        plan_copy(out + at, T->c[i], T->len[i]);
        at += T->len[i];
    }
    return at;
}

static void plan_unpack(const CCore *C, const uint8_t *p, Table *T) {
    for (int i = 0; i < C->n; i++) {
        T->len[i] = *p++;
        plan_copy(T->c[i], p, T->len[i]);
        p += T->len[i];
    }
}

static size_t plan_size(const CCore *C, const uint8_t *p) {
    size_t at = 0;
    for (int i = 0; i < C->n; i++) at += 1 + (size_t)p[at];
    return at;
}

static uint64_t plan_hash(const uint8_t *p, size_t len) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    for (int sh = 0; i < len; i++, sh += 8) w |= (uint64_t)p[i] << sh;
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

static int plan_grow_set(PlanTables *S) {
    size_t ns = S->nslots ? S->nslots * 2 : 1024;
    int64_t *slots = calloc(ns, sizeof *slots);
    uint64_t *hashes = calloc(ns, sizeof *hashes);
    if (!slots || !hashes) {
        free(slots);
        free(hashes);
        return -1;
    }
    for (size_t i = 0; i < S->nslots; i++)
        if (S->slots[i]) {
            size_t j = S->hashes[i] & (ns - 1);
            while (slots[j]) j = (j + 1) & (ns - 1);
            slots[j] = S->slots[i];
            hashes[j] = S->hashes[i];
        }
    free(S->slots);
    free(S->hashes);
    S->slots = slots;
    S->hashes = hashes;
    S->nslots = ns;
    return 0;
}

/* Adds the packed table at the arena's end (`len` bytes written there) unless met: its offset, -1 when met
 * (the bytes are dropped), -2 out of memory. */
static int64_t plan_add(const CCore *C, PlanTables *S, size_t len) {
    if ((S->used + 1) * 2 > S->nslots && plan_grow_set(S) < 0) return -2;
    const uint8_t *p = S->buf + S->len;
    uint64_t h = plan_hash(p, len);
    size_t j = h & (S->nslots - 1);
    while (S->slots[j]) {
        if (S->hashes[j] == h) {
            const uint8_t *q = S->buf + (S->slots[j] - 1);
            if (plan_size(C, q) == len && !memcmp(p, q, len)) return -1;
        }
        j = (j + 1) & (S->nslots - 1);
    }
    S->slots[j] = (int64_t)S->len + 1;
    S->hashes[j] = h;
    S->used++;
    int64_t at = (int64_t)S->len;
    S->len += len;
    return at;
}

/* Room for one more packed table at the arena's end. */
static int plan_room(const CCore *C, PlanTables *S) {
    size_t need = (size_t)C->n * (MAXCOL + 1) + 16;
    if (S->len + need <= S->cap) return 0;
    size_t cap = S->cap ? S->cap * 2 : 1 << 16;
    while (cap < S->len + need) cap *= 2;
    uint8_t *b = realloc(S->buf, cap);
    if (!b) return -1;
    S->buf = b;
    S->cap = cap;
    return 0;
}

/* ------------------------------------------------------------------ the nodes and the heap */
typedef struct {
    int32_t parent, depth;
    int64_t value;
    uint8_t s, d, k, ends; /* ends: 0 better, 1 turn, 2 run, 3 empty */
    int8_t at;             /* the column of ends */
} PlanNode;

typedef struct {
    int64_t pri;
    int32_t cid;
    int64_t table; /* offset in the arena */
} PlanEntry;

static inline int plan_less(const PlanEntry *a, const PlanEntry *b) {
    return a->pri < b->pri || (a->pri == b->pri && a->cid < b->cid);
}

static void plan_push(PlanEntry *h, size_t *n, PlanEntry e) {
    size_t i = (*n)++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!plan_less(&e, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static PlanEntry plan_pop(PlanEntry *h, size_t *n) {
    PlanEntry top = h[0], last = h[--*n];
    size_t i = 0, m = *n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m) break;
        if (c + 1 < m && plan_less(&h[c + 1], &h[c])) c++;
        if (!plan_less(&h[c], &last)) break;
        h[i] = h[c];
        i = c;
    }
    if (m) h[i] = last;
    return top;
}

static int plan_cancelled(PyObject *cancel) { /* 1 set, 0 not, -1 an error (raised) */
    PyObject *r = PyObject_CallMethod(cancel, "is_set", NULL);
    if (!r) return -1;
    int v = PyObject_IsTrue(r);
    Py_DECREF(r);
    return v;
}

/* ------------------------------------------------------------------ the answers, as Python objects */
static PyObject *plan_answers(const PlanNode *nodes, size_t nn, const int64_t *best_pri, const int32_t *best_cid,
                              int nbest, long long expanded, long long root_value) {
    static PyObject *kinds[4];
    if (!kinds[0]) {
        const char *names[4] = {"better", "turn", "run", "empty"};
        for (int i = 0; i < 4; i++)
            if (!(kinds[i] = PyUnicode_InternFromString(names[i]))) return NULL;
    }
    PyObject *best = NULL, *list = NULL, *better = NULL, *out = NULL;
    PyObject *ends[4][MAXN] = {{NULL}};
    PyObject *steps[MAXN][MAXN][33] = {{{NULL}}};
    best = PyDict_New();
    list = PyList_New((Py_ssize_t)nn);
    better = Py_BuildValue("(OO)", kinds[0], Py_None);
    if (!best || !list || !better) goto done;
    for (int f = 1; f < nbest; f++) {
        if (best_cid[f] < 0) continue;
        PyObject *key = PyLong_FromLong(f), *v = Py_BuildValue("(Li)", (long long)best_pri[f], best_cid[f]);
        int bad = !key || !v || PyDict_SetItem(best, key, v) < 0;
        Py_XDECREF(key);
        Py_XDECREF(v);
        if (bad) goto done;
    }
    for (size_t i = 0; i < nn; i++) {
        const PlanNode *x = &nodes[i];
        PyObject *item;
        if (!i) {
            item = Py_BuildValue("(iOLiO)", -1, Py_None, (long long)x->value, 0, Py_None);
        } else {
            PyObject *st, *en;
            int fresh = x->k > 32;
            if (fresh)
                st = Py_BuildValue("(iii)", x->s, x->d, x->k);
            else {
                PyObject **slot = &steps[x->s][x->d][x->k];
                if (!*slot) *slot = Py_BuildValue("(iii)", x->s, x->d, x->k);
                st = *slot;
            }
            if (x->ends) {
                PyObject **slot = &ends[x->ends][x->at];
                if (!*slot) *slot = Py_BuildValue("(Oi)", kinds[x->ends], (int)x->at);
                en = *slot;
            } else
                en = better;
            item = st && en ? Py_BuildValue("(iOLiO)", x->parent, st, (long long)x->value, x->depth, en) : NULL;
            if (fresh) Py_XDECREF(st);
        }
        if (!item) goto done;
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    out = Py_BuildValue("(OOLL)", best, list, expanded, root_value);
done:
    Py_XDECREF(best);
    Py_XDECREF(list);
    Py_XDECREF(better);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < MAXN; b++) Py_XDECREF(ends[a][b]);
    for (int a = 0; a < MAXN; a++)
        for (int b = 0; b < MAXN; b++)
            for (int c = 0; c < 33; c++) Py_XDECREF(steps[a][b][c]);
    return out;
}

/* ------------------------------------------------------------------ the search */
/* plan(root, stock_left, seen, budget, unseen, filling, params[, cancel]) -> (best, nodes, expanded, root value):
 * plan_search.search's answers. seen: the visible tables met in the game at this stock (tables as root). */
static PyObject *CCore_plan(CCore *self, PyObject *args) {
    PyObject *root, *seen, *cancel = Py_None;
    int stock_left, filling;
    long long budget;
    Py_buffer unseen, params;
    if (!PyArg_ParseTuple(args, "OpOLy*py*|O", &root, &stock_left, &seen, &budget, &unseen, &filling, &params,
                          &cancel))
        return NULL;
    const CCore *C = self;
    PlanParams P;
    int ranks[16] = {0}, total = (int)unseen.len;
    int ok = params.len == (Py_ssize_t)sizeof P;
    if (ok) memcpy(&P, params.buf, sizeof P);
    for (Py_ssize_t i = 0; i < unseen.len; i++) ranks[RANK(((const uint8_t *)unseen.buf)[i])]++;
    PyBuffer_Release(&unseen);
    PyBuffer_Release(&params);
    if (!ok || P.ndig < 1 || P.ndig > PLAN_DIG) {
        PyErr_SetString(PyExc_ValueError, "plan: params are plan_search._params' blob");
        return NULL;
    }
    if (cancel == Py_None) cancel = NULL;
    PyObject *seq = PySequence_Fast(seen, "plan: seen is a sequence of tables");
    if (!seq) return NULL;

    Table T;
    PlanTables S = {0};
    PlanNode *nodes = NULL;
    PlanEntry *heap = NULL;
    int32_t *first_of = NULL;
    size_t nn = 0, ncap = 0, nh = 0, hcap = 0;
    int64_t best_pri[MAXSTEPS + 1];
    int32_t best_cid[MAXSTEPS + 1];
    int nbest = 0;
    PyObject *out = NULL;
    long long penalty = filling ? P.penalty : 0, expanded = 0, root_value = 0;
    int auto_rm = C->auto_remove;

    if (table_from(C, root, &T) < 0) goto done;
    for (int i = 0; i < C->n; i++) {
        root_value += plan_cost(C, &P, T.c[i], T.len[i]);
        if (penalty && T.len[i] == 1) root_value += penalty;
    }
    if (plan_room(C, &S) < 0) goto nomem;
    int64_t root_at = plan_add(C, &S, plan_pack(C, &T, S.buf + S.len));
    if (root_at < 0) goto nomem;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        Table U;
        if (table_from(C, PySequence_Fast_GET_ITEM(seq, i), &U) < 0) goto done;
        if (plan_room(C, &S) < 0 || plan_add(C, &S, plan_pack(C, &U, S.buf + S.len)) == -2) goto nomem;
    }
    ncap = 1024;
    hcap = 1024;
    nodes = malloc(ncap * sizeof *nodes);
    first_of = malloc(ncap * sizeof *first_of);
    heap = malloc(hcap * sizeof *heap);
    if (!nodes || !first_of || !heap) goto nomem;
    nodes[0] = (PlanNode){-1, 0, root_value, 0, 0, 0, 0, 0};
    first_of[0] = 0;
    nn = 1;
    plan_push(heap, &nh, (PlanEntry){root_value, 0, root_at});
    for (int i = 0; i <= MAXSTEPS; i++) best_cid[i] = -1;

    Step steps[MAXSTEPS];
    while (nh && expanded < budget) {
        if (cancel && !(expanded % PLAN_CANCEL_EVERY)) {
            int c = plan_cancelled(cancel);
            if (c < 0) goto done;
            if (c) break;
        }
        PlanEntry e = plan_pop(heap, &nh);
        expanded++;
        int32_t nid = e.cid;
        plan_unpack(C, S.buf + e.table, &T);
        int64_t here = nodes[nid].value;
        int32_t depth = nodes[nid].depth;
        int ns = gen_steps(C, &T, stock_left, steps);
        long long pc[MAXN];
        for (int i = 0; i < C->n; i++) pc[i] = plan_cost(C, &P, T.c[i], T.len[i]);
        if (nn + (size_t)ns > ncap) {
            while (nn + (size_t)ns > ncap) ncap *= 2;
            PlanNode *a = realloc(nodes, ncap * sizeof *nodes);
            if (a) nodes = a;
            int32_t *b = realloc(first_of, ncap * sizeof *first_of);
            if (b) first_of = b;
            if (!a || !b) goto nomem;
        }
        if (nh + (size_t)ns > hcap) {
            while (nh + (size_t)ns > hcap) hcap *= 2;
            PlanEntry *a = realloc(heap, hcap * sizeof *heap);
            if (!a) goto nomem;
            heap = a;
        }
        for (int i = 0; i < ns; i++) {
            Step st = steps[i];
            if (st.kind != 0) continue; /* (a send: never here, the root sends first and a finished run ends its line) */
            int s = st.s, d = st.d, k = st.k;
            int ld = T.len[d], down = T.c[s][0], dd = T.c[d][0];
            long long cost_s = pc[s], cost_d = pc[d];
            Undo u;
            int dealt = 0, gone = 0;
            apply_step(C, &T, st, &dealt, &gone, &u);
            int src_turn = T.c[s][0] != down, dst_turn = T.c[d][0] != dd;
            int finished = auto_rm ? gone
                                   : (k < RUNLEN && RANK(T.c[d][T.len[d] - 1]) == ACE && complete(C, T.c[d], T.len[d]));
            int ends = 0, at = 0;
            if (finished) {
                ends = dst_turn ? 1 : 2;
                at = d;
            }
            int leaf = src_turn || dst_turn;
            int64_t child_at = -1;
            if (!leaf) {
                if (plan_room(C, &S) < 0) goto nomem;
                child_at = plan_add(C, &S, plan_pack(C, &T, S.buf + S.len));
                if (child_at == -2) goto nomem;
                if (child_at == -1) {
                    undo_step(&T, &u);
                    continue;
                }
            }
            if (src_turn) {
                ends = 1;
                at = s;
            } else if (!ends && T.len[s] == 1) {
                ends = 3;
                at = s;
            }
            int32_t cid = (int32_t)nn;
            int32_t first = nid == 0 ? cid : first_of[nid];
            long long value = here - cost_s - cost_d - P.run_bonus * finished;
            if (penalty && ld == 1) value -= penalty;
            if (src_turn) {
                if (dst_turn) {
                    uint8_t rest[MAXCOL];
                    memset(rest, 0, (size_t)dd + 1);
                    rest[0] = (uint8_t)dd;
                    value += plan_cost(C, &P, rest, dd + 1) + (penalty && dd + 1 == 1 ? penalty : 0);
                } else
                    value += plan_cost(C, &P, T.c[d], T.len[d]) + (penalty && T.len[d] == 1 ? penalty : 0);
                value += plan_turn(C, &P, &T, s, down - 1, ranks, total);
            } else {
                value += plan_cost(C, &P, T.c[s], T.len[s]) + (penalty && T.len[s] == 1 ? penalty : 0);
                if (dst_turn)
                    value += plan_turn(C, &P, &T, d, dd - 1, ranks, total);
                else {
                    int rl = finished && !auto_rm ? T.len[d] - RUNLEN : T.len[d]; /* by hand: as if sent */
                    value += plan_cost(C, &P, T.c[d], rl) + (penalty && rl == 1 ? penalty : 0);
                }
            }
            nodes[nn] = (PlanNode){nid, depth + 1, value, (uint8_t)s, (uint8_t)d, (uint8_t)k, (uint8_t)ends,
                                   (int8_t)at};
            first_of[nn] = first;
            nn++;
            long long pri = value + P.step * (depth + 1);
            if (first > MAXSTEPS) goto nomem; /* (never: the root's children are at most MAXSTEPS) */
            if (first >= nbest) nbest = first + 1;
            if (best_cid[first] < 0 || pri < best_pri[first]) {
                best_pri[first] = pri;
                best_cid[first] = cid;
            }
            if (!leaf && !(finished && !auto_rm)) plan_push(heap, &nh, (PlanEntry){pri, cid, child_at});
            undo_step(&T, &u);
        }
    }
    int gc_was = PyGC_Disable(); /* (tuples of numbers only: no cycle to collect while they are made) */
    out = plan_answers(nodes, nn, best_pri, best_cid, nbest, expanded, root_value);
    if (gc_was) PyGC_Enable();
    goto done;
nomem:
    PyErr_NoMemory();
done:
    Py_DECREF(seq);
    free(S.buf);
    free(S.slots);
    free(S.hashes);
    free(nodes);
    free(first_of);
    free(heap);
    return out;
}

/* learned_costs(params, col, cards) -> [the learned cost of column col with each card laid face up on it]:
 * LearnedValue.column_cost((down, up + bytes((card,)))) for each card, the planner's deal decision's sums. */
static PyObject *CCore_learned_costs(CCore *self, PyObject *args) {
    Py_buffer params, col, cards;
    if (!PyArg_ParseTuple(args, "y*y*y*", &params, &col, &cards)) return NULL;
    PlanParams P;
    uint8_t buf[MAXCOL];
    int len = (int)col.len;
    int ok = params.len == (Py_ssize_t)sizeof P && col.len >= 1 && col.len < MAXCOL - 8 &&
             ((const uint8_t *)col.buf)[0] < col.len;
    if (ok) {
        memcpy(&P, params.buf, sizeof P);
        memcpy(buf, col.buf, (size_t)len);
    }
    PyObject *out = ok ? PyList_New(cards.len) : NULL;
    if (!ok) PyErr_SetString(PyExc_ValueError, "learned_costs(params, column, cards): a column of at most 119 bytes");
    for (Py_ssize_t i = 0; out && i < cards.len; i++) {
        buf[len] = ((const uint8_t *)cards.buf)[i];
        PyObject *v = PyLong_FromLongLong(plan_learned(self, &P, buf, len + 1));
        if (!v) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, v);
    }
    PyBuffer_Release(&params);
    PyBuffer_Release(&col);
    PyBuffer_Release(&cards);
    return out;
}
