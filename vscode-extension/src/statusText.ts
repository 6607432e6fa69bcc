// What the status bar item shows for a `beagle/status` payload (or `beagle.status` result).
// Pure so the texts are unit-tested.

import type { StatusPayload } from './protocol';

export interface StatusView {
  text: string;
  tooltip: string;
}

export const IDLE: StatusView = { text: '$(beaker) Beagle', tooltip: 'Beagle: no analysis running' };

export function statusView(s: StatusPayload | null | undefined): StatusView {
  if (!s) return IDLE;
  const queued = s.queued?.length ?? 0;
  const lines: string[] = [];
  let text: string;
  if (s.running && (s.running.paused || s.paused)) {
    text = '$(debug-pause) Beagle: paused';
    lines.push(`Paused: ${s.running.label}`);
    if (s.running.message) lines.push(s.running.message);
  } else if (s.running) {
    const pct = Math.max(0, Math.min(100, Math.round(s.running.percentage ?? 0)));
    text = `$(sync~spin) Beagle: ${s.running.label} ${pct} %`;
    lines.push(s.running.message ?? `Analysing ${s.running.label}`);
  } else if (s.paused) {
    text = '$(debug-pause) Beagle: paused';
    lines.push('The queue is paused');
  } else {
    text = IDLE.text;
    lines.push(s.last ? `Last: ${s.last}` : IDLE.tooltip);
  }
  if (queued > 0) lines.push(`${queued} queued: ${s.queued.map((q) => q.label).join(', ')}`);
  return { text, tooltip: lines.join('\n') };
}
