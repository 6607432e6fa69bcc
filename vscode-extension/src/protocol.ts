// The Beagle language server's commands and notifications. Their shapes are generated from the
// server's Rust types (protocol.generated.ts, checked by the server's tests so the two cannot
// drift; docs/lsp-extensions.md documents them). No `vscode` import: the webview and the unit
// tests use these types too.

export * from './protocol.generated';
import type { ElementResults, Status } from './protocol.generated';

/** `beagle.status`'s result; the `beagle/status` notification has the same shape without `results`. */
export type StatusPayload = Status;

/** Messages between the results webview and the extension. */
export type ToWebview =
  | { type: 'results'; title: string; data: ElementResults }
  | { type: 'evaluated'; requestId: number; values: (number | null)[]; error?: undefined }
  | { type: 'evaluated'; requestId: number; values?: undefined; error: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'evaluate'; requestId: number; expression: string; bindings: Record<string, number>[] };
