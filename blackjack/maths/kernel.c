/* The engine's two bulk computations in C: the dealer's outcome vectors of many shoes, and the
 * hit-or-stand values of every hand that can grow from a shoe.  The numpy code in
 * blackjack/maths/batch.py is the reference; this module computes the same sums in the same
 * order, so the two agree to the last bit (tests/blackjack/test_kernel.py).  Built by
 * `pip install -e .` (setup.py); the engine works without it, more slowly.
 *
 * A shoe is its integer code (blackjack.maths.dealer.encode): six bits per rank for aces to
 * nines, the ten-values on top.
 *
 * The dealer.  For an up card and soft-17 rule every multiset the dealer can end on is listed
 * once with the number of its orderings that are legal dealer sequences.  A multiset's
 * probability from a shoe is a product of one falling factorial per rank, ff(c_r, m_r), over
 * ff(N, size).  Summed over the multisets, the ranks are summed out one at a time (ten-values
 * first): after a step the dealer side needs only the multisets' counts of the ranks left, the
 * shoe side only its counts of the ranks summed.  The shoes of a batch, sorted by code, form a
 * trie in that order; a depth-first walk does each step once per distinct prefix.
 *
 * The hands.  Every multiset of at most 21 - hard points is laid out once per limit, most points
 * first, with the index of each one's children; a family (a shoe, a hard total, an ace held)
 * values every hand the shoe holds as the better of standing (the dealer's vector of the shoe it
 * leaves) and hitting (its children's values, or what busting costs), as batch.solve_hands.
 *
 * Every call holds the GIL and keeps no pointer into a growing array across a call into Python,
 * so the request threads and the background job may share the objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RANKS 10
#define OUTCOMES 7
#define BUST 5
#define BLACKJACK 6
#define MAX_COUNT 256 /* a rank's count fits its bits: at most 63, ten-values 255 */
#define MAX_SHOE 1024
#define MAX_DRAW 24 /* more cards than any dealer multiset or player hand holds */

static const int SHIFT[RANKS] = {0, 6, 12, 18, 24, 30, 36, 42, 48, 54};
static const uint64_t MASK[RANKS] = {63, 63, 63, 63, 63, 63, 63, 63, 63, 255};

static inline int count_of(uint64_t code, int r) { return (int)((code >> SHIFT[r]) & MASK[r]); }

static inline int size_of(uint64_t code) {
    int n = 0;
    for (int r = 0; r < RANKS; r++) n += count_of(code, r);
    return n;
}

/* FF[c][m] = c (c - 1) ... (c - m + 1), built by the same products as batch._falling;
 * INV[n][m] = 1 / ff(n, m), or 0 where that is 0. */
static double FF[MAX_COUNT][MAX_DRAW + 1];
static double INV[MAX_SHOE][MAX_DRAW + 1];

static void init_factorials(void) {
    for (int c = 0; c < MAX_COUNT; c++) {
        FF[c][0] = 1.0;
        for (int m = 1; m <= MAX_DRAW; m++) {
            int f = c - (m - 1);
            FF[c][m] = FF[c][m - 1] * (double)(f > 0 ? f : 0);
        }
    }
    for (int n = 0; n < MAX_SHOE; n++) {
        double below = 1.0;
        INV[n][0] = 1.0;
        for (int m = 1; m <= MAX_DRAW; m++) {
            int f = n - (m - 1);
            below = below * (double)(f > 0 ? f : 0);
            INV[n][m] = below > 0 ? 1.0 / below : 0.0;
        }
    }
}

/* --- a hash map from a 64-bit key (plus a small tag) to an index ------------------------- */

typedef struct {
    uint64_t *keys;
    int32_t *tags;
    int64_t *values; /* -1: empty */
    size_t cap, used;
} Map;

static inline size_t mix(uint64_t key, int32_t tag) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(uint32_t)tag * 0xC2B2AE3D27D4EB4FULL);
    h ^= h >> 29;
    return (size_t)h;
}

static int map_init(Map *m, size_t cap) {
    size_t c = 16;
    while (c < 2 * cap) c <<= 1;
    m->keys = malloc(c * sizeof(uint64_t));
    m->tags = malloc(c * sizeof(int32_t));
    m->values = malloc(c * sizeof(int64_t));
    if (!m->keys || !m->tags || !m->values) {
        free(m->keys);
        free(m->tags);
        free(m->values);
        m->keys = NULL;
        m->tags = NULL;
        m->values = NULL;
        return -1;
    }
    for (size_t i = 0; i < c; i++) m->values[i] = -1;
    m->cap = c;
    m->used = 0;
    return 0;
}

static void map_free(Map *m) {
    free(m->keys);
    free(m->tags);
    free(m->values);
    m->keys = NULL;
    m->tags = NULL;
    m->values = NULL;
    m->cap = m->used = 0;
}

static int64_t map_get(const Map *m, uint64_t key, int32_t tag) {
    if (!m->cap) return -1;
    size_t i = mix(key, tag) & (m->cap - 1);
    while (m->values[i] >= 0) {
        if (m->keys[i] == key && m->tags[i] == tag) return m->values[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

static int map_grow(Map *m) {
    Map bigger;
    if (map_init(&bigger, m->cap) < 0) return -1; /* twice the slots */
    for (size_t i = 0; i < m->cap; i++) {
        if (m->values[i] < 0) continue;
        size_t j = mix(m->keys[i], m->tags[i]) & (bigger.cap - 1);
        while (bigger.values[j] >= 0) j = (j + 1) & (bigger.cap - 1);
        bigger.keys[j] = m->keys[i];
        bigger.tags[j] = m->tags[i];
        bigger.values[j] = m->values[i];
        bigger.used++;
    }
    map_free(m);
    *m = bigger;
    return 0;
}

/* Sets key -> value (replacing); -1 on no memory. */
static int map_put(Map *m, uint64_t key, int32_t tag, int64_t value) {
    if (2 * (m->used + 1) > m->cap && map_grow(m) < 0) return -1;
    size_t i = mix(key, tag) & (m->cap - 1);
    while (m->values[i] >= 0) {
        if (m->keys[i] == key && m->tags[i] == tag) {
            m->values[i] = value;
            return 0;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key;
    m->tags[i] = tag;
    m->values[i] = value;
    m->used++;
    return 0;
}

/* --- the dealer's tables ------------------------------------------------------------------ */

typedef struct {
    int states[RANKS + 1]; /* dealer states before each step; states[0]: the multisets */
    double *weights;       /* orderings of each multiset, in the sorted order */
    int *target[RANKS];    /* per step: the new state of each old state */
    int *drawn[RANKS];     /* per step: each old state's count of the step's rank */
    int *final_outcome;    /* per last state */
    int *final_size;
} Table;

static Table *TABLES[11][2];

typedef struct {
    int counts[RANKS];
    int outcome, size;
    int64_t ways;
} Multiset;

/* The sort of batch._steps: by outcome, size, then the counts of aces, twos, ..., ten-values. */
static int compare_multisets(const void *a, const void *b) {
    const Multiset *x = a, *y = b;
    if (x->outcome != y->outcome) return x->outcome < y->outcome ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    for (int r = 0; r < RANKS; r++)
        if (x->counts[r] != y->counts[r]) return x->counts[r] < y->counts[r] ? -1 : 1;
    return 0;
}

typedef struct {
    uint64_t code;
    int64_t ways;
    int hard, ace;
} Partial;

static void free_table(Table *t) {
    if (!t) return;
    free(t->weights);
    for (int s = 0; s < RANKS; s++) {
        free(t->target[s]);
        free(t->drawn[s]);
    }
    free(t->final_outcome);
    free(t->final_size);
    free(t);
}

/* Every multiset the dealer ends on, counted card by card over the multisets drawn so far (as
 * dealer.final_multisets), then the merge steps of batch._steps. */
static Table *build_table(int up, int h17) {
    Table *t = calloc(1, sizeof(Table));
    Map found_at = {0}, grown_at = {0};
    Multiset *found = NULL;
    Partial *layer = NULL, *grown = NULL;
    size_t n_found = 0, cap_found = 1024, n_layer = 1, cap_layer = 1024, n_grown, cap_grown = 1024;
    int (*state)[RANKS + 2] = NULL, (*rest)[RANKS + 2] = NULL;
    if (!t || map_init(&found_at, 4096) < 0) goto fail;
    found = malloc(cap_found * sizeof(Multiset));
    layer = malloc(cap_layer * sizeof(Partial));
    grown = malloc(cap_grown * sizeof(Partial));
    if (!found || !layer || !grown) goto fail;
    layer[0].code = 0;
    layer[0].ways = 1;
    layer[0].hard = up;
    layer[0].ace = up == 1;
    while (n_layer) {
        n_grown = 0;
        if (map_init(&grown_at, n_layer * 10) < 0) goto fail;
        for (size_t i = 0; i < n_layer; i++) {
            Partial p = layer[i];
            for (int card = 1; card <= 10; card++) {
                uint64_t kid = p.code + ((uint64_t)1 << SHIFT[card - 1]);
                int h = p.hard + card, a = p.ace || card == 1;
                int total = a && h <= 11 ? h + 10 : h, outcome;
                if (total > 21)
                    outcome = BUST;
                else if (total == 21 && p.code == 0)
                    outcome = BLACKJACK;
                else if (total > 17 || (total == 17 && !(h17 && total != h)))
                    outcome = total - 17;
                else
                    outcome = -1;
                if (outcome >= 0) {
                    int64_t at = map_get(&found_at, kid, 0);
                    if (at < 0) {
                        if (n_found == cap_found) {
                            Multiset *more = realloc(found, 2 * cap_found * sizeof(Multiset));
                            if (!more) goto fail;
                            found = more;
                            cap_found *= 2;
                        }
                        at = (int64_t)n_found++;
                        for (int r = 0; r < RANKS; r++) found[at].counts[r] = count_of(kid, r);
                        found[at].outcome = outcome;
                        found[at].size = size_of(kid);
                        found[at].ways = 0;
                        if (map_put(&found_at, kid, 0, at) < 0) goto fail;
                    }
                    found[at].ways += p.ways;
                } else {
                    int64_t at = map_get(&grown_at, kid, 0);
                    if (at < 0) {
                        if (n_grown == cap_grown) {
                            Partial *more = realloc(grown, 2 * cap_grown * sizeof(Partial));
                            if (!more) goto fail;
                            grown = more;
                            cap_grown *= 2;
                        }
                        at = (int64_t)n_grown++;
                        grown[at].code = kid;
                        grown[at].ways = 0;
                        grown[at].hard = h;
                        grown[at].ace = a;
                        if (map_put(&grown_at, kid, 0, at) < 0) goto fail;
                    }
                    grown[at].ways += p.ways;
                }
            }
        }
        map_free(&grown_at);
        Partial *swap = layer;
        size_t swap_cap = cap_layer;
        layer = grown;
        cap_layer = cap_grown;
        n_layer = n_grown;
        grown = swap;
        cap_grown = swap_cap;
    }
    qsort(found, n_found, sizeof(Multiset), compare_multisets);
    int k = (int)n_found;
    t->states[0] = k;
    t->weights = malloc(k * sizeof(double));
    state = malloc(k * sizeof(*state));
    rest = malloc(k * sizeof(*rest));
    if (!t->weights || !state || !rest) goto fail;
    for (int i = 0; i < k; i++) {
        t->weights[i] = (double)found[i].ways;
        state[i][0] = found[i].outcome;
        state[i][1] = found[i].size;
        for (int r = 0; r < RANKS; r++) state[i][2 + r] = found[i].counts[r];
    }
    int n = k;
    for (int step = 0; step < RANKS; step++) {
        int r = RANKS - 1 - step, fresh = 0;
        t->target[step] = malloc(n * sizeof(int));
        t->drawn[step] = malloc(n * sizeof(int));
        if (!t->target[step] || !t->drawn[step]) goto fail;
        for (int i = 0; i < n; i++) {
            t->drawn[step][i] = state[i][2 + r];
            memcpy(rest[i], state[i], sizeof(rest[i]));
            rest[i][2 + r] = 0;
            if (i == 0 || memcmp(rest[i], rest[i - 1], sizeof(rest[i])) != 0) {
                memcpy(state[fresh], rest[i], sizeof(rest[i]));
                fresh++;
            }
            t->target[step][i] = fresh - 1;
        }
        n = fresh;
        t->states[step + 1] = n;
    }
    t->final_outcome = malloc(n * sizeof(int));
    t->final_size = malloc(n * sizeof(int));
    if (!t->final_outcome || !t->final_size) goto fail;
    for (int i = 0; i < n; i++) {
        t->final_outcome[i] = state[i][0];
        t->final_size[i] = state[i][1];
        if (state[i][1] > MAX_DRAW) goto fail;
    }
    map_free(&found_at);
    free(found);
    free(layer);
    free(grown);
    free(state);
    free(rest);
    return t;
fail:
    map_free(&found_at);
    map_free(&grown_at);
    free(found);
    free(layer);
    free(grown);
    free(state);
    free(rest);
    free_table(t);
    PyErr_NoMemory();
    return NULL;
}

static Table *table_for(int up, int h17) {
    Table **slot = &TABLES[up][h17 ? 1 : 0];
    if (!*slot) *slot = build_table(up, h17);
    return *slot;
}

/* numpy's sum of ``n`` numbers in a row (its pairwise summation). */
static double pairwise(const double *a, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    Py_ssize_t half = n / 2;
    half -= half % 8;
    return pairwise(a, half) + pairwise(a + half, n - half);
}

/* The outcome vectors (7 each) of the shoes ``codes[lo:hi]``, which share their counts of the
 * ranks summed before step ``step``; ``x`` holds the dealer states' sums so far. */
static void walk(const Table *t, const uint64_t *codes, Py_ssize_t lo, Py_ssize_t hi, int step,
                 const double *x, double **buffers, double *out) {
    if (step == RANKS) {
        /* Each outcome's last states are neighbours: the first, plus the rest summed. */
        double acc[OUTCOMES] = {0}, terms[MAX_DRAW * OUTCOMES + 1];
        const double *inv = INV[size_of(codes[lo])];
        int last = t->states[RANKS];
        for (int s = 0; s < last; s++) terms[s] = x[s] * inv[t->final_size[s]];
        for (int s = 0, e; s < last; s = e) {
            for (e = s + 1; e < last && t->final_outcome[e] == t->final_outcome[s];) e++;
            acc[t->final_outcome[s]] = terms[s] + pairwise(terms + s + 1, e - s - 1);
        }
        for (Py_ssize_t i = lo; i < hi; i++) memcpy(out + OUTCOMES * i, acc, sizeof(acc));
        return;
    }
    int r = RANKS - 1 - step, old = t->states[step], fresh = t->states[step + 1];
    const int *target = t->target[step], *drawn = t->drawn[step];
    double *y = buffers[step + 1];
    Py_ssize_t i = lo;
    while (i < hi) {
        int c = count_of(codes[i], r);
        Py_ssize_t j = i + 1;
        while (j < hi && count_of(codes[j], r) == c) j++;
        const double *f = FF[c];
        memset(y, 0, fresh * sizeof(double));
        for (int s = 0; s < old; s++) {
            int m = drawn[s];
            if (m)
                y[target[s]] += x[s] * f[m];
            else
                y[target[s]] += x[s];
        }
        walk(t, codes, i, j, step + 1, y, buffers, out);
        i = j;
    }
}

static int compare_codes(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The outcome vectors of ``n`` shoes sorted by code (repeats allowed) into ``out`` (n x 7). */
static int contract_sorted(const Table *t, const uint64_t *codes, Py_ssize_t n, double *out) {
    double *buffers[RANKS + 1];
    double *block;
    size_t total = 0;
    if (!n) return 0;
    for (int s = 1; s <= RANKS; s++) total += t->states[s];
    block = malloc((total ? total : 1) * sizeof(double));
    if (!block) {
        PyErr_NoMemory();
        return -1;
    }
    buffers[0] = t->weights;
    for (int s = 1, at = 0; s <= RANKS; s++) {
        buffers[s] = block + at;
        at += t->states[s];
    }
    walk(t, codes, 0, n, 0, t->weights, buffers, out);
    free(block);
    return 0;
}

/* The player's EV of standing on <=16, 17, ..., 21 from an outcome vector, as batch.stand_rows
 * (with ``peek`` a dealer blackjack counts as nothing, else as a loss). */
static void stand_row(const double *v, int peek, double *out) {
    double d[OUTCOMES], cum[5];
    memcpy(d, v, sizeof(d));
    if (peek) d[BLACKJACK] = 0.0;
    double bust = d[BUST], mass = d[0];
    for (int i = 1; i < OUTCOMES; i++) mass += d[i];
    cum[0] = d[0];
    for (int i = 1; i < 5; i++) cum[i] = cum[i - 1] + d[i];
    out[0] = 2.0 * bust - mass;
    for (int i = 0; i < 5; i++) {
        double below = i ? cum[i - 1] : 0.0;
        double above = cum[4] - cum[i] + d[BLACKJACK];
        out[i + 1] = bust + below - above;
    }
}


/* --- Dealer: the outcome vectors of one up card and soft-17 rule, by shoe ------------------ */

typedef struct {
    PyObject_HEAD
    int up, h17;
    const Table *table;
    Map at;          /* code -> row */
    double *vectors; /* rows x 7 */
    size_t rows, cap;
} Dealer;

static int dealer_reserve(Dealer *d, size_t more) {
    if (d->rows + more <= d->cap) return 0;
    size_t cap = d->cap ? d->cap : 1024;
    while (cap < d->rows + more) cap *= 2;
    double *grown = realloc(d->vectors, cap * OUTCOMES * sizeof(double));
    if (!grown) {
        PyErr_NoMemory();
        return -1;
    }
    d->vectors = grown;
    d->cap = cap;
    return 0;
}

/* Computes and keeps the vectors of the shoes ``codes`` not known yet (the array is sorted and
 * made distinct in place). */
static int dealer_fill(Dealer *d, uint64_t *codes, Py_ssize_t n) {
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (map_get(&d->at, codes[i], 0) < 0) codes[kept++] = codes[i];
    if (!kept) return 0;
    qsort(codes, kept, sizeof(uint64_t), compare_codes);
    Py_ssize_t distinct = 1;
    for (Py_ssize_t i = 1; i < kept; i++)
        if (codes[i] != codes[distinct - 1]) codes[distinct++] = codes[i];
    if (dealer_reserve(d, distinct) < 0) return -1;
    if (contract_sorted(d->table, codes, distinct, d->vectors + OUTCOMES * d->rows) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < distinct; i++) {
        if (map_put(&d->at, codes[i], 0, (int64_t)d->rows) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        d->rows++;
    }
    return 0;
}

/* The row of one shoe, computed if new; NULL with an exception set on failure. */
static const double *dealer_vector(Dealer *d, uint64_t code) {
    int64_t at = map_get(&d->at, code, 0);
    if (at < 0) {
        if (dealer_fill(d, &code, 1) < 0) return NULL;
        at = map_get(&d->at, code, 0);
    }
    return d->vectors + OUTCOMES * at;
}

static int read_code(PyObject *obj, uint64_t *code) {
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *code = (uint64_t)v;
    return 0;
}

/* A composition (a sequence of ten counts) as its code. */
static int read_comp(PyObject *obj, int counts[RANKS]) {
    PyObject *seq = PySequence_Fast(obj, "a composition is a sequence of ten counts");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != RANKS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a composition has ten counts");
        return -1;
    }
    for (int r = 0; r < RANKS; r++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, r));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || (uint64_t)c > MASK[r]) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a count out of range");
            return -1;
        }
        counts[r] = (int)c;
    }
    Py_DECREF(seq);
    return 0;
}

static uint64_t encode(const int counts[RANKS]) {
    uint64_t code = 0;
    for (int r = 0; r < RANKS; r++) code += (uint64_t)counts[r] << SHIFT[r];
    return code;
}

static int Dealer_init(Dealer *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"up", "h17", NULL};
    int up, h17;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ip", names, &up, &h17)) return -1;
    if (up < 1 || up > 10) {
        PyErr_SetString(PyExc_ValueError, "up card must be 1 (ace) to 10");
        return -1;
    }
    map_free(&self->at);
    free(self->vectors);
    self->vectors = NULL;
    self->rows = self->cap = 0;
    self->up = up;
    self->h17 = h17;
    self->table = table_for(up, h17);
    if (!self->table) return -1;
    if (map_init(&self->at, 1024) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Dealer_dealloc(Dealer *self) {
    map_free(&self->at);
    free(self->vectors);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t Dealer_len(Dealer *self) { return (Py_ssize_t)self->rows; }

typedef struct {
    uint64_t *codes;
    Py_ssize_t n, cap;
} Codes;

static int codes_push(Codes *c, uint64_t code) {
    if (c->n == c->cap) {
        Py_ssize_t cap = c->cap ? 2 * c->cap : 4096;
        uint64_t *more = realloc(c->codes, cap * sizeof(uint64_t));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        c->codes = more;
        c->cap = cap;
    }
    c->codes[c->n++] = code;
    return 0;
}

/* Appends the code of ``counts`` (``cards`` cards) unless it is empty, then of it less every
 * multiset of at most ``room`` points it holds, of cards from ``smallest`` up. */
static int less_multisets(int counts[RANKS], int cards, int smallest, int room, Codes *out) {
    if (cards && codes_push(out, encode(counts)) < 0) return -1;
    for (int card = smallest; card <= (room < 10 ? room : 10); card++) {
        if (!counts[card - 1]) continue;
        counts[card - 1]--;
        int failed = less_multisets(counts, cards - 1, card, room - card, out);
        counts[card - 1]++;
        if (failed) return -1;
    }
    return 0;
}

static PyObject *Dealer_fill_less(Dealer *self, PyObject *args) {
    PyObject *pairs;
    if (!PyArg_ParseTuple(args, "O", &pairs)) return NULL;
    PyObject *seq = PySequence_Fast(pairs, "fill_less takes (composition, points) pairs");
    if (!seq) return NULL;
    Codes codes = {0};
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *comp, *pair = PySequence_Fast_GET_ITEM(seq, i);
        int counts[RANKS], limit, n = 0;
        if (!PyArg_ParseTuple(pair, "Oi", &comp, &limit) || read_comp(comp, counts) < 0)
            goto fail;
        for (int r = 0; r < RANKS; r++) n += counts[r];
        if (less_multisets(counts, n, 1, limit < 0 ? 0 : limit, &codes) < 0) goto fail;
    }
    Py_DECREF(seq);
    if (dealer_fill(self, codes.codes, codes.n) < 0) {
        free(codes.codes);
        return NULL;
    }
    free(codes.codes);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    free(codes.codes);
    return NULL;
}

static PyObject *Dealer_fill(Dealer *self, PyObject *args) {
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O", &list)) return NULL;
    PyObject *seq = PySequence_Fast(list, "fill takes shoe codes");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    uint64_t *codes = malloc((n ? n : 1) * sizeof(uint64_t));
    if (!codes) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_code(PySequence_Fast_GET_ITEM(seq, i), &codes[i]) < 0) {
            free(codes);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    int failed = dealer_fill(self, codes, n);
    free(codes);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Dealer_known(Dealer *self, PyObject *arg) {
    uint64_t code;
    if (read_code(arg, &code) < 0) return NULL;
    return PyBool_FromLong(map_get(&self->at, code, 0) >= 0);
}

static PyObject *floats(const double *v, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *Dealer_vector(Dealer *self, PyObject *arg) {
    uint64_t code;
    if (read_code(arg, &code) < 0) return NULL;
    const double *v = dealer_vector(self, code);
    return v ? floats(v, OUTCOMES) : NULL;
}

static PyObject *Dealer_stand_row(Dealer *self, PyObject *args) {
    PyObject *obj;
    int peek;
    uint64_t code;
    double row[6];
    if (!PyArg_ParseTuple(args, "Op", &obj, &peek) || read_code(obj, &code) < 0) return NULL;
    const double *v = dealer_vector(self, code);
    if (!v) return NULL;
    stand_row(v, peek, row);
    return floats(row, 6);
}

static PyMethodDef Dealer_methods[] = {
    {"fill_less", (PyCFunction)Dealer_fill_less, METH_VARARGS,
     "fill_less(pairs): the vectors of each composition less every multiset of at most that\n"
     "many points it holds (the empty shoe apart), for the (composition, points) pairs."},
    {"fill", (PyCFunction)Dealer_fill, METH_VARARGS, "fill(codes): the vectors of these shoes."},
    {"known", (PyCFunction)Dealer_known, METH_O, "known(code): whether the shoe's vector is here."},
    {"vector", (PyCFunction)Dealer_vector, METH_O,
     "vector(code): the outcome vector (17, 18, 19, 20, 21, bust, blackjack) of a shoe."},
    {"stand_row", (PyCFunction)Dealer_stand_row, METH_VARARGS,
     "stand_row(code, peek): the EVs of standing on <=16, 17, ..., 21 against the shoe."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Dealer_as_sequence = {.sq_length = (lenfunc)Dealer_len};

static PyTypeObject DealerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "blackjack.maths.kernel.Dealer",
    .tp_doc = "Dealer(up, h17): the dealer's outcome vectors of many shoes, kept by code.",
    .tp_basicsize = sizeof(Dealer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Dealer_init,
    .tp_dealloc = (destructor)Dealer_dealloc,
    .tp_methods = Dealer_methods,
    .tp_as_sequence = &Dealer_as_sequence,
};

/* --- Hands: the hit-or-stand values of every hand grown from a shoe ------------------------ */

typedef struct {
    PyObject_HEAD
    Map at;         /* (shoe code, 2 * hard + ace) -> value index */
    double *values;
    size_t n, cap;
} Hands;

static int Hands_init(Hands *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", names)) return -1;
    map_free(&self->at);
    free(self->values);
    self->values = NULL;
    self->n = self->cap = 0;
    if (map_init(&self->at, 1024) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Hands_dealloc(Hands *self) {
    map_free(&self->at);
    free(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t Hands_len(Hands *self) { return (Py_ssize_t)self->n; }

static int hands_put(Hands *self, uint64_t code, int key, double value) {
    int64_t at = map_get(&self->at, code, key);
    if (at >= 0) {
        self->values[at] = value;
        return 0;
    }
    if (self->n == self->cap) {
        size_t cap = self->cap ? 2 * self->cap : 4096;
        double *more = realloc(self->values, cap * sizeof(double));
        if (!more) return -1;
        self->values = more;
        self->cap = cap;
    }
    if (map_put(&self->at, code, key, (int64_t)self->n) < 0) return -1;
    self->values[self->n++] = value;
    return 0;
}

/* Every multiset of at most ``limit`` points, most points first, with the index of each one's
 * multiset with a card more of each rank (-1 past the limit): the hands a family grows, laid
 * out once per limit (batch._play_layout). */
typedef struct {
    Py_ssize_t n;
    uint64_t *code;
    unsigned char (*counts)[RANKS];
    int *points, *ace, *cards;
    int (*child)[RANKS];
    Py_ssize_t single[RANKS]; /* the one-card multisets */
} Layout;

static Layout *LAYOUTS[22];

typedef struct {
    unsigned char counts[RANKS];
    int points;
} Held;

static int compare_held(const void *a, const void *b) {
    const Held *x = a, *y = b;
    if (x->points != y->points) return x->points > y->points ? -1 : 1;
    return memcmp(x->counts, y->counts, RANKS);
}

static int list_held(unsigned char counts[RANKS], int points, int smallest, int limit, Held **out,
                     Py_ssize_t *n, Py_ssize_t *cap) {
    if (*n == *cap) {
        Py_ssize_t more = *cap ? 2 * *cap : 1024;
        Held *grown = realloc(*out, more * sizeof(Held));
        if (!grown) return -1;
        *out = grown;
        *cap = more;
    }
    memcpy((*out)[*n].counts, counts, RANKS);
    (*out)[*n].points = points;
    (*n)++;
    for (int card = smallest; card <= (limit - points < 10 ? limit - points : 10); card++) {
        counts[card - 1]++;
        int failed = list_held(counts, points + card, card, limit, out, n, cap);
        counts[card - 1]--;
        if (failed) return -1;
    }
    return 0;
}

static void free_layout(Layout *l) {
    if (!l) return;
    free(l->code);
    free(l->counts);
    free(l->points);
    free(l->ace);
    free(l->cards);
    free(l->child);
    free(l);
}

static Layout *layout_for(int limit) {
    if (LAYOUTS[limit]) return LAYOUTS[limit];
    Held *held = NULL;
    Py_ssize_t n = 0, cap = 0;
    unsigned char counts[RANKS] = {0};
    Map at = {0};
    Layout *l = calloc(1, sizeof(Layout));
    if (!l || list_held(counts, 0, 1, limit, &held, &n, &cap) < 0) goto fail;
    qsort(held, n, sizeof(Held), compare_held);
    l->n = n;
    l->code = malloc(n * sizeof(uint64_t));
    l->counts = malloc(n * sizeof(*l->counts));
    l->points = malloc(n * sizeof(int));
    l->ace = malloc(n * sizeof(int));
    l->cards = malloc(n * sizeof(int));
    l->child = malloc(n * sizeof(*l->child));
    if (!l->code || !l->counts || !l->points || !l->ace || !l->cards || !l->child ||
        map_init(&at, n) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c[RANKS], cards = 0;
        for (int r = 0; r < RANKS; r++) {
            c[r] = held[i].counts[r];
            cards += c[r];
        }
        memcpy(l->counts[i], held[i].counts, RANKS);
        l->code[i] = encode(c);
        l->points[i] = held[i].points;
        l->ace[i] = c[0] > 0;
        l->cards[i] = cards;
        if (map_put(&at, l->code[i], 0, i) < 0) goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        for (int r = 0; r < RANKS; r++)
            l->child[i][r] = l->points[i] + r + 1 <= limit
                                 ? (int)map_get(&at, l->code[i] + ((uint64_t)1 << SHIFT[r]), 0)
                                 : -1;
    for (int r = 0; r < RANKS; r++)
        l->single[r] = r + 1 <= limit ? map_get(&at, (uint64_t)1 << SHIFT[r], 0) : -1;
    map_free(&at);
    free(held);
    LAYOUTS[limit] = l;
    return l;
fail:
    map_free(&at);
    free(held);
    free_layout(l);
    PyErr_NoMemory();
    return NULL;
}

/* One family's hands by layout index: whether the shoe holds the hand's cards, the shoe it
 * leaves, its row among the dealer's vectors, its stand and hit-or-stand values. */
typedef struct {
    Py_ssize_t cap;
    char *exists;
    uint64_t *code;
    int64_t *row;
    double *stand, *value;
} Family;

static void free_family(Family *f) {
    free(f->exists);
    free(f->code);
    free(f->row);
    free(f->stand);
    free(f->value);
    memset(f, 0, sizeof(Family));
}

static int family_reserve(Family *f, Py_ssize_t n) {
    if (n <= f->cap) return 0;
    free_family(f);
    f->exists = malloc(n);
    f->code = malloc(n * sizeof(uint64_t));
    f->row = malloc(n * sizeof(int64_t));
    f->stand = malloc(n * sizeof(double));
    f->value = malloc(n * sizeof(double));
    if (!f->exists || !f->code || !f->row || !f->stand || !f->value) {
        free_family(f);
        PyErr_NoMemory();
        return -1;
    }
    f->cap = n;
    return 0;
}

/* The sum over ranks of count x (the child's ``worth``, or, where the card busts, minus the
 * mass of the shoe it leaves), as numpy sums it. */
static inline double draw_sum(const Layout *l, const Family *f, Py_ssize_t i, const int left[RANKS],
                              int n, const double *worth, int peek, int bj) {
    double terms[RANKS], bust = -1.0, bust_own = -1.0;
    if (peek && bj >= 0) {
        double below = (double)(n - 1 > 1 ? n - 1 : 1);
        bust = (double)left[bj] / below - 1.0;
        bust_own = (double)(left[bj] - 1) / below - 1.0; /* drawing the blackjack card itself */
    }
    for (int r = 0; r < RANKS; r++) {
        int kid = l->child[i][r];
        double w = kid >= 0 && f->exists[kid] ? worth[kid] : r == bj ? bust_own : bust;
        terms[r] = (double)left[r] * w;
    }
    return pairwise(terms, RANKS);
}

static inline int hand_total(int hard, int ace) { return ace && hard <= 11 ? hard + 10 : hard; }

/* Values one family's hands (as batch.solve_hands), most points first so that a hand's children
 * are valued before it. */
static int solve_family(Dealer *dealer, const Layout *l, const int comp[RANKS], int hard, int ace,
                        int peek, int bj, Family *f) {
    uint64_t whole = encode(comp);
    int size = 0;
    for (int r = 0; r < RANKS; r++) size += comp[r];
    if (family_reserve(f, l->n) < 0) return -1;
    Codes missing = {0};
    for (Py_ssize_t i = 0; i < l->n; i++) {
        int ok = 1;
        for (int r = 0; r < RANKS && ok; r++) ok = l->counts[i][r] <= comp[r];
        f->exists[i] = (char)ok;
        if (!ok) continue;
        f->code[i] = whole - l->code[i];
        f->row[i] = map_get(&dealer->at, f->code[i], 0);
        if (f->row[i] < 0 && codes_push(&missing, f->code[i]) < 0) {
            free(missing.codes);
            return -1;
        }
    }
    /* The dealer's vectors of every shoe here: all known after the engine's fill. */
    if (missing.n) {
        int failed = dealer_fill(dealer, missing.codes, missing.n);
        free(missing.codes);
        if (failed) return -1;
        for (Py_ssize_t i = 0; i < l->n; i++)
            if (f->exists[i] && f->row[i] < 0) f->row[i] = map_get(&dealer->at, f->code[i], 0);
    }
    for (Py_ssize_t i = 0; i < l->n; i++) {
        if (!f->exists[i]) continue;
        double row[6];
        int total = hand_total(hard + l->points[i], ace || l->ace[i]);
        stand_row(dealer->vectors + OUTCOMES * f->row[i], peek, row);
        f->stand[i] = row[total - 16 > 0 ? total - 16 : 0];
    }
    for (Py_ssize_t i = 0; i < l->n; i++) {
        if (!f->exists[i]) continue;
        int left[RANKS], n = size - l->cards[i];
        for (int r = 0; r < RANKS; r++) left[r] = comp[r] - l->counts[i][r];
        double hit = draw_sum(l, f, i, left, n, f->value, peek, bj) / (double)(n > 1 ? n : 1);
        int total = hand_total(hard + l->points[i], ace || l->ace[i]);
        double stand = f->stand[i];
        f->value[i] = total < 21 ? (stand >= hit ? stand : hit) : stand;
    }
    return 0;
}

static PyObject *Hands_solve(Hands *self, PyObject *args) {
    Dealer *dealer;
    PyObject *families;
    int memos, peek, bj;
    if (!PyArg_ParseTuple(args, "O!Oipi", &DealerType, &dealer, &families, &memos, &peek, &bj))
        return NULL;
    PyObject *seq = PySequence_Fast(families, "solve takes (composition, hard, ace) families");
    if (!seq) return NULL;
    PyObject *nodes = PyList_New(0);
    Family f = {0};
    if (!nodes) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *comp;
        int counts[RANKS], hard, ace;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "Oip", &comp, &hard, &ace) ||
            read_comp(comp, counts) < 0)
            goto fail;
        if (hard < 0 || hard > 21) {
            PyErr_SetString(PyExc_ValueError, "hard total out of range");
            goto fail;
        }
        const Layout *l = layout_for(21 - hard);
        if (!l || solve_family(dealer, l, counts, hard, ace, peek, bj, &f) < 0) goto fail;
        if (i < memos) {
            for (Py_ssize_t k = 0; k < l->n; k++) {
                if (!f.exists[k]) continue;
                int key = 2 * (hard + l->points[k]) + (ace || l->ace[k]);
                if (hands_put(self, f.code[k], key, f.value[k]) < 0) {
                    PyErr_NoMemory();
                    goto fail;
                }
            }
            continue;
        }
        /* A split hand's shoe: the one-card hands [pair, second], their hit-or-stand value,
         * stand and double. */
        int size = 0;
        for (int r = 0; r < RANKS; r++) size += counts[r];
        for (int second = 1; second <= 10; second++) {
            Py_ssize_t k = l->single[second - 1];
            if (k < 0 || !f.exists[k] || size - 1 <= 0) continue;
            int left[RANKS], n = size - 1;
            for (int r = 0; r < RANKS; r++) left[r] = counts[r] - (r == second - 1);
            double dbl = 2.0 * draw_sum(l, &f, k, left, n, f.stand, peek, bj) / (double)n;
            PyObject *item = Py_BuildValue("(niKddd)", i, second, (unsigned long long)f.code[k],
                                           f.value[k], f.stand[k], dbl);
            if (!item || PyList_Append(nodes, item) < 0) {
                Py_XDECREF(item);
                goto fail;
            }
            Py_DECREF(item);
        }
    }
    free_family(&f);
    Py_DECREF(seq);
    return nodes;
fail:
    free_family(&f);
    Py_DECREF(seq);
    Py_XDECREF(nodes);
    return NULL;
}

static PyObject *Hands_get(Hands *self, PyObject *args) {
    PyObject *obj;
    int key;
    uint64_t code;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &key) || read_code(obj, &code) < 0) return NULL;
    int64_t at = map_get(&self->at, code, key);
    if (at < 0) Py_RETURN_NONE;
    return PyFloat_FromDouble(self->values[at]);
}

static PyObject *Hands_items(Hands *self, PyObject *unused) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (size_t i = 0; i < self->at.cap; i++) {
        if (self->at.values[i] < 0) continue;
        PyObject *item = Py_BuildValue("(Kid)", (unsigned long long)self->at.keys[i],
                                       self->at.tags[i], self->values[self->at.values[i]]);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyMethodDef Hands_methods[] = {
    {"solve", (PyCFunction)Hands_solve, METH_VARARGS,
     "solve(dealer, families, memos, peek, bj_index): value every hand grown from each family\n"
     "(composition, hard, ace); the first ``memos`` families' values are kept (get), the others\n"
     "are split hands' shoes: returns (family, second card, shoe code, hit-or-stand, stand,\n"
     "double) of each one-card hand there."},
    {"get", (PyCFunction)Hands_get, METH_VARARGS,
     "get(code, key): the kept value of the hand (key 2 * hard + ace) on the shoe, or None."},
    {"items", (PyCFunction)Hands_items, METH_NOARGS, "items(): every (code, key, value) kept."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Hands_as_sequence = {.sq_length = (lenfunc)Hands_len};

static PyTypeObject HandsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "blackjack.maths.kernel.Hands",
    .tp_doc = "Hands(): hit-or-stand values of hands, kept by (shoe code, 2 * hard + ace).",
    .tp_basicsize = sizeof(Hands),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Hands_init,
    .tp_dealloc = (destructor)Hands_dealloc,
    .tp_methods = Hands_methods,
    .tp_as_sequence = &Hands_as_sequence,
};

/* --- the module ----------------------------------------------------------------------------- */

static PyObject *kernel_contract(PyObject *module, PyObject *args) {
    int up, h17;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "ipO", &up, &h17, &list)) return NULL;
    if (up < 1 || up > 10) {
        PyErr_SetString(PyExc_ValueError, "up card must be 1 (ace) to 10");
        return NULL;
    }
    const Table *t = table_for(up, h17);
    if (!t) return NULL;
    PyObject *seq = PySequence_Fast(list, "contract takes shoe codes");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    uint64_t *codes = malloc((n ? n : 1) * sizeof(uint64_t));
    uint64_t *sorted = malloc((n ? n : 1) * sizeof(uint64_t));
    double *vectors = malloc((n ? n : 1) * OUTCOMES * sizeof(double));
    PyObject *out = NULL;
    if (!codes || !sorted || !vectors) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_code(PySequence_Fast_GET_ITEM(seq, i), &codes[i]) < 0) goto done;
    memcpy(sorted, codes, n * sizeof(uint64_t));
    qsort(sorted, n, sizeof(uint64_t), compare_codes);
    if (contract_sorted(t, sorted, n, vectors) < 0) goto done;
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t *hit = bsearch(&codes[i], sorted, n, sizeof(uint64_t), compare_codes);
        PyObject *row = floats(vectors + OUTCOMES * (hit - sorted), OUTCOMES);
        if (!row) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, row);
    }
done:
    Py_DECREF(seq);
    free(codes);
    free(sorted);
    free(vectors);
    return out;
}

static PyMethodDef kernel_methods[] = {
    {"contract", kernel_contract, METH_VARARGS,
     "contract(up, h17, codes): the outcome vectors of the shoes, each a tuple of seven."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "kernel",
    "The engine's dealer batches and hand values in C (see blackjack/maths/kernel.c).",
    -1,
    kernel_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit_kernel(void) {
    init_factorials();
    if (PyType_Ready(&DealerType) < 0 || PyType_Ready(&HandsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&DealerType);
    Py_INCREF(&HandsType);
    if (PyModule_AddObject(m, "Dealer", (PyObject *)&DealerType) < 0 ||
        PyModule_AddObject(m, "Hands", (PyObject *)&HandsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
