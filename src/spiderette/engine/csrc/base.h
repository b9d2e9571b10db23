/* The compiled core's limits and shared types (included by _ccore.c). */
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

/* Seconds on the monotonic clock (the searches' deadlines). */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

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
