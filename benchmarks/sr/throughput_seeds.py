#!/usr/bin/env python3
"""Search throughput of Operon and Beagle's GP over several seeds, in the same run.

One seed is one sample of a search whose speed depends on the programs it happens to grow
(their length, their functions), so a single seed can differ by a fifth from the next. This
runs Operon (the harness's settings, random_state 1..N) and Beagle's GP loop (gp_run, GP_SEED
1..N) alternately, 10 s each, one thread, and prints every figure, the medians and their ratio.

  python throughput_seeds.py --harness ../shared/bench/sr --gp-run target/release/gp_run \
      --data DIR_OF_DUMPED_PROBLEMS [--seeds 5] [--seconds 10]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import warnings


def operon(problem, iters, seed, seconds):
    from pyoperon.sklearn import SymbolicRegressor

    X, y, _, _ = problem.generate()
    est = SymbolicRegressor(
        allowed_symbols="add,sub,mul,div,exp,log,sqrt,sin,cos,constant,variable",
        population_size=500, pool_size=500, max_length=50, max_depth=10, tournament_size=5,
        optimizer_iterations=iters, objectives=["r2", "length"], generations=10**7,
        max_evaluations=10**12, max_time=int(seconds), n_threads=1, random_state=seed)
    t = time.time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    return est.stats_["generations"] * 500 / (time.time() - t)


def beagle(gp_run, csv, iters, seed, seconds):
    env = dict(os.environ, GP_TIME=str(seconds), GP_GENS="1000000", GP_STAGNATION="1000000",
               GP_EXACT="-1", GP_ITER=str(iters), GP_SEED=str(seed))
    out = subprocess.run([gp_run, csv], env=env, capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+) evaluations, stop: [^,]*, ([0-9.]+)(ms|s)", out)
    elapsed = float(m.group(2)) / (1000 if m.group(3) == "ms" else 1)
    return int(m.group(1)) / elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--gp-run", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    sys.path.insert(0, args.harness)
    import problems

    rows = []
    for name in ["perf_nm__exact", "perf_3var__exact"]:
        problem = problems.get(name)
        csv = os.path.join(args.data, name, "train.csv")
        for iters in (10, 0):
            op, be = [], []
            for seed in range(1, args.seeds + 1):
                op.append(operon(problem, iters, seed, args.seconds))
                be.append(beagle(args.gp_run, csv, iters, seed, args.seconds))
                print(f"{name} lm_iters={iters} seed={seed}: operon {op[-1]:,.0f}/s, "
                      f"beagle {be[-1]:,.0f}/s", flush=True)
            rows.append((name, iters, statistics.median(op), min(op), max(op),
                         statistics.median(be), min(be), max(be)))
    print()
    print(f"| problem | LM iterations | Operon median (min-max) | Beagle median (min-max) | Beagle / Operon |")
    print("|---|---|---|---|---|")
    for name, iters, om, olo, ohi, bm, blo, bhi in rows:
        print(f"| {name} | {iters} | {om:,.0f} ({olo:,.0f}-{ohi:,.0f}) | {bm:,.0f} ({blo:,.0f}-{bhi:,.0f}) "
              f"| {bm / om:.2f}x |")


if __name__ == "__main__":
    main()
