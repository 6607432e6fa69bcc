// The Beagle language server's commands and notifications. Their shapes are generated from the
// server's Rust types (protocol.generated.ts, checked by the server's tests so the two cannot
// drift; docs/src/lsp-extensions.md documents them). No `vscode` import: the webview and the unit
// tests use these types too.

export * from './protocol.generated';
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { ElementResults, RepositoryGraph, SeffGraph, Status } from './protocol.generated';

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

/** Messages between the diagram webview (SEFF or repository overview) and the extension. Nodes
 * are named by their key (diagram/seffModel.ts: the action's id, else a path), which both sides
 * compute from the same graph. */
export type ToDiagram =
  | { type: 'seff'; title: string; graph: SeffGraph }
  | { type: 'repository'; title: string; graph: RepositoryGraph }
  | { type: 'highlight'; key: string | null }
  | { type: 'error'; message: string }
  /** The answer to a `layout` request: ELK's layout from the extension's layout thread. */
  | {
      type: 'laidOut';
      id: number;
      layout: ElkNode;
      /** ELK's time in the thread, and the extension's from the request to the answer. */
      ms: number;
      hostMs: number;
      cached: boolean;
      warmUpRuns: number;
    }
  | { type: 'layoutFailed'; id: number; message: string };

export type DiagramAction = 'analyse' | 'results' | 'link';

export type FromDiagram =
  | { type: 'ready' }
  | { type: 'select'; key: string }
  | { type: 'action'; action: DiagramAction; key: string }
  | { type: 'openCallee'; key: string }
  | { type: 'openSeff'; uri: string; seff: string }
  | { type: 'inputs'; values: Record<string, number> }
  /** ELK's input graph, to be laid out by the extension (its layout thread is warm, the page is not). */
  | { type: 'layout'; id: number; graph: ElkNode }
  | { type: 'timing'; layoutMs: number; nodes: number; relayout: boolean };
