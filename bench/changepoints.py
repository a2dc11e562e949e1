#!/usr/bin/env python3
# bench/changepoints.sh's synthetic series: each shape at each length,
# seeded, through history's detector (bench/changepoints.c) and Apache
# Otava's (its compute_change_points() with `otava analyze`'s defaults:
# window 50, max p 0.001, no smallest magnitude); found, missed and false
# change points per shape and length for both.
#
#   python3 bench/changepoints.py DRIVER OTAVA_PYTHON [REPEATS]
#   OTAVA_PYTHON bench/changepoints.py --otava <series   (one a line)
import math
import random
import subprocess
import sys

SIGMA = 0.005          # noise between runs: 0.5 % (sd of the logs)
SIZE = 5 * SIGMA       # a step: five times that (+2.5 %)
LENGTHS = (8, 30, 200, 2000)


def otava_main():
    from otava.analysis import compute_change_points
    for line in sys.stdin:
        ys = [float(t.split("/")[0]) for t in line.split()]
        cps, _ = compute_change_points(ys, window_len=50, max_pvalue=0.001, min_magnitude=0.0)
        print(" ".join(str(c.index) for c in cps))


def shapes(n):
    """(name, true change indices, level of run i as a log, noisy runs) per shape at length n."""
    bump = min(20, max(2, n // 3))
    third = n // 3
    yield "A/A", [], lambda i: 0.0, False
    yield "step (middle)", [n // 2], lambda i: SIZE * (i >= n // 2), False
    yield "step at run 3", [2], lambda i: SIZE * (i >= 2), False
    yield "step at the 2nd last", [n - 2], lambda i: SIZE * (i >= n - 2), False
    yield "step at the last", [n - 1], lambda i: SIZE * (i >= n - 1), False
    yield "reverted after 1", [third, third + 1], lambda i: SIZE * (i == third), False
    yield "reverted after %s" % ("20" if bump == 20 else "%d" % bump), [third, third + bump], \
        lambda i: SIZE * (third <= i < third + bump), False
    yield "two steps in a row", [third, 2 * third], \
        lambda i: SIZE * ((i >= third) + (i >= 2 * third)), False
    yield "drift (no step)", [], lambda i: 4 * SIZE * i / (n - 1), False
    yield "step, noisy runs (u)", [n // 2], lambda i: SIZE * (i >= n // 2), True


def series(rng, n, level, noisy):
    """A series of n runs: values and their u; a fifth of the runs noisy
    (4 times the noise, and their u says so) where noisy."""
    out = []
    for i in range(n):
        u = SIGMA / 3
        sd = SIGMA
        if noisy and rng.random() < 0.2:
            sd, u = 4 * SIGMA, 4 * SIGMA
        out.append((1000 * math.exp(level(i) + rng.gauss(0, sd)), u))
    return out


def score(truth, found):
    """found, missed, false: a true change matched by one found within 1 run."""
    left = list(found)
    hit = 0
    for t in truth:
        near = [f for f in left if abs(f - t) <= 1]
        if near:
            left.remove(min(near, key=lambda f: abs(f - t)))
            hit += 1
    return hit, len(truth) - hit, len(left)


def run(cmd, lines):
    """Each series' change points, and the runs set aside as one run's
    excursion (the driver's "x" entries; Otava has none)."""
    p = subprocess.run(cmd, input="".join(lines), capture_output=True, text=True)
    if p.returncode:
        sys.exit("%s failed: %s" % (cmd[0], p.stderr))
    return [([int(x) for x in l.split() if x[0] != "x"], [int(x[1:]) for x in l.split() if x[0] == "x"])
            for l in p.stdout.splitlines()]


def alone(truth, aside):
    """Runs set aside: those that are a one-run change of the truth (a
    slowdown undone at the next run), and the others."""
    ones = {a for a, b in zip(truth, truth[1:]) if b == a + 1}
    return len(set(aside) & ones), len(set(aside) - ones)


def main():
    driver, otava, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rows, ours_lines, otava_lines = [], [], []
    rng = random.Random(41)
    for n in LENGTHS:
        for name, truth, level, noisy in shapes(n):
            count = 100 if name == "A/A" and n == 30 else repeats
            for _ in range(count):
                s = series(rng, n, level, noisy)
                rows.append((name, n, truth))
                ours_lines.append(" ".join("%.9g/%.6g" % (v, u) for v, u in s) + "\n")
                otava_lines.append(" ".join("%.9g" % v for v, _ in s) + "\n")
    ours = run([driver], ours_lines)
    theirs = run([otava, __file__, "--otava"], otava_lines)
    table = {}
    for (name, n, truth), (a, xa), (b, _) in zip(rows, ours, theirs):
        t = table.setdefault((name, n), [0] * 11)
        for k, v in enumerate(score(truth, a) + score(truth, b)):
            t[k] += v
        t[6] += 1
        t[7] += bool(a) if not truth else 0
        t[8] += bool(b) if not truth else 0
        right, other = alone(truth, xa)
        t[9] += right
        t[10] += other
    print("changepoints: synthetic series, noise %.1f %% between runs, steps of %.1f %% (%d sigma);"
          " %d series a shape and length (100 A/A series of 30)" % (100 * SIGMA, 100 * SIZE, SIZE / SIGMA,
                                                                   repeats))
    print("  %-26s %6s %7s | %-24s | %-17s | %-24s" % ("shape", "runs", "series", "cbench: found missed false",
                                                     "one run: it other", "Otava: found missed false"))
    for (name, n), t in table.items():
        print("  %-26s %6d %7d | %8d %7d %7d | %12d %4d | %8d %7d %7d" % (name, n, t[6], *t[:3], t[9], t[10],
                                                                       *t[3:6]))
    for n in LENGTHS:
        tot = [sum(t[k] for (name, m), t in table.items() if m == n) for k in range(11)]
        print("  %-26s %6d %7s | %8d %7d %7d | %12d %4d | %8d %7d %7d" % ("all shapes", n, "", *tot[:3], tot[9],
                                                                        tot[10], *tot[3:6]))


if __name__ == "__main__":
    otava_main() if sys.argv[1:] == ["--otava"] else main()
