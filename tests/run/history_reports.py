#!/usr/bin/env python3
# Made-up run reports for history's tests and bench/changepoints.sh: a real
# report of tests/fixtures/history.c (TEMPLATE) turned into a run of
# benchmarks NAMES (Go names, "BenchmarkHash/len=64"), each at level
# BASE * factor with noise of NOISE (relative sd between runs) and trials
# 0.1 % apart, dated by DATE (a second of 2026-01-01), sealed with the
# digest cbenchctl writes (user/report/digest.h).  Nothing is measured, so
# nothing depends on the host's speed.
#
#   history_reports.py TEMPLATE OUT.json DATE SEED NOISE NAME=FACTOR...
import copy
import hashlib
import json
import random
import sys


def seal(doc):
    text = json.dumps(doc, separators=(",", ":"))
    body = text[:-1]
    return body + ',"digest":"sha256:%s"}\n' % hashlib.sha256(body.encode()).hexdigest()


def main():
    template, out, date, seed, noise = sys.argv[1:6]
    rng = random.Random(int(seed))
    doc = json.load(open(template))
    doc.pop("digest", None)
    doc["config"]["date"] = "2026-01-01T%02d:%02d:%02dZ" % (int(date) // 3600, int(date) // 60 % 60,
                                                           int(date) % 60)
    # Each a run of its own: the store tells runs apart by their run_id.
    doc["config"]["run_id"] = hashlib.sha256(("%s %s" % (date, seed)).encode()).hexdigest()[:32]
    proto = doc["benchmarks"][0]
    doc["benchmarks"] = []
    for spec in sys.argv[6:]:
        name, factor = spec.rsplit("=", 1)
        b = copy.deepcopy(proto)
        level = 100 * float(factor) * (1 + rng.gauss(0, float(noise)))
        b["name"] = name
        b["id"] = name[len("Benchmark"):].lower()
        # The headlines from the trials below (ns_per_op is required: null).
        for k in ("quote_ns_per_op", "est_cycles_per_op"):
            b.pop(k, None)
        b["ns_per_op"] = None
        for t in b["trials"]:
            v = level * (1 + rng.gauss(0, 0.001))
            t["status"] = "ok"
            t["ns_per_op"] = v
            t["est_cycles_per_op"] = v * 3
        doc["benchmarks"].append(b)
    open(out, "w").write(seal(doc))


if __name__ == "__main__":
    main()
