/* _ccore: the compiled search core (issue 44). The pure-Python core (spiderette/engine/core.py and the
 * searches' loops in spiderette/players) stays the reference: this module gives the same answers, table for
 * table, for any variant of up to 10 columns:
 *   - the move generator (Core._moves: every Pruning rule, both move orders, deals, sends): csrc/moves.h,
 *   - the applier in place and its undo (Core.shift / Core.deal / Core.send): csrc/moves.h,
 *   - a compact, exact, decodable table key (a variable-length bit code): csrc/keys.h,
 *   - the solver's best-first search (players/solver.py, _search: weighted A*, the same costs, tie-break and
 *     keys), run wholly in C with the GIL released: csrc/search.h,
 *   - the proof pass's layers (players/proof.py, _layers): csrc/proof.h,
 *   - the planner's search over the visible table (players/plan_search.py, search), its costs: csrc/plan.h.
 *
 * One translation unit (the csrc/ files are included here, in order), so the hot loops inline across parts.
 * A column is as in core.py: c[0] = face-down count, c[1..len-1] every card bottom first; a card is
 * suit * 16 + rank (rank 1..13).
 *
 * Built by the package's build (hatch_build.py: the wheel, or in place for pip install -e), or by hand:
 * python benchmarks/ccore_proto.py --build. Selected at run time by spiderette/engine/ccore.py.
 */
#include "csrc/base.h"
#include "csrc/moves.h"
#include "csrc/keys.h"

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


#include "csrc/search.h"
#include "csrc/proof.h"
#include "csrc/plan.h"

static PyMethodDef CCore_methods[] = {
    {"children", (PyCFunction)CCore_children, METH_VARARGS, "children(cols, dealt, runs): every step's child"},
    {"key", (PyCFunction)CCore_key, METH_VARARGS, "key(cols, dealt, runs) -> (key, order)"},
    {"decode", (PyCFunction)CCore_decode, METH_VARARGS, "decode(key, order) -> (cols, dealt, runs)"},
    {"prove", (PyCFunction)CCore_prove, METH_VARARGS,
     "prove(runs, node_limit, held, seconds[, trace, cancel]): the proof pass's layers from the root, nothing dealt yet"},
    {"search", (PyCFunction)CCore_search, METH_VARARGS,
     "search(dealt, runs, weights, node_limit, held, seconds[, cancel]): the solver's best-first search from the root"},
    {"plan", (PyCFunction)CCore_plan, METH_VARARGS,
     "plan(root, stock_left, seen, budget, unseen, filling, params[, cancel]): the planner's search (plan_search.search)"},
    {"learned_costs", (PyCFunction)CCore_learned_costs, METH_VARARGS,
     "learned_costs(params, column, cards): the learned cost of the column with each card laid on it"},
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
