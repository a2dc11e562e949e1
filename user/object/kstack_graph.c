// SPDX-License-Identifier: GPL-2.0
/*
 * kstack: which functions are checked, and what each check asks for
 * (kstack.h), from the calls kstack_read.c found.
 *
 * The functions and their sites make a graph; a call through a pointer
 * leads to one node more, "through a pointer", which leads to every taken
 * function.  Every cycle of it must hold a checked function: we take the
 * graph's strongly connected components (Tarjan), check one function of
 * each that holds a cycle (a benchmark's entry point where it is on one, as
 * it is called once a sample, else a function with a symbol), and again
 * until none is left.  Cut at the checked functions, the graph is acyclic,
 * and each function's deepest reach to the next check or its end is a
 * number: its frame (and the red zone), or a site's depth, the return
 * address and the callee's reach.  A check asks for that reach and the
 * kernel's reserve, rounded up to a power of two (kstack_patch.c tests
 * %rsp's bits); one that would ask for more than half the stack asks for
 * all of it, and always traps.  An entry point must fit the stack with
 * the reserve: where one does not, the deepest functions that do not fit
 * on their own are checked too (they can never run in ring 0 at that
 * depth: their check always traps), and again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/kstack_parts.h"
#include "object/x86insn.h"

/* The graph: nodes 0 .. nfns - 1, and nfns, calls through pointers. */
struct graph {
	struct cbench_kstack *ks;
	uint32_t *taken;		/* the taken functions' indices */
	uint32_t ntaken;
	uint32_t *order;		/* Tarjan's emission: sinks first */
	uint32_t norder;
	int32_t *scc, *low, *index;	/* per node */
	bool *on_stack;
	uint32_t *stack, *frames, *next_succ;
	uint64_t *reach;		/* per node: kstack_parts.h's deepest */
	bool *reached;
	uint32_t *parent;
	bool cut;			/* edges into checked functions are dropped */
};

static int compare_u64_graph(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t nodes(const struct graph *g)
{
	return g->ks->nfns + 1;
}

/* The k-th successor of node n, or UINT32_MAX past the last. */
static uint32_t succ(const struct graph *g, uint32_t n, uint32_t k)
{
	const struct cbench_kstack *ks = g->ks;
	uint32_t to;

	for (;; k++) {
		if (n == ks->nfns) {
			if (k >= g->ntaken)
				return UINT32_MAX;
			to = g->taken[k];
		} else {
			if (k >= ks->fns[n].nsites)
				return UINT32_MAX;
			to = ks->fns[n].sites[k].target;
			to = to == KSTACK_INDIRECT ? ks->nfns : to;
		}
		if (!g->cut || to == ks->nfns || !ks->fns[to].checked)
			return to;
	}
}

/* Whether node n is out of the graph: a checked function, when cycles are sought. */
static bool out(const struct graph *g, uint32_t n)
{
	return !g->cut && n < g->ks->nfns && g->ks->fns[n].checked;
}

/* Tarjan's strongly connected components, without recursion, from node root. */
static void strong_from(struct graph *g, uint32_t root, int32_t *counter, int32_t *sccs)
{
	uint32_t depth = 0, top = 0;

	g->frames[depth++] = root;
	g->next_succ[root] = 0;
	g->index[root] = g->low[root] = (*counter)++;
	g->stack[top++] = root;
	g->on_stack[root] = true;
	while (depth) {
		uint32_t n = g->frames[depth - 1], to = succ(g, n, g->next_succ[n]);

		if (to != UINT32_MAX) {
			g->next_succ[n]++;
			if (out(g, to))
				continue;
			if (g->index[to] < 0) {
				g->index[to] = g->low[to] = (*counter)++;
				g->next_succ[to] = 0;
				g->stack[top++] = to;
				g->on_stack[to] = true;
				g->frames[depth++] = to;
			} else if (g->on_stack[to] && g->index[to] < g->low[n]) {
				g->low[n] = g->index[to];
			}
			continue;
		}
		depth--;
		if (depth && g->low[n] < g->low[g->frames[depth - 1]])
			g->low[g->frames[depth - 1]] = g->low[n];
		if (g->low[n] != g->index[n])
			continue;
		for (uint32_t m;;) {
			m = g->stack[--top];
			g->on_stack[m] = false;
			g->scc[m] = *sccs;
			g->order[g->norder++] = m;
			if (m == n)
				break;
		}
		(*sccs)++;
	}
}

static void strong(struct graph *g)
{
	int32_t counter = 0, sccs = 0;

	g->norder = 0;
	for (uint32_t n = 0; n < nodes(g); n++) {
		g->index[n] = -1;
		g->on_stack[n] = false;
	}
	for (uint32_t n = 0; n < nodes(g); n++)
		if (g->index[n] < 0 && !out(g, n))
			strong_from(g, n, &counter, &sccs);
}

/* Whether node n is on a cycle (of the graph without checked functions). */
static bool cyclic(const struct graph *g, uint32_t n)
{
	for (uint32_t k = 0, to; (to = succ(g, n, k)) != UINT32_MAX; k++)
		if (!out(g, to) && g->scc[to] == g->scc[n])
			return true;
	return false;
}

const char *cbench_kstack_name(const struct cbench_kstack *ks, const struct cbench_kstack_fn *fn,
			       char *buf, size_t bytes)
{
	if (fn->name[0])
		snprintf(buf, bytes, "%s", fn->name);
	else
		snprintf(buf, bytes, "the function at 0x%" PRIx64, ks->base + fn->at);
	return buf;
}

static void node_name(const struct graph *g, uint32_t n, char *buf, size_t bytes)
{
	if (n == g->ks->nfns)
		snprintf(buf, bytes, "(a call through a pointer)");
	else
		cbench_kstack_name(g->ks, &g->ks->fns[n], buf, bytes);
}

/* "a -> b -> c" for the path to n in g->parent, into buf. */
static void path_to(const struct graph *g, uint32_t n, char *buf, size_t bytes)
{
	uint32_t hops[16], nhops = 0;
	size_t used = 0;

	for (uint32_t m = n; m != UINT32_MAX && nhops < 16; m = g->parent[m])
		hops[nhops++] = m;
	buf[0] = '\0';
	while (nhops-- && used < bytes) {
		char name[80];
		int w;

		node_name(g, hops[nhops], name, sizeof(name));
		w = snprintf(buf + used, bytes - used, "%s%s", used ? " -> " : "", name);
		used += w > 0 ? (size_t)w : 0;
	}
}

/* Breadth first from the nodes of from[] (parents kept), within scc if scc >= 0. */
static void reach(struct graph *g, const uint32_t *from, uint32_t nfrom, int32_t scc)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t n = 0; n < nodes(g); n++) {
		g->reached[n] = false;
		g->parent[n] = UINT32_MAX;
	}
	for (uint32_t i = 0; i < nfrom; i++) {
		if (g->reached[from[i]])
			continue;
		g->reached[from[i]] = true;
		g->stack[tail++] = from[i];
	}
	while (head < tail) {
		uint32_t n = g->stack[head++];

		for (uint32_t k = 0, to; (to = succ(g, n, k)) != UINT32_MAX; k++) {
			if (g->reached[to] || (scc >= 0 && (out(g, to) || g->scc[to] != scc)))
				continue;
			g->reached[to] = true;
			g->parent[to] = n;
			g->stack[tail++] = to;
		}
	}
}

/* A cycle through n, "n -> ... -> n", into buf. */
static void cycle_of(struct graph *g, uint32_t n, char *buf, size_t bytes)
{
	char name[80], rest[200];

	node_name(g, n, name, sizeof(name));
	/* From n's successors in its component back to n. */
	for (uint32_t k = 0, to; (to = succ(g, n, k)) != UINT32_MAX; k++) {
		if (out(g, to) || g->scc[to] != g->scc[n])
			continue;
		if (to == n) {
			snprintf(buf, bytes, "%s -> %s", name, name);
			return;
		}
		reach(g, &to, 1, g->scc[n]);
		if (!g->reached[n])
			continue;
		path_to(g, n, rest, sizeof(rest));
		snprintf(buf, bytes, "%.60s -> %.130s", name, rest);
		return;
	}
	snprintf(buf, bytes, "%s, on a cycle", name);
}

/* Which function of a cycle's component to check: 0 best. */
static int rank(const struct graph *g, uint32_t n)
{
	const struct cbench_kstack_fn *f = &g->ks->fns[n];

	if (!f->patchable)
		return 9;
	if (f->entry)
		return 0;
	return f->name[0] ? 1 : 2;
}

/* Notes why the functions of n's component cannot be checked. */
static void uncheckable(struct graph *g, uint32_t n)
{
	char cycle[200];

	cycle_of(g, n, cycle, sizeof(cycle));
	for (uint32_t m = 0; m < g->ks->nfns; m++) {
		struct cbench_kstack_fn *f = &g->ks->fns[m];

		if (g->scc[m] != g->scc[n] || f->failed)
			continue;
		f->failed = true;
		snprintf(f->why, sizeof(f->why), "recurses (%.150s), and none of its functions has room for "
			 "a stack check at its entry (five bytes of instructions no branch lands in)",
			 cycle);
	}
}

/* Checks one function of every component with a cycle; false when none has one. */
static bool break_cycles(struct graph *g, char (*paths)[200])
{
	struct cbench_kstack *ks = g->ks;
	bool more = false;

	strong(g);
	for (uint32_t i = 0; i < g->norder; i++) {
		uint32_t best = UINT32_MAX, n = g->order[i];
		int32_t scc = g->scc[n];

		/* The component's members follow n in order; take its first once. */
		if (i && g->scc[g->order[i - 1]] == scc)
			continue;
		for (uint32_t j = i; j < g->norder && g->scc[g->order[j]] == scc; j++) {
			uint32_t m = g->order[j];

			if (m == ks->nfns || ks->fns[m].failed || !cyclic(g, m))
				continue;
			if (best == UINT32_MAX || rank(g, m) < rank(g, best))
				best = m;
		}
		if (best == UINT32_MAX)
			continue;
		more = true;
		if (rank(g, best) == 9) {
			uncheckable(g, best);
			continue;
		}
		cycle_of(g, best, paths[best], sizeof(paths[best]));
		ks->fns[best].reason = CBENCH_KSTACK_CYCLE;
		ks->fns[best].checked = true;
	}
	return more;
}

static uint64_t add(uint64_t a, uint64_t b)
{
	return a + b > KSTACK_INFINITE ? KSTACK_INFINITE : a + b;
}

/* What a site's target adds below it: 0 for a checked function. */
static uint64_t beyond(const struct graph *g, uint32_t to)
{
	if (to == KSTACK_INDIRECT)
		return g->reach[g->ks->nfns];
	return g->ks->fns[to].checked ? 0 : g->reach[to];
}

/* Each function's reach to the next check or its end (the graph cut at checks is acyclic). */
static void reaches(struct graph *g)
{
	struct cbench_kstack *ks = g->ks;

	g->cut = true;
	strong(g);
	for (uint32_t i = 0; i < g->norder; i++) {
		uint32_t n = g->order[i];
		uint64_t most = 0;

		if (n == ks->nfns) {
			for (uint32_t k = 0; k < g->ntaken; k++)
				if (beyond(g, g->taken[k]) > most)
					most = beyond(g, g->taken[k]);
		} else {
			const struct cbench_kstack_fn *f = &ks->fns[n];

			most = add(f->frame, KSTACK_RED_ZONE);
			for (uint32_t k = 0; k < f->nsites; k++) {
				const struct cbench_kstack_site *s = &f->sites[k];
				uint64_t d = add(add(s->depth, s->call ? 8 : 0), beyond(g, s->target));

				most = d > most ? d : most;
			}
			ks->fns[n].deepest = most;
		}
		g->reach[n] = most;
	}
	g->cut = false;
}

uint32_t cbench_kstack_log2(const struct cbench_kstack_limits *limits, uint64_t need_bytes)
{
	uint32_t stack = 0, k = 0;

	while (stack < 63 && (1ULL << stack) < limits->stack_bytes)
		stack++;
	while (k < 63 && (1ULL << k) < need_bytes)
		k++;
	return k < stack ? k : stack;
}

/* The benchmarks' entry points, into g->stack's tail (from + n); their count. */
static uint32_t entries(const struct graph *g, uint32_t *from)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < g->ks->nfns; i++)
		if (g->ks->fns[i].entry)
			from[n++] = i;
	return n;
}

/*
 * Checks the functions an entry point reaches that need more than the
 * stack has below an entry (with the reserve), and of which no unchecked
 * callee does: false when there is none.
 */
static bool deep_ones(struct graph *g, uint32_t *from, char (*paths)[200])
{
	struct cbench_kstack *ks = g->ks;
	uint64_t room = ks->limits.stack_bytes - 8, reserve = ks->limits.reserve_bytes;
	uint32_t nfrom = entries(g, from);
	bool more = false;

	reach(g, from, nfrom, -1);
	for (uint32_t n = 0; n < ks->nfns; n++) {
		struct cbench_kstack_fn *f = &ks->fns[n];
		bool deepest = true;

		if (!g->reached[n] || f->checked || f->failed || add(f->deepest, reserve) <= room)
			continue;
		for (uint32_t k = 0, to; (to = succ(g, n, k)) != UINT32_MAX && deepest; k++) {
			if (to == ks->nfns)
				deepest = add(g->reach[to], reserve) <= room;
			else
				deepest = ks->fns[to].checked || add(ks->fns[to].deepest, reserve) <= room;
		}
		if (!deepest)
			continue;
		more = true;
		if (!f->patchable) {
			f->failed = true;
			snprintf(f->why, sizeof(f->why), "needs %" PRIu64 " KiB of stack, more than ring 0 "
				 "gives (%" PRIu64 " KiB, of which the kernel keeps %" PRIu64 " KiB), and has "
				 "no room for a check at its entry", f->deepest >> 10,
				 ks->limits.stack_bytes >> 10, reserve >> 10);
			continue;
		}
		snprintf(paths[n], sizeof(paths[n]), "needs %" PRIu64 " KiB before any check",
			 (f->deepest + 1023) >> 10);
		f->reason = CBENCH_KSTACK_DEEP;
		f->checked = true;
	}
	return more;
}

static int compare_check(const void *a, const void *b)
{
	const struct cbench_kstack_check *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* ks->checks from the checked functions. */
static int list_checks(struct cbench_kstack *ks, char (*paths)[200])
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ks->nfns; i++)
		n += ks->fns[i].checked;
	ks->checks = calloc(n + 1, sizeof(*ks->checks));
	if (!ks->checks)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->nfns; i++) {
		const struct cbench_kstack_fn *f = &ks->fns[i];
		struct cbench_kstack_check *c = &ks->checks[ks->nchecks];

		if (!f->checked)
			continue;
		c->at = f->at;
		c->patch_at = f->at + f->patch_skip;
		c->patch_bytes = f->patch_bytes;
		c->need_bytes = add(f->deepest, ks->limits.reserve_bytes);
		c->log2 = cbench_kstack_log2(&ks->limits, c->need_bytes);
		c->reason = f->reason;
		cbench_kstack_name(ks, f, c->name, sizeof(c->name));
		snprintf(c->path, sizeof(c->path), "%s", paths[i]);
		ks->nchecks++;
	}
	qsort(ks->checks, ks->nchecks, sizeof(*ks->checks), compare_check);
	for (uint32_t i = 0; i < ks->nchecks; i++)
		for (uint32_t j = 0; j < ks->nfns; j++)
			if (ks->fns[j].checked && ks->fns[j].at == ks->checks[i].at)
				ks->fns[j].check = i;
	return 0;
}

static void graph_free(struct graph *g)
{
	free(g->taken);
	free(g->order);
	free(g->scc);
	free(g->low);
	free(g->index);
	free(g->on_stack);
	free(g->stack);
	free(g->frames);
	free(g->next_succ);
	free(g->reach);
	free(g->reached);
	free(g->parent);
}

static int graph_new(struct graph *g, struct cbench_kstack *ks)
{
	size_t n = ks->nfns + 1;

	memset(g, 0, sizeof(*g));
	g->ks = ks;
	g->taken = calloc(n, sizeof(*g->taken));
	g->order = calloc(n, sizeof(*g->order));
	g->scc = calloc(n, sizeof(*g->scc));
	g->low = calloc(n, sizeof(*g->low));
	g->index = calloc(n, sizeof(*g->index));
	g->on_stack = calloc(n, sizeof(*g->on_stack));
	g->stack = calloc(n, sizeof(*g->stack));
	g->frames = calloc(n, sizeof(*g->frames));
	g->next_succ = calloc(n, sizeof(*g->next_succ));
	g->reach = calloc(n, sizeof(*g->reach));
	g->reached = calloc(n, sizeof(*g->reached));
	g->parent = calloc(n, sizeof(*g->parent));
	if (!g->taken || !g->order || !g->scc || !g->low || !g->index || !g->on_stack || !g->stack ||
	    !g->frames || !g->next_succ || !g->reach || !g->reached || !g->parent) {
		graph_free(g);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < ks->nfns; i++)
		if (ks->fns[i].taken)
			g->taken[g->ntaken++] = i;
	return 0;
}

/* Branch targets and every function's entry, by offset, into *all. */
static int all_targets(const struct cbench_kstack *ks, const uint64_t *targets, uint32_t ntargets,
		       uint64_t **all, uint32_t *nall)
{
	*all = malloc((ntargets + ks->nfns + 1) * sizeof(**all));
	if (!*all)
		return -ENOMEM;
	memcpy(*all, targets, ntargets * sizeof(*targets));
	for (uint32_t i = 0; i < ks->nfns; i++)
		(*all)[ntargets + i] = ks->fns[i].at;
	*nall = ntargets + ks->nfns;
	qsort(*all, *nall, sizeof(**all), compare_u64_graph);
	return 0;
}

int cbench_kstack_place(struct cbench_kstack *ks, const struct cbench_kimage *image,
			const uint64_t *targets, uint32_t ntargets)
{
	char (*paths)[200] = calloc(ks->nfns + 1, sizeof(*paths));
	uint32_t *from = calloc(ks->nfns + 1, sizeof(*from)), nall = 0;
	uint64_t *all = NULL;
	struct graph g;
	int ret = graph_new(&g, ks);

	if (!ret && (!paths || !from))
		ret = -ENOMEM;
	ret = ret ? ret : all_targets(ks, targets, ntargets, &all, &nall);
	for (uint32_t i = 0; !ret && i < ks->nfns; i++) {
		struct cbench_kstack_fn *f = &ks->fns[i];

		f->patch_skip = cbench_kstack_endbr(image, f->at) ? 4 : 0;
		f->patch_bytes = cbench_kstack_movable(image, f->at + f->patch_skip, all, nall);
		f->patchable = f->patch_bytes > 0;
	}
	if (!ret) {
		while (break_cycles(&g, paths))
			;
		reaches(&g);
		while (deep_ones(&g, from, paths))
			reaches(&g);
		ret = list_checks(ks, paths);
	}
	if (ret == -ENOMEM || !g.ks)
		ret = -ENOMEM;
	graph_free(&g);
	free(paths);
	free(from);
	free(all);
	return ret;
}

int cbench_kstack_verdict(const struct cbench_kstack *ks, const struct cbench_kimage_entry *entry,
			  const char *path, uint32_t *checks, const struct cbench_kstack_check **first,
			  char *why, size_t why_bytes)
{
	uint64_t at[] = { entry->run, entry->setup, entry->before_rep, entry->after_rep };
	bool has[] = { true, entry->has_setup, entry->has_before_rep, entry->has_after_rep };
	uint32_t from[4], nfrom = 0;
	struct graph g;
	int ret = graph_new(&g, (struct cbench_kstack *)ks);

	*checks = 0;
	if (first)
		*first = NULL;
	if (ret)
		return ret;
	for (size_t i = 0; i < 4; i++)
		for (uint32_t j = 0; has[i] && j < ks->nfns; j++)
			if (ks->fns[j].at == at[i])
				from[nfrom++] = j;
	reach(&g, from, nfrom, -1);
	for (uint32_t n = 0; n < ks->nfns; n++) {
		char trail[300];

		if (!g.reached[n])
			continue;
		*checks += ks->fns[n].checked;
		if (first && !*first && ks->fns[n].checked)
			*first = &ks->checks[ks->fns[n].check];
		if (!ks->fns[n].failed || ret)
			continue;
		path_to(&g, n, trail, sizeof(trail));
		snprintf(why, why_bytes, "%s: %s calls %s, which %s: cbench cannot bound its stack in "
			 "ring 0; change it, or measure it with --backend user", path, entry->name, trail,
			 ks->fns[n].why);
		ret = -EINVAL;
	}
	graph_free(&g);
	return ret;
}
