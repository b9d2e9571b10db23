/* One column's groups, the moves of a table (Core._moves) and the applier with its undo. */
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

