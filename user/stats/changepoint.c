// SPDX-License-Identifier: GPL-2.0
/* Change points: E-Divisive means with a weighted t test; see changepoint.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/stats.h"

/* The median of the positive finite values of v; NAN if none. */
static double median_known(const double *v, size_t n)
{
	double *known = malloc((n + 1) * sizeof(*known)), m;
	size_t k = 0;

	if (!known)
		return NAN;
	for (size_t i = 0; v && i < n; i++) {
		if (isfinite(v[i]) && v[i] > 0)
			known[k++] = v[i];
	}
	m = k ? cbench_stats_median(known, k) : NAN;
	free(known);
	return m;
}

double cbench_cp_spread(const double *y, size_t n)
{
	double *d, med, mad;

	if (n < 3)
		return NAN;
	d = malloc((n - 1) * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = y[i + 1] - y[i];
	med = cbench_stats_median(d, n - 1);
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(d[i] - med);
	mad = cbench_stats_median(d, n - 1);
	free(d);
	/* A difference of two points has twice a point's variance. */
	return 1.4826 * mad / sqrt(2);
}

/* tau^2 from the successive differences; see cbench_cp_weights(). */
static double between_var(const double *y, size_t n, double typical_u)
{
	double sd = cbench_cp_spread(y, n);

	/* Each point's own u^2 is in a point's variance too. */
	return isfinite(sd) ? fmax(0, sd * sd - typical_u * typical_u) : 0;
}

double cbench_cp_weights(const double *y, const double *u, size_t n, double *w)
{
	double typical = median_known(u, n), floor_u, tau2;

	if (isnan(typical))
		typical = CBENCH_CP_U_MIN;
	floor_u = fmax(CBENCH_CP_U_MIN, typical / sqrt(CBENCH_CP_WEIGHT_RATIO));
	tau2 = between_var(y, n, typical);
	for (size_t i = 0; i < n; i++) {
		double ui = u && isfinite(u[i]) && u[i] > 0 ? u[i] : typical;

		ui = fmax(ui, floor_u);
		w[i] = 1 / (tau2 + ui * ui);
	}
	return tau2;
}

/*
 * Sums of |y_r - y_s| over blocks of [a, c), by 2-D prefix sums:
 * s[i * m + j] is the sum over r < i, s < j (local indices), m = c - a + 1.
 */
static double block(const double *s, size_t m, size_t r0, size_t r1, size_t c0, size_t c1)
{
	return s[r1 * m + c1] - s[r0 * m + c1] - s[r1 * m + c0] + s[r0 * m + c0];
}

/*
 * Matteson and James's Q-hat of X = [a, tau) against Y = [tau, kappa) in
 * local indices x0 = 0, t, k: with n = |X|, m = |Y|,
 *	2/(n+m) sum|X-Y| - 2m/((n+m)(n-1)) sum_{i<j}|X_i-X_j|
 *			 - 2n/((n+m)(m-1)) sum_{i<j}|Y_i-Y_j|,
 * a within-side term dropped for a side of one point.
 */
static double qhat(const double *s, size_t m, size_t t, size_t k)
{
	double n_x = (double)t, n_y = (double)(k - t), q;

	q = 2 / (n_x + n_y) * block(s, m, 0, t, t, k);
	if (t > 1)
		q -= 2 * n_y / ((n_x + n_y) * (n_x - 1)) * block(s, m, 0, t, 0, t) / 2;
	if (k - t > 1)
		q -= 2 * n_x / ((n_x + n_y) * (n_y - 1)) * block(s, m, t, k, t, k) / 2;
	return q;
}

size_t cbench_cp_candidate(const double *y, size_t a, size_t c, double *q_out)
{
	size_t len = c - a, m = len + 1, best = 0;
	double *s, best_q = -INFINITY;

	if (c < a + 2)
		return 0;
	s = calloc(m * m, sizeof(*s));
	if (!s)
		return 0;
	for (size_t i = 1; i <= len; i++) {
		for (size_t j = 1; j <= len; j++)
			s[i * m + j] = fabs(y[a + i - 1] - y[a + j - 1]) + s[(i - 1) * m + j] +
				       s[i * m + j - 1] - s[(i - 1) * m + j - 1];
	}
	for (size_t t = 1; t < len; t++) {
		for (size_t k = t + 1; k <= len; k++) {
			double q = qhat(s, m, t, k);

			if (q > best_q) {
				best_q = q;
				best = a + t;
			}
		}
	}
	free(s);
	*q_out = best_q;
	return best;
}

/* Weighted sum, mean and residual sum of squares of y over [a, b). */
static void side(const double *y, const double *w, size_t a, size_t b, double *sum_w, double *mean,
		 double *rss)
{
	double sw = 0, swy = 0, r = 0;

	for (size_t i = a; i < b; i++) {
		sw += w[i];
		swy += w[i] * y[i];
	}
	*mean = swy / sw;
	for (size_t i = a; i < b; i++)
		r += w[i] * (y[i] - *mean) * (y[i] - *mean);
	*sum_w = sw;
	*rss = r;
}

void cbench_cp_test(const double *y, const double *w, size_t a, size_t b, size_t c,
		    double confidence, struct cbench_cp *cp)
{
	double w1, w2, rss1, rss2, d, se, q;

	memset(cp, 0, sizeof(*cp));
	cp->index = b;
	cp->last = b ? b - 1 : 0;
	cp->p = 1;
	cp->t = 0;
	cp->df = c >= a + 2 ? (double)(c - a - 2) : 0;
	cp->change = cp->lower = cp->upper = NAN;
	if (b <= a || c <= b)
		return;
	side(y, w, a, b, &w1, &cp->before, &rss1);
	side(y, w, b, c, &w2, &cp->after, &rss2);
	d = cp->after - cp->before;
	cp->change = expm1(d);
	if (cp->df < 1)
		return;
	se = sqrt((rss1 + rss2) / cp->df * (1 / w1 + 1 / w2));
	if (!(se > 0)) {
		/* Both sides constant: equal, or as different as can be. */
		cp->p = d == 0 ? 1 : 0;
		cp->t = d == 0 ? 0 : copysign(INFINITY, d);
		cp->lower = cp->upper = cp->change;
		return;
	}
	cp->t = d / se;
	cp->p = 2 * cbench_stats_t_cdf(-fabs(cp->t), cp->df);
	q = cbench_stats_t_quantile(1 - (1 - confidence) / 2, cp->df);
	cp->lower = expm1(d - q * se);
	cp->upper = expm1(d + q * se);
}

/* A growing array of change points, kept in index order. */
struct cp_list {
	struct cbench_cp *v;
	size_t n, cap;
};

static int insert(struct cp_list *l, const struct cbench_cp *cp)
{
	size_t at = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].index == cp->index)
			return 0;
		at += l->v[i].index < cp->index;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct cbench_cp *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof(*l->v));
	l->v[at] = *cp;
	l->n++;
	return 0;
}

/*
 * The scale phi of the weighted model: y_i has variance phi / w_i.  From
 * the successive differences standardized by their model variance
 * (1/w_i + 1/w_{i+1}), 1.4826 times the median of their absolute values,
 * squared: a difference has mean 0 where no change lies between its runs,
 * and a step moves one difference, which the median ignores.  At least CBENCH_CP_PHI_MIN, so that a series
 * whose runs read alike still has a finite cost.
 */
static double scale(const double *y, const double *w, size_t n)
{
	double *d = malloc((n + 1) * sizeof(*d)), phi;

	if (!d || n < 3) {
		free(d);
		return 1;
	}
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(y[i + 1] - y[i]) / sqrt(1 / w[i] + 1 / w[i + 1]);
	phi = 1.4826 * cbench_stats_median(d, n - 1);
	free(d);
	return fmax(phi * phi, CBENCH_CP_PHI_MIN);
}

double cbench_cp_penalty(double max_p, size_t places)
{
	double lo = 0, hi = 40, tail = max_p / (double)(places ? places : 1);

	/* z with P(|Z| > z) = tail, by bisection on erfc (exact to the last bits). */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return lo * lo;
}

/* How many times the search may segment the series anew with the scale
 * its last segmentation left. */
#define CBENCH_CP_ROUNDS 4

/* Prefix sums of w, w y and w y^2: the cost of any segment in O(1). */
struct sums {
	double *w, *wy, *wyy;
};

/* The weighted residual sum of squares of [a, b), from the prefix sums. */
static double seg_cost(const struct sums *s, size_t a, size_t b)
{
	double sw = s->w[b] - s->w[a], swy = s->wy[b] - s->wy[a];

	return fmax(0, s->wyy[b] - s->wyy[a] - swy * swy / sw);
}

/*
 * Optimal partitioning with pruning (PELT, Killick, Fearnhead and Eckley):
 * the segmentation of [0, n) that minimizes the sum of its segments'
 * costs (weighted RSS over phi: twice the Gaussian negative log
 * likelihood) plus beta per change point, exactly; a start s is pruned
 * once F(s) + cost(s, t) exceeds F(t), which no later t can undo (adding
 * a change point never raises this cost).  Change points into l.
 */
static int pelt(const struct sums *s, size_t n, double phi, double beta, double newest,
		struct cp_list *l)
{
	double *f = malloc((n + 1) * sizeof(*f));
	size_t *prev = malloc((n + 1) * sizeof(*prev)), *r = malloc((n + 2) * sizeof(*r));
	size_t nr = 1;
	int ret = 0;

	if (!f || !prev || !r) {
		ret = -ENOMEM;
		goto out;
	}
	f[0] = -beta;
	r[0] = 0;
	for (size_t t = 1; t <= n; t++) {
		size_t keep = 0;

		f[t] = INFINITY;
		for (size_t k = 0; k < nr; k++) {
			/* The newest run alone is the one question asked
			 * without looking elsewhere (see cbench_cp_penalty()). */
			double pen = t == n && r[k] == n - 1 ? newest : beta;
			double v = f[r[k]] + seg_cost(s, r[k], t) / phi + pen;

			if (v < f[t]) {
				f[t] = v;
				prev[t] = r[k];
			}
		}
		for (size_t k = 0; k < nr; k++) {
			if (f[r[k]] + seg_cost(s, r[k], t) / phi <= f[t])
				r[keep++] = r[k];
		}
		r[keep++] = t;
		nr = keep;
	}
	for (size_t t = n; !ret && prev[t] > 0; t = prev[t]) {
		struct cbench_cp cp = { .index = prev[t], .last = prev[t] - 1 };

		ret = insert(l, &cp);
	}
out:
	free(f);
	free(prev);
	free(r);
	return ret;
}

/*
 * Whether a straight line explains [a, c) at least as well as the step at
 * b does (both two parameters, weighted): the two sides of a change point
 * placed on a slow drift, not a step.
 */
static bool ramp(const double *y, const double *w, size_t a, size_t b, size_t c)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, w1, w2, m1, m2, r1, r2;

	for (size_t i = a; i < c; i++) {
		double x = (double)(i - a);

		sw += w[i];
		sx += w[i] * x;
		sy += w[i] * y[i];
		sxx += w[i] * x * x;
		sxy += w[i] * x * y[i];
		syy += w[i] * y[i] * y[i];
	}
	sxx -= sx * sx / sw;
	sxy -= sx * sy / sw;
	syy -= sy * sy / sw;
	side(y, w, a, b, &w1, &m1, &r1);
	side(y, w, b, c, &w2, &m2, &r2);
	return sxx > 0 && syy - sxy * sxy / sxx <= r1 + r2;
}

/* The segment bounds around change point i of l within [lo, hi). */
static void bounds(const struct cp_list *l, size_t i, size_t lo, size_t hi, size_t *a, size_t *c)
{
	*a = i > 0 ? l->v[i - 1].index : lo;
	*c = i + 1 < l->n ? l->v[i + 1].index : hi;
}

/* Tests change point i of l against its neighbours' segments. */
static void retest(const double *y, const double *w, struct cp_list *l, size_t i, size_t lo,
		   size_t hi, double confidence)
{
	double q = l->v[i].qhat;
	size_t a, c;

	bounds(l, i, lo, hi, &a, &c);
	cbench_cp_test(y, w, a, l->v[i].index, c, confidence, &l->v[i]);
	l->v[i].qhat = q;
	l->v[i].ramp = ramp(y, w, a, l->v[i].index, c);
}

/*
 * E-Divisive within the window [lo, hi) (Otava's ChangePointDetector):
 * the best candidate over the intervals the accepted points leave, tested
 * on its interval's two sides; accepted while p <= max_p, into found.
 * *last is the last point the window found, 0 if none.
 */
static int divide(const double *y, const double *w, size_t lo, size_t hi, double max_p,
		  double confidence, struct cp_list *found, size_t *last)
{
	struct cp_list win = { 0 };
	int ret = 0;

	for (;;) {
		size_t best = 0, best_a = 0, best_c = 0;
		double best_q = -INFINITY;
		struct cbench_cp cp;

		for (size_t i = 0; i <= win.n; i++) {
			size_t a = i ? win.v[i - 1].index : lo, c = i < win.n ? win.v[i].index : hi;
			double q;
			size_t t = c >= a + 2 ? cbench_cp_candidate(y, a, c, &q) : 0;

			if (t && q > best_q) {
				best_q = q;
				best = t;
				best_a = a;
				best_c = c;
			}
		}
		if (!best)
			break;
		cbench_cp_test(y, w, best_a, best, best_c, confidence, &cp);
		cp.qhat = best_q;
		if (!(cp.p <= max_p))
			break;
		ret = insert(&win, &cp);
		if (ret)
			break;
	}
	*last = win.n ? win.v[win.n - 1].index : 0;
	for (size_t i = 0; !ret && i < win.n; i++)
		ret = insert(found, &win.v[i]);
	free(win.v);
	return ret;
}

/* Otava's split: overlapping windows, each searched at the weak threshold. */
static int split(const double *y, const double *w, size_t n, const struct cbench_cp_params *p,
		 double weak_p, struct cp_list *l)
{
	size_t step = p->window / 2, start = 0;

	while (start < n) {
		size_t end = start + p->window < n ? start + p->window : n, last;
		int ret = divide(y, w, start, end, weak_p, p->confidence, l, &last);

		if (ret)
			return ret;
		/* The next window starts at the last point this one found, or
		 * half a window on. */
		start = last > start + step ? last : start + step;
	}
	for (size_t i = 0; i < l->n; i++)
		retest(y, w, l, i, 0, n, p->confidence);
	return 0;
}

/* A change's size both ways, as Otava's change_magnitude(). */
static double magnitude(const struct cbench_cp *cp)
{
	return expm1(fabs(cp->after - cp->before));
}

/*
 * The weakest change point of l that fails, or l->n when every one
 * passes: the largest p above max_p; else, with ramps, the one whose two
 * sides a line explains as well (the least |t|); else the smallest change
 * at or under min_effect.
 */
static size_t weakest(const struct cp_list *l, const struct cbench_cp_params *p, bool ramps)
{
	size_t k = 0;

	for (size_t i = 1; i < l->n; i++) {
		if (l->v[i].p > l->v[k].p)
			k = i;
	}
	if (l->v[k].p > p->max_p)
		return k;
	k = l->n;
	for (size_t i = 0; ramps && i < l->n; i++) {
		if (l->v[i].ramp && (k == l->n || fabs(l->v[i].t) < fabs(l->v[k].t)))
			k = i;
	}
	if (k < l->n)
		return k;
	k = 0;
	for (size_t i = 1; i < l->n; i++) {
		if (magnitude(&l->v[i]) < magnitude(&l->v[k]))
			k = i;
	}
	return magnitude(&l->v[k]) > p->min_effect ? l->n : k;
}

/*
 * Otava's merge: while some point fails (weakest()), remove it and test
 * the others again against their new neighbours.
 */
static void merge(const double *y, const double *w, size_t n, const struct cbench_cp_params *p,
		  bool ramps, struct cp_list *l)
{
	while (l->n) {
		size_t k = weakest(l, p, ramps);

		if (k == l->n)
			return;
		memmove(&l->v[k], &l->v[k + 1], (l->n - k - 1) * sizeof(*l->v));
		l->n--;
		/* Otava retests the two points after the removed one; the one
		 * before it lost its right side too, so we retest every one. */
		for (size_t i = 0; i < l->n; i++)
			retest(y, w, l, i, 0, n, p->confidence);
	}
}

/*
 * Whether light point i tells its side: its log lies nearer `near`, the
 * level of the side it is on, than `far`, the other side's, by more than
 * its own spread can explain (the log likelihood ratio of the two sides,
 * at variance 1 / w[i], beyond z2 / 2).  A run of a 2 % spread tells the
 * side of a 50 % step, never of a 0.5 % one.
 */
static bool tells(const double *y, const double *w, size_t i, double near, double far, double z2)
{
	double dn = y[i] - near, df = y[i] - far;

	return (df * df - dn * dn) * w[i] > z2;
}

/* Whether some point of [a, b) weighs at least `light`. */
static bool heavy_in(const double *w, size_t a, size_t b, double light)
{
	for (size_t i = a; i < b; i++) {
		if (w[i] >= light)
			return true;
	}
	return false;
}

/*
 * Each change point moved past the light points next to it that do not
 * tell their side (see changepoint.h): its first point after onto the
 * first that weighs enough or tells it is after, its last point before
 * onto the last one that does so for before.  A light point tells its
 * side only against a level that runs which weigh enough set: a segment
 * of light runs alone (a noisy moment of the host over two runs) places
 * nothing.  Done in order, so that a point never crosses its right
 * neighbour; then each is tested again as its neighbours now stand.
 */
static void anchor(const double *y, const double *w, size_t n, double max_p, double confidence,
		   struct cp_list *l)
{
	double light = cbench_stats_median(w, n) / CBENCH_CP_WEIGHT_RATIO;
	double z2 = cbench_cp_penalty(max_p, 1);
	size_t a, c, b, last;

	if (!(light > 0))
		return;
	for (size_t i = 0; i < l->n; i++) {
		double before = l->v[i].before, after = l->v[i].after;
		bool firm_before, firm_after;

		bounds(l, i, 0, n, &a, &c);
		firm_before = heavy_in(w, a, l->v[i].index, light);
		firm_after = heavy_in(w, l->v[i].index, c, light);
		for (b = l->v[i].index; b + 1 < c && w[b] < light &&
					!(firm_after && tells(y, w, b, after, before, z2));
		     b++)
			;
		for (last = l->v[i].index - 1; last > a && w[last] < light &&
					       !(firm_before && tells(y, w, last, before, after, z2));
		     last--)
			;
		l->v[i].index = b;
		l->v[i].last = last;
	}
	for (size_t i = 0; i < l->n; i++) {
		last = l->v[i].last;
		retest(y, w, l, i, 0, n, confidence);
		l->v[i].last = last;
	}
}

/* The residual scale of segmentation l: its weighted RSS over the degrees of freedom left. */
static double residual_scale(const struct sums *s, size_t n, const struct cp_list *l)
{
	double rss = 0;
	size_t a = 0;

	for (size_t i = 0; i <= l->n; i++) {
		size_t b = i < l->n ? l->v[i].index : n;

		rss += seg_cost(s, a, b);
		a = b;
	}
	return n > l->n + 1 ? fmax(rss / (double)(n - l->n - 1), CBENCH_CP_PHI_MIN) : NAN;
}

/*
 * PELT from the robust scale phi, then again from the scale the
 * segmentation it found leaves, until the segmentation holds (a few
 * rounds at most): the median of the differences is robust to steps but
 * uses a third of the series' information, and where it came out low by
 * chance, noise would pass for a change; the residuals of the
 * segmentation use it all.
 */
static int segment(const struct sums *s, size_t n, double phi, double max_p, struct cp_list *l)
{
	double beta = cbench_cp_penalty(max_p, n - 1), newest = cbench_cp_penalty(max_p, 1);
	int ret = 0;

	for (int round = 0; !ret && round < CBENCH_CP_ROUNDS; round++) {
		size_t before = l->n;
		double next;

		l->n = 0;
		ret = pelt(s, n, phi, beta, newest, l);
		next = residual_scale(s, n, l);
		if (ret || !isfinite(next) || (round && l->n == before && fabs(next - phi) <= 1e-9 * phi))
			break;
		phi = next;
	}
	return ret;
}

/*
 * The search over the whole series: PELT at the penalty
 * CBENCH_CP_PENALTY log n, each change point then tested against its
 * neighbours' segments.
 */
static int search(const double *y, const double *w, size_t n, double max_p, double confidence,
		  struct cp_list *l)
{
	struct sums s = {
		.w = calloc(n + 1, sizeof(double)), .wy = calloc(n + 1, sizeof(double)),
		.wyy = calloc(n + 1, sizeof(double)),
	};
	int ret = -ENOMEM;

	if (s.w && s.wy && s.wyy) {
		for (size_t i = 0; i < n; i++) {
			s.w[i + 1] = s.w[i] + w[i];
			s.wy[i + 1] = s.wy[i] + w[i] * y[i];
			s.wyy[i + 1] = s.wyy[i] + w[i] * y[i] * y[i];
		}
		ret = segment(&s, n, scale(y, w, n), max_p, l);
	}
	for (size_t i = 0; !ret && i < l->n; i++)
		retest(y, w, l, i, 0, n, confidence);
	free(s.w);
	free(s.wy);
	free(s.wyy);
	return ret;
}

/* The search, its merge and its anchoring over y[0..n); into l. */
static int detect_once(const double *y, const double *u, size_t n, const struct cbench_cp_params *p,
		       struct cp_list *l)
{
	double *w = malloc((n + 1) * sizeof(*w)), weak_p;
	int ret;

	if (!w)
		return -ENOMEM;
	cbench_cp_weights(y, u, n, w);
	/* Otava's first pass: ten times max_p below 0.05, twice up to 0.5. */
	weak_p = p->max_p < 0.05 ? p->max_p * 10 : p->max_p < 0.5 ? p->max_p * 2 : p->max_p;
	ret = p->window ? split(y, w, n, p, weak_p, l) : search(y, w, n, p->max_p, p->confidence, l);
	if (!ret) {
		merge(y, w, n, p, !p->window, l);
		anchor(y, w, n, p->max_p, p->confidence, l);
	}
	free(w);
	return ret;
}

/*
 * Marks in lone[] the runs that l leaves alone in a segment of their own;
 * returns how many.  Only segments that end at a change point are looked
 * at, so the newest run, alone after the last, is never marked.
 */
static size_t lone_runs(const struct cp_list *l, bool *lone)
{
	size_t count = 0;

	for (size_t i = 0; i < l->n; i++) {
		size_t a = i ? l->v[i - 1].index : 0;

		if (l->v[i].index == a + 1) {
			lone[a] = true;
			count++;
		}
	}
	return count;
}

/* The level around run r: the median of the logs of the kept runs
 * (orig[] their places) in the segment of l that holds r's place. */
static double level_around(const double *y, const size_t *orig, size_t m, const struct cp_list *l,
			   size_t r)
{
	size_t a = 0, b = m;
	double *v = malloc((m + 1) * sizeof(*v)), level;

	if (!v)
		return NAN;
	for (size_t i = 0; i < l->n; i++) {
		if (orig[l->v[i].index] <= r)
			a = l->v[i].index;
		else if (b == m)
			b = l->v[i].index;
	}
	for (size_t i = a; i < b; i++)
		v[i - a] = y[orig[i]];
	level = b > a ? cbench_stats_median(v, b - a) : NAN;
	free(v);
	return level;
}

/*
 * The result into done, in index order: each run set aside (aside[]) as
 * an excursion against the level around it, and l's change points, found
 * over the m kept runs (orig[] their places), at their places in y.
 */
static int gather(const double *y, size_t n, const bool *aside, const size_t *orig, size_t m,
		  struct cp_list *l, struct cp_list *done)
{
	int ret = 0;

	for (size_t r = 0; r < n && !ret; r++) {
		struct cbench_cp x = { .index = r, .last = r ? r - 1 : 0, .excursion = true,
				       .p = NAN, .t = NAN, .df = NAN, .lower = NAN, .upper = NAN };

		if (!aside[r])
			continue;
		x.before = m ? level_around(y, orig, m, l, r) : NAN;
		x.after = y[r];
		x.change = expm1(x.after - x.before);
		ret = insert(done, &x);
	}
	for (size_t i = 0; i < l->n && !ret; i++) {
		l->v[i].index = orig[l->v[i].index];
		l->v[i].last = orig[l->v[i].last];
		ret = insert(done, &l->v[i]);
	}
	return ret;
}

/* How many times the runs left alone are set aside and the search run again. */
#define CBENCH_CP_LONE_ROUNDS 8

int cbench_cp_detect(const double *y, const double *u, size_t n, const struct cbench_cp_params *p,
		     struct cbench_cp **out, size_t *nout)
{
	struct cp_list l = { 0 }, done = { 0 };
	double *ys = NULL, *us = NULL;
	size_t *orig = NULL, m = n, count;
	bool *lone = NULL, *aside = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	*nout = 0;
	if ((p->window && (p->window < 4 || p->window > CBENCH_CP_WINDOW_MAX)) ||
	    !(p->max_p > 0 && p->max_p < 1) || !(p->min_effect >= 0) ||
	    !(p->confidence > 0 && p->confidence < 1))
		return -EINVAL;
	if (n < CBENCH_CP_MIN_POINTS)
		return 0;
	ys = malloc(n * sizeof(*ys));
	us = malloc(n * sizeof(*us));
	orig = malloc(n * sizeof(*orig));
	lone = calloc(n, sizeof(*lone));
	aside = calloc(n, sizeof(*aside));
	if (!ys || !us || !orig || !lone || !aside)
		goto out;
	/*
	 * Otava's windows as Otava has them; the whole series at once sets a
	 * run that its change points leave alone aside (one run read apart
	 * from the runs on both sides, or the first run from all after it)
	 * and searches the others again: one run cannot tell a change from a
	 * moment of the host, and a run of the same commit that agrees with it
	 * makes a segment of two.
	 */
	for (int round = 0;; round++) {
		m = 0;
		for (size_t i = 0; i < n; i++) {
			if (aside[i])
				continue;
			ys[m] = y[i];
			us[m] = u ? u[i] : NAN;
			orig[m++] = i;
		}
		l.n = 0;
		if (m < CBENCH_CP_MIN_POINTS)
			break;
		ret = detect_once(ys, us, m, p, &l);
		if (ret)
			goto out;
		memset(lone, 0, m * sizeof(*lone));
		/* Too few would be left to search: these change points stand. */
		if (p->window || round == CBENCH_CP_LONE_ROUNDS || !(count = lone_runs(&l, lone)) ||
		    m - count < CBENCH_CP_MIN_POINTS)
			break;
		for (size_t i = 0; i < m; i++)
			aside[orig[i]] |= lone[i];
	}
	ret = gather(y, n, aside, orig, m, &l, &done);
out:
	free(ys);
	free(us);
	free(orig);
	free(lone);
	free(aside);
	free(l.v);
	if (ret || !done.n) {
		free(done.v);
		return ret;
	}
	*out = done.v;
	*nout = done.n;
	return 0;
}
