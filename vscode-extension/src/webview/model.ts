// The results view's numbers, apart from the DOM and Chart.js, so they are unit-tested:
// which parameters a result has, the grid the fitted curve is evaluated on, the bindings with
// the other parameters held fixed, the measured points that lie on the shown slice, the table.

import type { Evidence, FittedResult, MeasuredPoint } from '../protocol';

export type Values = Record<string, number>;

/** The result's parameters: those with a measured range first, in the server's order, then any
 * that only the points name. */
export function parameterNames(r: FittedResult): string[] {
  const names = r.parameterRanges.map(([name]) => name);
  for (const p of r.points) for (const [name] of p.parameters) if (!names.includes(name)) names.push(name);
  return names;
}

/** The parameter shown first: the first one the expression uses (a curve over a parameter the
 * expression ignores is flat), else the one measured at the most distinct values (a constant
 * law over a parameter that never varied would put every point on one vertical line). */
export function defaultParameter(r: FittedResult): string {
  const names = parameterNames(r);
  const used = names.find((n) => new RegExp(`(^|[^\\w.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w.])`).test(r.expression));
  if (used !== undefined) return used;
  let best = names[0] ?? '';
  let most = -1;
  for (const n of names) {
    const distinct = measuredValues(r, n).length;
    if (distinct > most) [best, most] = [n, distinct];
  }
  return best;
}

export function pointValues(p: MeasuredPoint): Values {
  const v: Values = {};
  for (const [name, value] of p.parameters) v[name] = value;
  return v;
}

/** The measured values of one parameter, distinct and sorted. */
export function measuredValues(r: FittedResult, name: string): number[] {
  const set = new Set<number>();
  for (const p of r.points) for (const [n, v] of p.parameters) if (n === name && Number.isFinite(v)) set.add(v);
  return [...set].sort((a, b) => a - b);
}

/** The value a parameter is held at by default: its median measured value. With an even count
 * the lower middle one, so it is a value that was measured and the chart has points on the slice.
 * Without points, the middle of its range. */
export function defaultValue(r: FittedResult, name: string): number {
  const values = measuredValues(r, name);
  if (values.length > 0) return values[Math.floor((values.length - 1) / 2)];
  const range = r.parameterRanges.find(([n]) => n === name);
  return range ? (range[1] + range[2]) / 2 : 0;
}

export function defaultFixed(r: FittedResult, chosen: string): Values {
  const fixed: Values = {};
  for (const name of parameterNames(r)) if (name !== chosen) fixed[name] = defaultValue(r, name);
  return fixed;
}

/** The chosen parameter's range: the server's measured range, else the points' extent. */
export function rangeOf(r: FittedResult, name: string): [number, number] | null {
  const range = r.parameterRanges.find(([n]) => n === name);
  if (range && Number.isFinite(range[1]) && Number.isFinite(range[2])) {
    return range[1] <= range[2] ? [range[1], range[2]] : [range[2], range[1]];
  }
  const values = measuredValues(r, name);
  return values.length > 0 ? [values[0], values[values.length - 1]] : null;
}

/** `count` evenly spaced values over [lo, hi] (both included); one value when lo == hi. */
export function grid(lo: number, hi: number, count = 100): number[] {
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) return [];
  if (lo === hi || count <= 1) return [lo];
  const step = (hi - lo) / (count - 1);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? hi : lo + i * step));
}

/** The grid for a parameter of a result, merged with its measured values so the curve passes
 * exactly through the x of every point. */
export function gridFor(r: FittedResult, name: string, count = 100): number[] {
  const range = rangeOf(r, name);
  if (!range) return [];
  const xs = new Set(grid(range[0], range[1], count));
  for (const v of measuredValues(r, name)) xs.add(v);
  return [...xs].sort((a, b) => a - b);
}

/** One binding per x: the chosen parameter varies, every other one is held at its fixed value. */
export function bindings(xs: number[], chosen: string, fixed: Values): Values[] {
  return xs.map((x) => {
    const b: Values = {};
    for (const [name, value] of Object.entries(fixed)) if (name !== chosen) b[name] = value;
    b[chosen] = x;
    return b;
  });
}

function same(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export interface SlicePoint {
  x: number;
  n: number;
  median: number;
  q1: number;
  q3: number;
}

/** The measured points split by the shown slice (every other parameter equal to its fixed
 * value), each sorted by the chosen parameter. Measurement designs are often scattered rather
 * than grids, so few points lie exactly on a slice: the view draws those in full and the others
 * faded, at their value of the chosen parameter. */
export function splitBySlice(r: FittedResult, chosen: string, fixed: Values): { on: SlicePoint[]; off: SlicePoint[] } {
  const on: SlicePoint[] = [];
  const off: SlicePoint[] = [];
  const hasParameters = parameterNames(r).length > 0;
  for (const p of r.points) {
    const v = pointValues(p);
    if (hasParameters && !(chosen in v)) continue;
    const point = { x: v[chosen] ?? 0, n: p.n, median: p.median, q1: p.q1, q3: p.q3 };
    const onSlice = Object.entries(fixed).every(([name, value]) => name === chosen || !(name in v) || same(v[name], value));
    (onSlice ? on : off).push(point);
  }
  const byX = (a: SlicePoint, b: SlicePoint) => a.x - b.x;
  return { on: on.sort(byX), off: off.sort(byX) };
}

/** The measured points on the shown slice, sorted by the chosen parameter. */
export function pointsOnSlice(r: FittedResult, chosen: string, fixed: Values): SlicePoint[] {
  return splitBySlice(r, chosen, fixed).on;
}

export interface TableRow {
  parameters: (number | null)[];
  n: number;
  executions: number;
  median: number;
  q1: number;
  q3: number;
  fitted: number | null;
}

/** Whether the table needs an "executions" column: some point's observations stand for more
 * runs than they count (aggregated loops, bounded samples of hot points). */
export function showsExecutions(r: FittedResult): boolean {
  return r.points.some((p) => (p.executions ?? p.n) > p.n);
}

/** The table #points: every measured point with its own parameter values, and the fitted
 * expression's value there (`fitted[i]` for point i, from beagle.evaluate over pointBindings). */
export function tableRows(r: FittedResult, fitted: (number | null)[] | null): TableRow[] {
  const names = parameterNames(r);
  return r.points.map((p, i) => {
    const v = pointValues(p);
    return {
      parameters: names.map((n) => (n in v ? v[n] : null)),
      n: p.n,
      executions: p.executions ?? p.n,
      median: p.median,
      q1: p.q1,
      q3: p.q3,
      fitted: fitted?.[i] ?? null,
    };
  });
}

/** The bindings that evaluate the expression at every measured point, for the table. */
export function pointBindings(r: FittedResult): Values[] {
  return r.points.map(pointValues);
}

/** Numbers as people read them: 4 significant digits, no exponent for ordinary magnitudes. */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-3) return v.toExponential(3);
  return Number(v.toPrecision(4)).toString();
}

/** The quality figures #quality shows, label and value. */
export function qualityRows(r: FittedResult): [string, string][] {
  return [
    ['Expression', r.expression],
    ['R²', formatNumber(r.r2)],
    ['Relative error', r.relativeError === null ? '–' : `${formatNumber(r.relativeError * 100)} %`],
    ['Samples', String(r.samples)],
    ['Status', r.status],
    ...(r.guard ? ([['Guard', r.guard]] as [string, string][]) : []),
    // A demand's expression is in ms; the model holds it in work units of its container's rate.
    ...(r.workUnits ? ([['Written', r.workUnits]] as [string, string][]) : []),
  ];
}

/** An error as the evidence states it: a percentage when errors are relative. */
export function errorText(e: Evidence, v: number): string {
  return e.relative ? `${formatNumber(v * 100)} %` : formatNumber(v);
}

/** The evidence figures #evidence shows, label and value: points and repetitions, the
 * constants they support, held-out error against a constant's, noise, band, the constants'
 * intervals, equivalent inputs. Empty without evidence (results of older servers). */
export function evidenceRows(r: FittedResult): [string, string][] {
  const e = r.evidence;
  if (!e) return [];
  const rows: [string, string][] = [
    ['Points', `${e.points} distinct${e.runs !== undefined ? ` from ${e.runs} runs` : ''} (${e.repetitions[0]}–${e.repetitions[1]} repetitions, ${e.observations} observations)`],
    ['Constants', `${e.constants} used, at most ${e.maxConstants} supported`],
  ];
  if (e.holdoutError !== undefined) {
    const constant = e.constantHoldoutError !== undefined ? ` (a constant: ${errorText(e, e.constantHoldoutError)})` : '';
    rows.push(['Held-out error', errorText(e, e.holdoutError) + constant]);
  }
  if (e.noise !== undefined) rows.push(['Noise of one observation', errorText(e, e.noise)]);
  if (e.band !== undefined) rows.push(['95 % band', `±${errorText(e, e.band)}`]);
  if (e.intervals && e.intervals.length > 0) {
    const parts = e.intervals.map((i) => `${formatNumber(i.value)} [${formatNumber(i.low)}, ${formatNumber(i.high)}]`);
    rows.push(['Constants (95 %)', parts.join(', ')]);
  }
  for (const [kept, dropped] of e.equivalent ?? []) rows.push(['Equivalent input', `${dropped}: the law uses ${kept}`]);
  return rows;
}

/** Why a result is preliminary (the server's reasons), then the notes on how it was found. */
export function reasonsAndNotes(r: FittedResult): { reasons: string[]; notes: string[] } {
  const reasons = r.reasons && r.reasons.length > 0 ? r.reasons : (r.evidence?.reasons ?? []);
  return { reasons: r.status === 'Final' ? [] : reasons, notes: r.evidence?.notes ?? [] };
}

/** A result's label in the #result select. */
export function resultLabel(r: FittedResult): string {
  const who = r.actionName ?? r.action ?? r.element;
  return `${who}: ${r.what}${r.status === 'Preliminary' ? ' (preliminary)' : ''}`;
}
