# SPDX-License-Identifier: GPL-2.0
"""Reads runs back from an LNT instance through LNT's own code.

    lnt_query.py INSTANCE

Prints, for each run of the "cbench" suite, "run ORDER TEST METRIC N" per
test and metric (N samples); then, for the last run against the one
before, "compare TEST METRIC STATUS PCT" with LNT's verdict (its
get_run_comparison_result: REGRESSED, IMPROVED, UNCHANGED_PASS...).
"""
import sys

import lnt.server.instance
from lnt.server.reporting.analysis import RunInfo


def main():
    instance = lnt.server.instance.Instance.frompath(sys.argv[1])
    db = instance.get_database("default")
    session = db.make_session()
    ts = db.testsuite["cbench"]
    runs = session.query(ts.Run).order_by(ts.Run.id).all()
    fields = list(ts.Sample.get_metric_fields())
    for run in runs:
        for test in session.query(ts.Test).order_by(ts.Test.name).all():
            samples = session.query(ts.Sample).filter(ts.Sample.run_id == run.id,
                                                      ts.Sample.test_id == test.id).all()
            for field in fields:
                n = sum(1 for s in samples if s.get_field(field) is not None)
                if n:
                    print("run", run.order.llvm_project_revision, test.name, field.name, n)
    if len(runs) < 2:
        return
    info = RunInfo(session, ts, [r.id for r in runs])
    hash_field = ts.Sample.get_hash_of_binary_field()
    for test in session.query(ts.Test).order_by(ts.Test.name).all():
        for field in fields:
            cr = info.get_run_comparison_result(runs[-1], runs[-2], test.id, field, hash_field)
            if cr.current is None:
                continue
            print("compare", test.name, field.name, cr.get_value_status(),
                  "%.4f" % (cr.pct_delta or 0.0))


main()
