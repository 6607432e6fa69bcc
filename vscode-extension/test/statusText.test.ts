import { beforeEach, describe, expect, it } from 'vitest';
import { StatusBar } from '../src/statusBar';
import { statusView } from '../src/statusText';
import type { StatusPayload } from '../src/protocol';
import { fake, reset } from './fakeVscode';

const idle: StatusPayload = { running: null, queued: [], last: null, inputs: null, paused: false };
const running = (over: Partial<NonNullable<StatusPayload['running']>> = {}, rest: Partial<StatusPayload> = {}): StatusPayload => ({
  ...idle,
  running: { id: 3, label: 'files.repository', paused: false, percentage: 42.4, message: 'measuring 3 of 7 points', ...over },
  ...rest,
});

describe('status text', () => {
  it('is the beaker when idle', () => {
    expect(statusView(idle).text).toBe('$(beaker) Beagle');
    expect(statusView(null).text).toBe('$(beaker) Beagle');
    expect(statusView({ ...idle, last: 'files.repository done: 4 results' }).tooltip).toContain('done: 4 results');
  });

  it('spins with label and rounded percentage while running; the tooltip is the progress message', () => {
    const v = statusView(running());
    expect(v.text).toBe('$(sync~spin) Beagle: files.repository 42 %');
    expect(v.tooltip).toBe('measuring 3 of 7 points');
  });

  it('shows 0 % before the first report', () => {
    expect(statusView(running({ percentage: 0, message: 'starting' })).text).toBe('$(sync~spin) Beagle: files.repository 0 %');
  });

  it('shows paused when the job or the queue is paused', () => {
    expect(statusView(running({ paused: true })).text).toBe('$(debug-pause) Beagle: paused');
    expect(statusView(running({}, { paused: true })).text).toBe('$(debug-pause) Beagle: paused');
    expect(statusView({ ...idle, paused: true }).text).toBe('$(debug-pause) Beagle: paused');
  });

  it('lists the queued jobs in the tooltip', () => {
    const v = statusView(running({}, { queued: [{ id: 4, label: 'a.repository' }, { id: 5, label: 'b' }] }));
    expect(v.tooltip).toContain('2 queued: a.repository, b');
  });
});

describe('status bar item', () => {
  beforeEach(reset);

  it('is the item beagle.status, opens the status quick pick and follows updates', () => {
    const bar = new StatusBar('beagle.vscode.showStatus');
    const item = fake.statusItems[0];
    expect(item.id).toBe('beagle.status');
    expect(item.command).toBe('beagle.vscode.showStatus');
    expect(item.shown).toBe(true);
    expect(item.text).toBe('$(beaker) Beagle');
    bar.update(running());
    expect(item.text).toBe('$(sync~spin) Beagle: files.repository 42 %');
    expect(item.tooltip).toBe('measuring 3 of 7 points');
    bar.update(idle);
    expect(item.text).toBe('$(beaker) Beagle');
  });
});
