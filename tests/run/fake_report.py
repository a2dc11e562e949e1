"""A run report around hand-made benchmarks, for tests that draw or compare
figures no run would give: what docs/schema/run.schema.json requires of
every report of schema 2 (its head, each benchmark's and trial's members),
filled in where the test leaves it out.  Readers refuse a report that
lacks a required member (user/results/report_check.c)."""

CONFIG = {
    "cpu": "Test CPU", "cpu_model": "GenuineIntel family 6 model 1", "cpu_count": 2,
    "machine": "lab1", "virtual_machine": False, "kernel": "6.1", "cbench_version": "x",
    "backend": "user", "timer": "tsc", "timer_hz": 2.3e9, "timer_overhead_ticks": 34,
    "timer_step_ticks": 2, "counters": [], "date": "2026-01-01T00:00:00Z", "host": "lab1",
    "command": "cbenchctl run", "so": "/build/bench.so",
}

BENCHMARK = {"id": "", "tuning": "tuned", "instrument": "reps", "n": 1, "unstable": False,
             "placement_sensitive": False, "quote": "median_of_trials", "failed_trials": 0,
             "trials": []}

TRIAL = {"n": 1, "iterations": 1, "measurements": 1, "discarded": 0}


def trial(t):
    if t.get("status") == "failed":
        return dict({"reason": "failed"}, **t)
    return dict(TRIAL, **dict({"status": "ok", "ns_per_op": None}, **t))


def benchmark(b):
    out = dict(BENCHMARK, **b)
    out.setdefault("ns_per_op", None)
    if "name" in out and not out["id"]:
        out["id"] = out["name"][len("Benchmark"):].lower()
    out["trials"] = [trial(t) for t in out["trials"]]
    return out


def report(benchmarks, **config):
    """A report of schema 2 of these benchmarks, its head CONFIG with config's changes."""
    return {"schema_version": 2, "config": dict(CONFIG, **config),
            "benchmarks": [benchmark(b) for b in benchmarks]}
