import { describe, expect, it } from 'vitest';
import type { FittedResult } from '../src/protocol';
import {
  bindings,
  defaultFixed,
  defaultParameter,
  defaultValue,
  formatNumber,
  grid,
  gridFor,
  parameterNames,
  pointBindings,
  pointsOnSlice,
  splitBySlice,
  qualityRows,
  evidenceRows,
  reasonsAndNotes,
  tableRows,
  showsExecutions,
} from '../src/webview/model';

const pt = (n: number, files: number, size: number, median: number) => ({
  parameters: [
    ['files.NUMBER_OF_ELEMENTS', files],
    ['size.VALUE', size],
  ] as [string, number][],
  n,
  executions: n,
  median,
  q1: median * 0.9,
  q3: median * 1.1,
});

const result: FittedResult = {
  element: 'act1',
  action: 'act1',
  actionName: 'read',
  what: 'CPU demand (ms)',
  expression: '0.5 * files.NUMBER_OF_ELEMENTS * size.VALUE',
  guard: null,
  status: 'Final',
  r2: 0.987,
  relativeError: 0.042,
  samples: 90,
  parameterRanges: [
    ['files.NUMBER_OF_ELEMENTS', 1, 100],
    ['size.VALUE', 10, 40],
  ],
  points: [pt(10, 1, 10, 5), pt(10, 50, 10, 250), pt(10, 100, 10, 500), pt(10, 1, 20, 10), pt(10, 100, 20, 1000), pt(10, 50, 40, 1000)],
  reasons: [],
  evidence: null,
};

describe('results model', () => {
  it('lists the parameters, ranges first', () => {
    expect(parameterNames(result)).toEqual(['files.NUMBER_OF_ELEMENTS', 'size.VALUE']);
    const extra = { ...result, parameterRanges: [] as [string, number, number][] };
    expect(parameterNames(extra)).toEqual(['files.NUMBER_OF_ELEMENTS', 'size.VALUE']);
  });

  it('shows first a parameter the expression uses', () => {
    expect(defaultParameter(result)).toBe('files.NUMBER_OF_ELEMENTS');
    expect(defaultParameter({ ...result, expression: '2.0E-5 * size.VALUE + 0.3' })).toBe('size.VALUE');
    // A name inside a longer one does not count.
    expect(defaultParameter({ ...result, expression: 'xsize.VALUE + 1' })).toBe('files.NUMBER_OF_ELEMENTS');
    expect(defaultParameter({ ...result, parameterRanges: [], points: [] })).toBe('');
    // A constant: the parameter measured at the most values, not one that never varied.
    const fixedFirst = {
      ...result,
      expression: '0.027',
      points: result.points.map((p) => ({ ...p, parameters: [['flag.VALUE', 9] as [string, number], ...p.parameters] })),
      parameterRanges: [['flag.VALUE', 9, 9] as [string, number, number], ...result.parameterRanges],
    };
    expect(parameterNames(fixedFirst)[0]).toBe('flag.VALUE');
    const distinct = (n: string) => new Set(result.points.map((p) => p.parameters.find(([k]) => k === n)?.[1])).size;
    const most = distinct('size.VALUE') > distinct('files.NUMBER_OF_ELEMENTS') ? 'size.VALUE' : 'files.NUMBER_OF_ELEMENTS';
    expect(defaultParameter(fixedFirst)).toBe(most);
  });

  it('makes an evenly spaced grid including both ends', () => {
    expect(grid(0, 10, 6)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(grid(3, 3, 50)).toEqual([3]);
    expect(grid(0, 1, 100)).toHaveLength(100);
    expect(grid(0, 1, 100).at(-1)).toBe(1);
    expect(grid(NaN, 1)).toEqual([]);
  });

  it('grids a parameter over its measured range and through every measured value', () => {
    const xs = gridFor(result, 'size.VALUE', 4); // 10, 20, 30, 40 already contain 20 and 40
    expect(xs).toEqual([10, 20, 30, 40]);
    const ys = gridFor(result, 'files.NUMBER_OF_ELEMENTS', 3); // 1, 50.5, 100 + measured 50
    expect(ys).toEqual([1, 50, 50.5, 100]);
  });

  it('holds the other parameters at their median measured value', () => {
    expect(defaultValue(result, 'size.VALUE')).toBe(20); // measured 10, 20, 40
    expect(defaultValue(result, 'files.NUMBER_OF_ELEMENTS')).toBe(50); // measured 1, 50, 100
    expect(defaultFixed(result, 'files.NUMBER_OF_ELEMENTS')).toEqual({ 'size.VALUE': 20 });
    const noPoints = { ...result, points: [] };
    expect(defaultValue(noPoints, 'size.VALUE')).toBe(25); // middle of the range
  });

  it('builds one binding per x with the others fixed', () => {
    expect(bindings([1, 2], 'files.NUMBER_OF_ELEMENTS', { 'size.VALUE': 20 })).toEqual([
      { 'size.VALUE': 20, 'files.NUMBER_OF_ELEMENTS': 1 },
      { 'size.VALUE': 20, 'files.NUMBER_OF_ELEMENTS': 2 },
    ]);
    // A stale fixed value of the chosen parameter never overrides the x.
    expect(bindings([7], 'a', { a: 1, b: 2 })).toEqual([{ a: 7, b: 2 }]);
  });

  it('draws only the points on the slice, sorted by the chosen parameter', () => {
    const slice = pointsOnSlice(result, 'files.NUMBER_OF_ELEMENTS', { 'size.VALUE': 20 });
    expect(slice.map((p) => [p.x, p.median])).toEqual([
      [1, 10],
      [100, 1000],
    ]);
    expect(pointsOnSlice(result, 'files.NUMBER_OF_ELEMENTS', { 'size.VALUE': 33 })).toEqual([]);
    expect(pointsOnSlice(result, 'size.VALUE', { 'files.NUMBER_OF_ELEMENTS': 1 }).map((p) => p.x)).toEqual([10, 20]);
  });

  it('keeps the points off the slice apart, for the faded series', () => {
    const { on, off } = splitBySlice(result, 'size.VALUE', { 'files.NUMBER_OF_ELEMENTS': 50 });
    expect(on.map((p) => [p.x, p.median])).toEqual([
      [10, 250],
      [40, 1000],
    ]);
    expect(off.map((p) => p.x)).toEqual([10, 10, 20, 20]);
    expect(on.length + off.length).toBe(result.points.length);
  });

  it('tabulates every point with the fitted value at its own parameters', () => {
    expect(pointBindings(result)[1]).toEqual({ 'files.NUMBER_OF_ELEMENTS': 50, 'size.VALUE': 10 });
    const fitted = result.points.map((_, i) => (i === 2 ? null : i * 1.5));
    const rows = tableRows(result, fitted);
    expect(rows).toHaveLength(6);
    expect(rows[1]).toEqual({ parameters: [50, 10], n: 10, executions: 10, median: 250, q1: 225, q3: 275, fitted: 1.5 });
    expect(rows[2].fitted).toBeNull();
    expect(tableRows(result, null)[0].fitted).toBeNull();
  });

  it('shows the runs behind a point only where they outnumber its observations', () => {
    expect(showsExecutions(result)).toBe(false);
    const sampled = { ...result, points: result.points.map((p, i) => ({ ...p, executions: i === 3 ? 100_000 : p.n })) };
    expect(showsExecutions(sampled)).toBe(true);
    expect(tableRows(sampled, null)[3].executions).toBe(100_000);
    expect(tableRows(sampled, null)[0].executions).toBe(sampled.points[0].n);
  });

  it('formats numbers and quality figures', () => {
    expect(formatNumber(1234.5678)).toBe('1235');
    expect(formatNumber(0.1234567)).toBe('0.1235');
    expect(formatNumber(12345678)).toBe('1.235e+7');
    expect(formatNumber(null)).toBe('–');
    expect(formatNumber(NaN)).toBe('–');
    expect(Object.fromEntries(qualityRows(result))).toEqual({
      Expression: '0.5 * files.NUMBER_OF_ELEMENTS * size.VALUE',
      'R²': '0.987',
      'Relative error': '4.2 %',
      Samples: '90',
      Status: 'Final',
    });
    const demand: FittedResult = { ...result, workUnits: 'in work units: 7.5E7 CPU units on AppServer at 1E9/s' };
    expect(Object.fromEntries(qualityRows(demand)).Written).toBe('in work units: 7.5E7 CPU units on AppServer at 1E9/s');
  });

  it('shows the evidence: points, held-out error, band, intervals, equivalent inputs', () => {
    const withEvidence: FittedResult = {
      ...result,
      status: 'Preliminary',
      reasons: ['held-out error 21 % exceeds the repetitions\' spread 3.6 %'],
      evidence: {
        points: 6,
        observations: 90,
        repetitions: [10, 15],
        maxConstants: 3,
        constants: 1,
        relative: true,
        noise: 0.036,
        holdoutError: 0.21,
        constantHoldoutError: 0.8,
        band: 0.42,
        intervals: [{ value: 0.5, low: 0.4512, high: 0.5488 }],
        equivalent: [['files.NUMBER_OF_ELEMENTS', 'ids.NUMBER_OF_ELEMENTS']],
        isFinal: false,
        reasons: [],
        notes: ['6 distinct points: at most 3 coefficients'],
      },
    };
    expect(Object.fromEntries(evidenceRows(withEvidence))).toEqual({
      Points: '6 distinct (10–15 repetitions, 90 observations)',
      Constants: '1 used, at most 3 supported',
      'Held-out error': '21 % (a constant: 80 %)',
      'Noise of one observation': '3.6 %',
      '95 % band': '±42 %',
      'Constants (95 %)': '0.5 [0.4512, 0.5488]',
      'Equivalent input': 'ids.NUMBER_OF_ELEMENTS: the law uses files.NUMBER_OF_ELEMENTS',
    });
    expect(reasonsAndNotes(withEvidence)).toEqual({
      reasons: ["held-out error 21 % exceeds the repetitions' spread 3.6 %"],
      notes: ['6 distinct points: at most 3 coefficients'],
    });
    // Absolute errors (passed values) are not percentages; a final result has no reasons.
    const absolute = { ...withEvidence, status: 'Final' as const, evidence: { ...withEvidence.evidence!, relative: false, holdoutError: 2 } };
    expect(evidenceRows(absolute).find(([k]) => k === 'Held-out error')?.[1]).toBe('2 (a constant: 0.8)');
    expect(reasonsAndNotes(absolute).reasons).toEqual([]);
    // Points from fewer runs (Java launch points) say so.
    const runs = { ...withEvidence, evidence: { ...withEvidence.evidence!, runs: 4 } };
    expect(evidenceRows(runs)[0]).toEqual(['Points', '6 distinct from 4 runs (10–15 repetitions, 90 observations)']);
    // A server without evidence: nothing extra.
    expect(evidenceRows(result)).toEqual([]);
  });
});
