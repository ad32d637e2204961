/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/internal/tracev1/order.go at go1.27.3: the goroutine state
 * machine that decides when the head of a P's batch may be merged, and the frontier's
 * min-heap (container/heap's up and down, with orderEventList's Less: Ts only). */
#include "tracev1.h"

static gtr__v1_gstate gst(uint64_t seq, int status)
{
    gtr__v1_gstate s = {seq, status};
    return s;
}

uint64_t gtr__v1_state_transition(const gtr__v1_event *ev, gtr__v1_gstate *init,
                                  gtr__v1_gstate *next)
{
    *init = gst(0, GTR_V1_G_DEAD);
    *next = gst(0, GTR_V1_G_DEAD);
    switch (ev->type) {
    case GTR_V1_GO_CREATE:
        *init = gst(0, GTR_V1_G_DEAD);
        *next = gst(1, GTR_V1_G_RUNNABLE);
        return ev->args[0];
    case GTR_V1_GO_WAITING:
    case GTR_V1_GO_IN_SYSCALL:
        *init = gst(1, GTR_V1_G_RUNNABLE);
        *next = gst(2, GTR_V1_G_WAITING);
        return ev->g;
    case GTR_V1_GO_START:
    case GTR_V1_GO_START_LABEL:
        *init = gst(ev->args[1], GTR_V1_G_RUNNABLE);
        *next = gst(ev->args[1] + 1, GTR_V1_G_RUNNING);
        return ev->g;
    case GTR_V1_GO_START_LOCAL:
        /* Ready as soon as the frontier reaches it (it is on the same P as the GoCreate or
         * GoUnblock it follows); it increments a sequence number we do not know yet. */
        *init = gst(GTR_V1_NOSEQ, GTR_V1_G_RUNNABLE);
        *next = gst(GTR_V1_SEQINC, GTR_V1_G_RUNNING);
        return ev->g;
    case GTR_V1_GO_BLOCK:
    case GTR_V1_GO_BLOCK_SEND:
    case GTR_V1_GO_BLOCK_RECV:
    case GTR_V1_GO_BLOCK_SELECT:
    case GTR_V1_GO_BLOCK_SYNC:
    case GTR_V1_GO_BLOCK_COND:
    case GTR_V1_GO_BLOCK_NET:
    case GTR_V1_GO_SLEEP:
    case GTR_V1_GO_SYS_BLOCK:
    case GTR_V1_GO_BLOCK_GC:
        *init = gst(GTR_V1_NOSEQ, GTR_V1_G_RUNNING);
        *next = gst(GTR_V1_NOSEQ, GTR_V1_G_WAITING);
        return ev->g;
    case GTR_V1_GO_SCHED:
    case GTR_V1_GO_PREEMPT:
        *init = gst(GTR_V1_NOSEQ, GTR_V1_G_RUNNING);
        *next = gst(GTR_V1_NOSEQ, GTR_V1_G_RUNNABLE);
        return ev->g;
    case GTR_V1_GO_UNBLOCK:
    case GTR_V1_GO_SYS_EXIT:
        *init = gst(ev->args[1], GTR_V1_G_WAITING);
        *next = gst(ev->args[1] + 1, GTR_V1_G_RUNNABLE);
        return ev->args[0];
    case GTR_V1_GO_UNBLOCK_LOCAL:
    case GTR_V1_GO_SYS_EXIT_LOCAL:
        *init = gst(GTR_V1_NOSEQ, GTR_V1_G_WAITING);
        *next = gst(GTR_V1_SEQINC, GTR_V1_G_RUNNABLE);
        return ev->args[0];
    case GTR_V1_GC_START:
        *init = gst(ev->args[0], GTR_V1_G_DEAD);
        *next = gst(ev->args[0] + 1, GTR_V1_G_DEAD);
        return GTR_V1_GARBAGE;
    default:
        return GTR_V1_UNORDERED;   /* no ordering requirements */
    }
}

bool gtr__v1_transition_ready(uint64_t g, gtr__v1_gstate curr, gtr__v1_gstate init)
{
    return g == GTR_V1_UNORDERED ||
           ((init.seq == GTR_V1_NOSEQ || init.seq == curr.seq) && init.status == curr.status);
}

/* The heap is container/heap's over orderEventList (Less: a lower timestamp), step for step:
 * which of two events with equal timestamps is merged first depends on the exact layout, so
 * up and down make Go's moves. They move a hole instead of swapping: x ends where Go's swaps
 * put it, and every element it passes moves exactly as a swap would move it. */

/* heap_up is up(j) with h[j] == x. */
static void heap_up(gtr__v1_order_event *h, size_t j, gtr__v1_order_event x)
{
    while (j > 0) {
        size_t i = (j - 1) / 2; /* parent */
        if (!(x.ts < h[i].ts))
            break;
        h[j] = h[i];
        j = i;
    }
    h[j] = x;
}

/* heap_down is down(i, n) with h[i] == x. */
static void heap_down(gtr__v1_order_event *h, size_t i, size_t n, gtr__v1_order_event x)
{
    for (;;) {
        size_t j1 = 2 * i + 1;
        if (j1 >= n)
            break;
        size_t j = j1; /* left child */
        if (j1 + 1 < n && h[j1 + 1].ts < h[j1].ts)
            j = j1 + 1; /* right child */
        if (!(h[j].ts < x.ts))
            break;
        h[i] = h[j];
        i = j;
    }
    h[i] = x;
}

void gtr__v1_heap_push(gtr__v1_order_event *h, size_t *n, const gtr__v1_order_event *x)
{
    size_t j = (*n)++;
    heap_up(h, j, *x);
}

gtr__v1_order_event gtr__v1_heap_pop(gtr__v1_order_event *h, size_t *n)
{
    /* Swap(0, n-1), down(0, n-1), then the old root leaves from the end. */
    size_t last = *n - 1;
    gtr__v1_order_event top = h[0];
    if (last > 0)
        heap_down(h, 0, last, h[last]);
    (*n)--;
    return top;
}

/* push_pop_restores is whether Push then Pop of an x below h[0] leaves h[0..n) as it was.
 * Push lifts x from leaf n to the root, moving each element q_i of the leaf's path (q_0 the
 * root, q_k the leaf's parent) down to q_{i+1}'s place, and q_k to the leaf. Pop swaps q_k
 * back to the root and sifts it down; it retraces the path, putting every element back, when
 * at each step (a) the path child is the one chosen: a left child always is (its sibling was
 * q_i's child, so not lower), a right one only if q_i is strictly below its left sibling, and
 * (b) the path element is strictly below q_k, that is q_{k-1} < q_k (the path is sorted).
 * At q_k the sift stops: its only child below n was its child before. */
static bool push_pop_restores(const gtr__v1_order_event *h, size_t n)
{
    size_t c = (n - 1) / 2; /* q_k */
    if (c == 0)
        return true;
    if (!(h[(c - 1) / 2].ts < h[c].ts))
        return false; /* (b) */
    for (; c > 0; c = (c - 1) / 2) {
        if ((c & 1) == 0 && !(h[(c - 1) / 2].ts < h[c - 1].ts))
            return false; /* (a): q_i would not step down to this right child */
    }
    return true;
}

void gtr__v1_frontier_push(gtr__v1_frontier *f, const gtr__v1_order_event *x)
{
    gtr__v1_heap_push(f->h, &f->n, x);
    f->restores = false;
}

gtr__v1_order_event gtr__v1_frontier_pop(gtr__v1_frontier *f)
{
    f->restores = false;
    return gtr__v1_heap_pop(f->h, &f->n);
}

gtr__v1_order_event gtr__v1_frontier_push_pop_moving(gtr__v1_frontier *f,
                                                     const gtr__v1_order_event *x)
{
    /* Not kept (or x not below the root): test the path now. */
    if (x->ts < f->h[0].ts && push_pop_restores(f->h, f->n)) {
        f->restores = true;
        return *x;
    }
    gtr__v1_heap_push(f->h, &f->n, x);
    f->restores = false;
    return gtr__v1_heap_pop(f->h, &f->n);
}
