#!/usr/bin/env python3
"""Trust benchmark: does a fitting tool find dependencies in pure noise, and does it over-fit
a handful of points?

    python trust.py gen       [--work DIR]                      # write the CSVs (optional)
    python trust.py run SOLVER [--budget 2] [--family noise,five] [--limit N] [--only SUBSTR]
                               [--seed 1] [--tag NAME] [--out results/results_<tag>.csv]
    python trust.py summarize results/results_*.csv [--out results/summary.md]

SOLVER: `baseline_bic`, `operon` (pyoperon), `gplearn`, `oracle` (prints the truth; a sanity
check of the scoring) or `cmd:'COMMAND ...'` (run as `COMMAND ... train.csv` with SR_TIME_LIMIT,
SR_SEED, SR_THREADS=1; see CONTRACT.md of the shared harness). The solver functions are the shared
harness's own (`run_anchor.py` in $SR_HARNESS, default ../../../shared/bench/sr): this file only
adds the problems and the scoring.

Families (every instance seeded with numpy default_rng from a fixed per-instance seed):

  noise  (100 instances): y = c * exp(sigma * N(0,1)) (lognormal, sigma in 5..20 %), then
         0..5 % of the rows (rounded, possibly none) multiplied by 3; c log-uniform in
         0.01..1000; 4..14 distinct points of k = 1..3 integer parameters (varied ranges, a {0,1}
         flag), 3..8 repetitions per point, each repetition its own row. The truth uses no
         variable: an answer that does (after sympy simplification) is a false discovery.
  five   (50 instances): 5 distinct points, truth a*xj + b in one of k = 1..3 parameters (the
         others irrelevant, varied), y = truth * (1 + 0.05 * N(0,1)), 3..8 repetitions per point.
         Scored on 20 fresh distinct points inside the training range, noise-free:
         linear_right (polynomial of degree 1 in xj, no other variable), at most 2 constants
         (recovery.n_params, the harness's parameter count), every fresh point within 15 %
         relative error.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import statistics
import sys
import time
import traceback
import zlib

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.environ.get("SR_HARNESS") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench", "sr"))
sys.path.insert(0, HARNESS)
import run_anchor as RA  # noqa: E402  (the shared harness: solver functions)
import exprparse  # noqa: E402
import problems as SRP  # noqa: E402  (write_csv)
import recovery as R  # noqa: E402  (time_limit, lambdify, n_params)

N_NOISE = 100
N_FIVE = 50
FRESH = 20
FIVE_REL_TOL = 0.15
MAX_CONSTANTS = 2

FIELDS = ["solver", "budget_s", "family", "instance", "k", "points", "reps", "rows", "truth",
          "relevant", "expr", "parse_ok", "uses_variable", "vars_used", "linear_right", "constants",
          "const_ok", "fresh_median_rel_err", "fresh_max_rel_err", "fresh_ok", "pred_spread", "ok",
          "fit_wall_s", "info", "error"]

# ---------------------------------------------------------------------------------- generation
# Parameter kinds: integer-valued, as a profiler sees them.
#   ('ilu', lo, hi) log-uniform integer, ('iu', lo, hi) uniform integer, ('flag',) {0, 1}
NOISE_KINDS = [("ilu", 1, 100000), ("iu", 1, 50), ("flag",), ("ilu", 1, 1000), ("iu", 1, 16),
               ("ilu", 512, 100000000)]
RELEVANT_KINDS = [("ilu", 1, 100000), ("iu", 1, 1000), ("ilu", 10, 1000000), ("iu", 1, 100)]
IRRELEVANT_KINDS = NOISE_KINDS


def _seed(*parts) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode()) & 0x7FFFFFFF


def _draw(kind, rng):
    if kind[0] == "flag":
        return float(rng.integers(0, 2))
    lo, hi = kind[1], kind[2]
    if kind[0] == "iu":
        return float(rng.integers(lo, hi + 1))
    if kind[0] == "ilu":
        v = math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))
        return float(min(max(math.floor(v), lo), hi))
    raise ValueError(kind)


def _draw_within(kind, lo, hi, rng):
    """A value of the same kind inside [lo, hi] (the training range of that column)."""
    if kind[0] == "flag":
        return float(rng.integers(int(lo), int(hi) + 1))
    if kind[0] == "iu":
        return float(rng.integers(int(lo), int(hi) + 1))
    v = math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))
    return float(min(max(math.floor(v), lo), hi))


def _card(kind):
    return 2 if kind[0] == "flag" else kind[2] - kind[1] + 1


def _kind_str(kind):
    return "flag" if kind[0] == "flag" else f"{kind[0]} {kind[1]}..{kind[2]}"


class Instance:
    """One benchmark problem. Also passed as the harness's `p` (its solvers do not read it)."""

    def __init__(self, family, index):
        self.family, self.index = family, index
        self.name = f"{family}_{index:03d}"
        # noise1 = the noise instance of the same index, first repetition only
        self.seed = _seed("beagle-trust", "noise" if family == "noise1" else family, index)
        rng = np.random.default_rng(self.seed)
        if family == "noise":
            self._gen_noise(rng)
        elif family == "noise1":
            self._gen_noise(rng)
            self.y = self.y.reshape(self.n_points, self.reps)[:, 0].copy()
            self.X = np.array(self.points, dtype=float)
            self.desc += f" (first of {self.reps} repetitions)"
            self.reps = 1
        elif family == "five":
            self._gen_five(rng)
        else:
            raise ValueError(family)

    # -- noise: constant truth
    def _gen_noise(self, rng):
        self.k = int(rng.integers(1, 4))
        self.n_points = int(rng.integers(4, 15))
        while True:
            self.kinds = [NOISE_KINDS[int(rng.integers(len(NOISE_KINDS)))] for _ in range(self.k)]
            if math.prod(_card(kd) for kd in self.kinds) >= 2 * self.n_points:
                break
        self.reps = int(rng.integers(3, 9))
        self.c = float(math.exp(rng.uniform(math.log(0.01), math.log(1000))))
        self.sigma = float(rng.uniform(0.05, 0.20))
        self.out_frac = float(rng.uniform(0.0, 0.05))
        self.points = self._distinct_points(rng, self.n_points, lambda: [_draw(kd, rng) for kd in self.kinds])
        X = np.repeat(np.array(self.points, dtype=float), self.reps, axis=0)
        y = self.c * np.exp(self.sigma * rng.standard_normal(len(X)))
        n_out = int(round(self.out_frac * len(y)))
        if n_out:
            y[rng.choice(len(y), n_out, replace=False)] *= 3.0
        self.n_outliers = n_out
        self.X, self.y = X, y
        self.relevant = ""
        self.truth = repr(self.c)
        self.truth_fn = lambda Z: np.full(Z.shape[0], self.c)
        self.desc = (f"c={self.c:.4g} sigma={self.sigma:.3f} outliers={n_out} "
                     f"params=[{', '.join(_kind_str(kd) for kd in self.kinds)}]")
        self.Xf = self._fresh(rng)
        self.yf = self.truth_fn(self.Xf)

    # -- five: linear truth in one variable, five points
    def _gen_five(self, rng):
        self.k = int(rng.integers(1, 4))
        self.j = int(rng.integers(self.k))
        self.n_points = 5
        self.kinds = [IRRELEVANT_KINDS[int(rng.integers(len(IRRELEVANT_KINDS)))] for _ in range(self.k)]
        self.kinds[self.j] = RELEVANT_KINDS[int(rng.integers(len(RELEVANT_KINDS)))]
        self.reps = int(rng.integers(3, 9))
        # 5 distinct values of the relevant variable, spanning at least 40 integers (room for 20
        # fresh points in between); the other columns vary freely.
        while True:
            xj = set()
            while len(xj) < 5:
                xj.add(_draw(self.kinds[self.j], rng))
            xj = sorted(xj)
            if xj[-1] - xj[0] >= 40:
                break
        order = rng.permutation(5)
        pts = []
        for i in order:
            row = [_draw(kd, rng) for kd in self.kinds]
            row[self.j] = xj[i]
            pts.append(row)
        self.points = pts
        self.b = float(math.exp(rng.uniform(math.log(0.1), math.log(1000))))
        ratio = float(math.exp(rng.uniform(math.log(1), math.log(100))))   # a*max(xj) / b
        self.a = float(ratio * self.b / xj[-1])
        a, b, j = self.a, self.b, self.j
        self.truth_fn = lambda Z: a * Z[:, j] + b
        X = np.repeat(np.array(pts, dtype=float), self.reps, axis=0)
        y = self.truth_fn(X) * (1 + 0.05 * rng.standard_normal(len(X)))
        self.X, self.y = X, y
        self.relevant = f"x{j + 1}"
        self.truth = f"{a!r}*x{j + 1} + {b!r}"
        self.n_outliers = 0
        self.desc = (f"a={a:.4g} b={b:.4g} a*max/b={ratio:.3g} "
                     f"params=[{', '.join(_kind_str(kd) for kd in self.kinds)}]")
        self.Xf = self._fresh(rng)
        self.yf = self.truth_fn(self.Xf)

    @staticmethod
    def _distinct_points(rng, n, draw):
        seen, pts = set(), []
        for _ in range(10000):
            p = tuple(draw())
            if p not in seen:
                seen.add(p)
                pts.append(list(p))
                if len(pts) == n:
                    return pts
        raise RuntimeError("cannot draw distinct points")

    def _fresh(self, rng):
        """FRESH new distinct points inside the training range (per column), not training points."""
        P = np.array(self.points, dtype=float)
        lo, hi = P.min(axis=0), P.max(axis=0)
        seen = {tuple(p) for p in self.points}
        out = []
        for _ in range(100000):
            p = tuple(_draw_within(kd, lo[i], hi[i], rng) for i, kd in enumerate(self.kinds))
            if p not in seen:
                seen.add(p)
                out.append(p)
                if len(out) == FRESH:
                    break
        if len(out) < FRESH:
            if self.family == "five":
                raise RuntimeError(f"{self.name}: only {len(out)} fresh points")
            # noise: a small parameter space (e.g. one 1..16 column) may hold fewer new points;
            # the fresh points only measure the error of the constant there
            if not out:
                return np.array(self.points, dtype=float)
        return np.array(out, dtype=float)

    # harness-facing helpers
    def positive(self):
        return [kd[0] != "flag" and kd[1] > 0 for kd in self.kinds]

    def symbols(self):
        return exprparse.make_symbols(self.k, self.positive())


def all_instances(families=("noise", "five")):
    out = []
    if "noise" in families:
        out += [Instance("noise", i) for i in range(N_NOISE)]
    if "noise1" in families:       # opt-in: no repetitions (see README)
        out += [Instance("noise1", i) for i in range(N_NOISE)]
    if "five" in families:
        out += [Instance("five", i) for i in range(N_FIVE)]
    return out


def default_work():
    return os.environ.get("TRUST_WORK") or os.path.join(os.environ.get("TMPDIR", "/tmp"), "beagle-trust-work")


def dump(insts, work):
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "instances.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["instance", "family", "k", "points", "reps", "rows", "truth", "relevant", "desc"])
        for p in insts:
            d = os.path.join(work, p.name)
            os.makedirs(d, exist_ok=True)
            SRP.write_csv(os.path.join(d, "train.csv"), p.X, p.y)
            SRP.write_csv(os.path.join(d, "fresh.csv"), p.Xf, p.yf)
            w.writerow([p.name, p.family, p.k, p.n_points, p.reps, len(p.y), p.truth, p.relevant, p.desc])


# ---------------------------------------------------------------------------------- scoring
def _simplify(e):
    try:
        with R.time_limit(20):
            return sp.simplify(e), ""
    except Exception as ex:  # includes the harness's Timeout
        return e, f"simplify: {type(ex).__name__}"


def _constants(found, simp):
    try:
        with R.time_limit(20):
            return min(R.n_params(found), R.n_params(simp))
    except Exception:
        return R.n_params(found)


def _linear_in(e, x):
    """Polynomial of degree exactly 1 in x with no other variable."""
    if e.free_symbols != {x}:
        return False
    try:
        with R.time_limit(10):
            ex = sp.expand(e)
            if not ex.is_polynomial(x):
                return False
            return sp.degree(ex, x) == 1
    except Exception:
        return False


def evaluate(tag, fn, p, budget, seed):
    row = {k: "" for k in FIELDS}
    row.update(solver=tag, budget_s=budget, family=p.family, instance=p.name, k=p.k,
               points=p.n_points, reps=p.reps, rows=len(p.y), truth=p.truth, relevant=p.relevant)
    t0 = time.time()
    try:
        res = fn(p, p.X.copy(), p.y.copy(), budget, seed)
    except Exception as ex:
        row["fit_wall_s"] = round(time.time() - t0, 3)
        row["error"] = f"solver: {type(ex).__name__}: {str(ex)[:300]}"
        row["ok"] = 0
        return row
    row["fit_wall_s"] = round(time.time() - t0, 3)
    row["expr"] = res.expr_str
    row["info"] = res.info
    syms = p.symbols()
    xs = [syms[f"x{i + 1}"] for i in range(p.k)]
    found = res.sympy_expr
    try:
        if found is None:
            with R.time_limit(20):
                found = exprparse.parse(res.expr_str, syms)
        row["parse_ok"] = 1
    except Exception as ex:
        row["parse_ok"] = 0
        row["error"] = f"parse: {type(ex).__name__}: {str(ex)[:200]}"
        row["ok"] = 0
        found = None
    pred = res.predict
    if found is not None:
        simp, err = _simplify(found)
        if err:
            row["error"] = err
        used = sorted((s for s in simp.free_symbols if s in set(xs)), key=lambda s: int(s.name[1:]))
        row["uses_variable"] = int(bool(used))
        row["vars_used"] = " ".join(s.name for s in used)
        row["constants"] = _constants(found, simp)
        row["const_ok"] = int(row["constants"] <= MAX_CONSTANTS)
        if p.family == "five":
            row["linear_right"] = int(_linear_in(simp, syms[p.relevant]))
        if pred is None:
            try:
                pred = R.lambdify(found, xs)
            except Exception as ex:
                row["error"] += f" lambdify: {type(ex).__name__}"
    if pred is not None:
        with np.errstate(all="ignore"):
            yf = np.asarray(pred(p.Xf), dtype=float)
            ytr = np.asarray(pred(np.array(p.points, dtype=float)), dtype=float)
        rel = np.abs(yf - p.yf) / np.abs(p.yf)
        if np.all(np.isfinite(rel)):
            row["fresh_median_rel_err"] = float(np.median(rel))
            row["fresh_max_rel_err"] = float(np.max(rel))
            row["fresh_ok"] = int(row["fresh_max_rel_err"] <= FIVE_REL_TOL)
        else:
            row["fresh_median_rel_err"] = row["fresh_max_rel_err"] = float("inf")
            row["fresh_ok"] = 0
        if np.all(np.isfinite(ytr)):
            # how much the answer varies over the training points (0 for a constant)
            m = float(np.median(np.abs(ytr)))
            row["pred_spread"] = float((ytr.max() - ytr.min()) / m) if m > 0 else float("inf")
    if row["parse_ok"] == 1:
        if p.family.startswith("noise"):
            row["ok"] = int(row["uses_variable"] == 0)
        else:
            row["ok"] = int(row["linear_right"] == 1 and row["const_ok"] == 1 and row["fresh_ok"] == 1)
    return row


def _solver(name):
    if name.startswith("cmd:"):
        cmd = name[4:]
        return (lambda p, X, y, b, s: RA.solve_cmd(cmd, p, X, y, b, s)), "cmd"
    fns = {"baseline_bic": RA.solve_baseline_bic, "operon": RA.solve_operon,
           "gplearn": RA.solve_gplearn, "oracle": lambda p, X, y, b, s: RA.Result(p.truth, info="truth")}
    return fns[name], name


def run(args):
    fn, tag = _solver(args.solver)
    tag = args.tag or tag
    fams = tuple(args.family.split(","))
    insts = [p for p in all_instances(fams) if not args.only or args.only in p.name]
    if args.limit:
        insts = [p for p in insts if p.index < args.limit]
    dump(insts, args.work)
    out = args.out or os.path.join(HERE, "results", f"results_{tag}.csv")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    t_start = time.time()
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        for i, p in enumerate(insts):
            try:
                row = evaluate(tag, fn, p, args.budget, args.seed)
            except Exception:
                row = {k: "" for k in FIELDS}
                row.update(solver=tag, budget_s=args.budget, family=p.family, instance=p.name, ok=0,
                           error="harness: " + traceback.format_exc()[-300:])
            w.writerow(row)
            fh.flush()
            print(f"[{i + 1}/{len(insts)}] {p.name} k={p.k} pts={p.n_points}x{p.reps} ok={row['ok']} "
                  f"var={row['uses_variable']} lin={row['linear_right']} c={row['constants']} "
                  f"maxrel={_f(row['fresh_max_rel_err'])} t={row['fit_wall_s']}s  "
                  f"{str(row['expr'])[:100]} {row['error'][:100]}", flush=True)
    print(f"wrote {out} ({len(insts)} instances, {time.time() - t_start:.0f} s)")


def _f(v):
    try:
        return f"{float(v):.3g}"
    except (TypeError, ValueError):
        return str(v)


# ---------------------------------------------------------------------------------- summary
SOLVER_ORDER = ["beagle_before", "beagle", "baseline_bic", "operon", "gplearn", "oracle"]


def _fl(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _med(vals):
    vals = [v for v in vals if not math.isnan(v)]
    return statistics.median(vals) if vals else float("nan")


def _rate(rs, pred):
    k = sum(1 for r in rs if pred(r))
    n = len(rs)
    return f"{k}/{n} ({100 * k / n:.0f} %)" if n else "-"


def _is1(v):
    return str(v) in ("1", "1.0", "True")


def _noise_tables(rows, solvers, fam, title):
    out = []
    out.append(title)
    out.append("")
    out.append("| solver | budget s | n | false discovery (uses a variable) | answer unusable (error / no parse) | "
               "median rel. err. of the constant (fresh points) | median spread of the answer over the training points | median fit wall s |")
    out.append("|---|---|---|---|---|---|---|---|")
    for s, b in solvers:
        rs = [r for r in rows if r["family"] == fam and r["solver"] == s and r["budget_s"] == b]
        if not rs:
            continue
        out.append(f"| {s} | {b} | {len(rs)} | {_rate(rs, lambda r: _is1(r['uses_variable']))} | "
                   f"{_rate(rs, lambda r: not _is1(r['parse_ok']))} | "
                   f"{_med([_fl(r['fresh_median_rel_err']) for r in rs]):.3g} | "
                   f"{_med([_fl(r['pred_spread']) for r in rs]):.3g} | "
                   f"{_med([_fl(r['fit_wall_s']) for r in rs]):.2f} |")
    out.append("")
    out.append("False discoveries by number of parameters k and by number of distinct points:")
    out.append("")
    ks = sorted({r["k"] for r in rows if r["family"] == fam})
    pbins = [(4, 6), (7, 10), (11, 14)]
    out.append("| solver | " + " | ".join(f"k={k}" for k in ks) + " | " +
               " | ".join(f"{a}-{b} points" for a, b in pbins) + " |")
    out.append("|---|" + "---|" * (len(ks) + len(pbins)))
    for s, b in solvers:
        rs = [r for r in rows if r["family"] == fam and r["solver"] == s and r["budget_s"] == b]
        if not rs:
            continue
        cells = [_rate([r for r in rs if r["k"] == k], lambda r: _is1(r["uses_variable"])) for k in ks]
        cells += [_rate([r for r in rs if lo <= int(_fl(r["points"]) if r["points"] else 0) <= hi],
                        lambda r: _is1(r["uses_variable"])) for lo, hi in pbins]
        out.append(f"| {s} | " + " | ".join(cells) + " |")
    out.append("")
    return out


def summarize(paths):
    rows = []
    for pth in paths:
        with open(pth) as fh:
            rs = list(csv.DictReader(fh))
        if os.path.basename(pth).startswith("before_"):
            # the kept "before" baseline (results/before_results_beagle.csv) gets its own rows
            for r in rs:
                if not r["solver"].endswith("_before"):
                    r["solver"] += "_before"
        rows += rs
    solvers = sorted({(r["solver"], r["budget_s"]) for r in rows},
                     key=lambda z: (SOLVER_ORDER.index(z[0]) if z[0] in SOLVER_ORDER else 99, z))
    out = ["# Trust benchmark: spurious dependencies in noise, over-fitting five points", ""]
    out.append("Generated by `trust.py summarize` from " + ", ".join(os.path.basename(p) for p in paths) + ".")
    out.append("")
    # --- noise (and the opt-in noise1: the same instances, one row per point)
    titles = {"noise": "## `noise`: constant truth, 5-20 % lognormal noise, 0-5 % outliers x3, 3-8 repetitions "
                       "per point (goal for Beagle: false discovery <= 5 %)",
              "noise1": "## `noise1` (opt-in): the `noise` instances with only the first repetition of each point"}
    for fam in [f for f in ("noise", "noise1") if any(r["family"] == f for r in rows)]:
        out += _noise_tables(rows, solvers, fam, titles[fam])
    # --- five
    out.append("## `five`: five points, linear truth a*xj + b in one of k = 1..3 parameters, 5 % noise")
    out.append("")
    out.append(f"| solver | budget s | n | all three | linear in the right variable | <= {MAX_CONSTANTS} constants | "
               f"every fresh point within {FIVE_REL_TOL:.0%} | median of median rel. err. | median of max rel. err. | "
               "worst max rel. err. | errors | median fit wall s |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s, b in solvers:
        rs = [r for r in rows if r["family"] == "five" and r["solver"] == s and r["budget_s"] == b]
        if not rs:
            continue
        mx = [_fl(r["fresh_max_rel_err"]) for r in rs]
        mx = [v for v in mx if not math.isnan(v)]
        out.append(f"| {s} | {b} | {len(rs)} | {_rate(rs, lambda r: _is1(r['ok']))} | "
                   f"{_rate(rs, lambda r: _is1(r['linear_right']))} | {_rate(rs, lambda r: _is1(r['const_ok']))} | "
                   f"{_rate(rs, lambda r: _is1(r['fresh_ok']))} | "
                   f"{_med([_fl(r['fresh_median_rel_err']) for r in rs]):.3g} | {_med(mx):.3g} | "
                   f"{(max(mx) if mx else float('nan')):.3g} | "
                   f"{sum(1 for r in rs if r['error'] and not _is1(r['parse_ok']))} | "
                   f"{_med([_fl(r['fit_wall_s']) for r in rs]):.2f} |")
    out.append("")
    # --- failures, per solver
    out.append("## Failed instances (expression as answered)")
    for s, b in solvers:
        rs = [r for r in rows if r["solver"] == s and r["budget_s"] == b and not _is1(r["ok"])]
        out.append("")
        out.append(f"### {s} ({len(rs)} failed)")
        out.append("")
        if not rs:
            continue
        out.append("| instance | k | points x reps | truth | answer | why |")
        out.append("|---|---|---|---|---|---|")
        for r in rs:
            why = []
            if not _is1(r["parse_ok"]):
                why.append((r["error"] or "no answer")[:80])
            elif r["family"].startswith("noise"):
                why.append("uses " + r["vars_used"])
            else:
                if not _is1(r["linear_right"]):
                    why.append("not linear in " + r["relevant"])
                if not _is1(r["const_ok"]):
                    why.append(f"{r['constants']} constants")
                if not _is1(r["fresh_ok"]):
                    why.append(f"max rel. err. {_f(r['fresh_max_rel_err'])}")
            expr = str(r["expr"]).replace("|", "\\|")
            if len(expr) > 120:
                expr = expr[:117] + "..."
            truth = r["truth"] if r["family"] == "five" else f"{_fl(r['truth']):.4g}"
            out.append(f"| {r['instance']} | {r['k']} | {r['points']}x{r['reps']} | {truth} | `{expr}` | {'; '.join(why)} |")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------- main
def main():
    if len(sys.argv) > 1 and sys.argv[1] == "summarize":
        ap = argparse.ArgumentParser(prog="trust.py summarize")
        ap.add_argument("csvs", nargs="+")
        ap.add_argument("--out", default="")
        a = ap.parse_args(sys.argv[2:])
        text = summarize(a.csvs)
        if a.out:
            with open(a.out, "w") as fh:
                fh.write(text)
            print("wrote", a.out)
        else:
            sys.stdout.write(text)
        return
    if len(sys.argv) > 1 and sys.argv[1] == "gen":
        ap = argparse.ArgumentParser(prog="trust.py gen")
        ap.add_argument("--work", default=default_work())
        a = ap.parse_args(sys.argv[2:])
        insts = all_instances()
        dump(insts, a.work)
        for p in insts:
            print(f"{p.name} k={p.k} points={p.n_points} reps={p.reps} rows={len(p.y)} "
                  f"y=[{p.y.min():.4g},{p.y.max():.4g}] truth={p.truth}  {p.desc}")
        print(f"wrote {len(insts)} instances to {a.work}")
        return
    ap = argparse.ArgumentParser(prog="trust.py run")
    ap.add_argument("cmd", choices=["run"])
    ap.add_argument("solver")
    ap.add_argument("--budget", type=float, default=2)
    ap.add_argument("--family", default="noise,five")
    ap.add_argument("--limit", type=int, default=0, help="only the first N instances of each family")
    ap.add_argument("--only", default="", help="only instances whose name contains this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tag", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--work", default=default_work(), help="where the CSVs are written")
    run(ap.parse_args())


if __name__ == "__main__":
    main()
