// Each SEFF's unmodelled time (the measured total less the model's prediction of its parts, at
// the SEFF's last validation) as the results view's table and the SEFF diagram's badge show it.
// The server words it (`label`, `detail`; where the model predicts more than measured the label
// says so, never a negative share), so the views, the hover and the CLI read alike; this adds the
// markup and the law's value at the diagram's inputs. Pure: unit-tested without a DOM.

import { esc } from '../escape';
import type { UnmodelledTime } from '../protocol';

/** Milliseconds as the diagram's header writes them. */
const ms = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2));

function statusText(u: UnmodelledTime): string {
  if (u.status === 'Final') return 'final';
  return u.reasons.length > 0 ? `preliminary: ${u.reasons.join('; ')}` : 'preliminary';
}

/** The results view's #unmodelled-table: a row per SEFF (service, share, law, status), each with
 * the whole line as its tooltip. Empty for no SEFF. */
export function unmodelledTable(list: UnmodelledTime[]): string {
  if (list.length === 0) return '';
  const rows = list.map((u) => {
    const cells = [
      `<td class="service">${esc(u.service)}</td>`,
      `<td class="share">${esc(u.label)} (median of ${u.points} points)</td>`,
      `<td class="expression">${esc(u.law)}</td>`,
      `<td class="status">${esc(statusText(u))}</td>`,
    ];
    const attrs = `data-seff="${esc(u.seff)}" data-status="${u.status === 'Final' ? 'final' : 'preliminary'}" data-overpredicted="${u.overpredicted}"`;
    return `<tr ${attrs} title="${esc(u.detail)}">${cells.join('')}</tr>`;
  });
  // The law is of measured less predicted: negative where the model predicts more.
  const head = '<tr><th>SEFF</th><th>Unmodelled time</th><th>Law per call (ms, measured less predicted)</th><th>Status</th></tr>';
  return `<thead>${head}</thead><tbody>${rows.join('')}</tbody>`;
}

export interface Badge {
  text: string;
  title: string;
  overpredicted: boolean;
  status: 'final' | 'preliminary';
}

/** The SEFF diagram's badge: the label and, where the law evaluates at the diagram's inputs,
 * what it gives there (beside the predicted total at the same inputs); the whole line as its
 * tooltip. `null` without an unmodelled time. */
export function unmodelledBadge(u: UnmodelledTime | null | undefined): Badge | null {
  if (!u) return null;
  const at = u.atInputsMs;
  const here = at === undefined || !Number.isFinite(at) ? null : at;
  // Where the model predicts more, the law's value is the (negative) difference, not a time.
  const text = here !== null && !u.overpredicted ? `${u.label}, ${ms(here)} ms per call here` : u.label;
  const title = [
    u.detail,
    ...(here !== null ? [`at these inputs: ${ms(here)} ms per call (measured less predicted)`] : []),
  ].join('\n');
  return { text, title, overpredicted: u.overpredicted, status: u.status === 'Final' ? 'final' : 'preliminary' };
}
