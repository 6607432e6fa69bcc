// BeagleClient with a fake LanguageClient: which binary and arguments it starts, the
// initializationOptions it sends, the status asked at start, errors, restart and the
// showMessage hook. Guards against start-up hangs with short timeouts.

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, messages, reset } from './fakeVscode';

const lc = vi.hoisted(() => {
  const instances: FakeLanguageClient[] = [];
  let startError: Error | null = null;
  class FakeLanguageClient {
    state = 1; // Stopped
    stopped = false;
    handlers = new Map<string, (p: unknown) => void>();
    requests: { command: string; arguments: unknown[] }[] = [];
    constructor(
      readonly id: string,
      readonly name: string,
      readonly serverOptions: { run: { command: string; args: string[]; transport: number } },
      readonly clientOptions: { initializationOptions: Record<string, unknown>; documentSelector: unknown[] },
    ) {
      instances.push(this);
    }
    onNotification(type: string | { method: string }, handler: (p: unknown) => void) {
      this.handlers.set(typeof type === 'string' ? type : type.method, handler);
      return { dispose() {} };
    }
    onDidChangeState() {
      return { dispose() {} };
    }
    async start() {
      if (startError) throw startError;
      this.state = 2; // Running
    }
    isRunning() {
      return this.state === 2;
    }
    async stop() {
      this.state = 1;
      this.stopped = true;
    }
    async dispose() {}
    async sendRequest(_type: unknown, params: { command: string; arguments: unknown[] }) {
      this.requests.push(params);
      if (params.command === 'beagle.status') return { running: null, queued: [], last: 'x done: 1', paused: false };
      return { echoed: params.arguments };
    }
  }
  return {
    instances,
    FakeLanguageClient,
    failNextStart: (e: Error | null) => {
      startError = e;
    },
  };
});

vi.mock('vscode-languageclient/node', () => ({
  LanguageClient: lc.FakeLanguageClient,
  ExecuteCommandRequest: { type: { method: 'workspace/executeCommand' } },
  ShowMessageNotification: { type: { method: 'window/showMessage' } },
  MessageType: { Error: 1, Warning: 2, Info: 3, Log: 4 },
  State: { Stopped: 1, Running: 2, Starting: 3 },
  TransportKind: { stdio: 0 },
}));

const { BeagleClient } = await import('../src/client');

function extensionWithBinary(): string {
  const dir = mkdtempSync(join(tmpdir(), 'beagle-ext-test-'));
  const bin = join(dir, 'server', `${process.platform}-${process.arch}`);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'beagle'), '#!/bin/sh\n');
  chmodSync(join(bin, 'beagle'), 0o755);
  return dir;
}

function make(extensionPath: string) {
  const seen = { statuses: [] as unknown[], stopped: [] as string[], shown: [] as string[] };
  const client = new BeagleClient({ extensionPath } as never, {
    onStatus: (s) => void seen.statuses.push(s),
    onStopped: (r) => void seen.stopped.push(r),
    onShowMessage: (_t, m) => (seen.shown.push(m), m.includes(' done: ')),
  });
  return { client, seen };
}

const within = <T,>(p: Promise<T>, ms = 2000) =>
  Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer within ${ms} ms`)), ms))]);

beforeEach(() => {
  reset();
  lc.instances.length = 0;
  lc.failNextStart(null);
});

describe('BeagleClient', () => {
  it('starts the shipped binary as `beagle lsp` over stdio with the settings and asks the status once', async () => {
    fake.config = { seed: 3, trust: 'always' };
    const ext = extensionWithBinary();
    const { client, seen } = make(ext);
    expect(await within(client.start())).toBe(true);
    const c = lc.instances[0];
    expect(c.serverOptions.run).toEqual({ command: join(ext, 'server', `${process.platform}-${process.arch}`, 'beagle'), args: ['lsp'], transport: 0 });
    expect(c.clientOptions.initializationOptions).toEqual({
      trustedWorkspace: true,
      launchPolicy: 'allow',
      statusNotifications: true,
      diagramCommand: 'beagle.vscode.showSeffDiagram',
      geneticProgramming: true,
      seed: 3,
    });
    expect(c.clientOptions.documentSelector).toContainEqual({ language: 'pcm-repository' });
    expect(c.requests).toEqual([{ command: 'beagle.status', arguments: [] }]);
    expect(seen.statuses).toHaveLength(1);
    expect(await within(client.execute('beagle.pause', []))).toEqual({ echoed: [] });
  });

  it('denies launches in an untrusted workspace', async () => {
    fake.trusted = false;
    fake.config = { trust: 'always' };
    const { client } = make(extensionWithBinary());
    await within(client.start());
    expect(lc.instances[0].clientOptions.initializationOptions.launchPolicy).toBe('deny');
  });

  it('says what it tried, with Open Settings, when the setting names no binary', async () => {
    fake.config = { serverPath: '/nowhere/beagle' };
    const { client, seen } = make(extensionWithBinary());
    expect(await within(client.start())).toBe(false);
    expect(lc.instances).toHaveLength(0);
    const error = fake.calls.find((c) => c.api === 'showErrorMessage');
    expect(error?.args).toEqual([expect.stringContaining('/nowhere/beagle) does not exist'), 'Open Settings', 'Show Log']);
    expect(seen.stopped[0]).toContain('/nowhere/beagle');
    await expect(client.execute('beagle.status', [])).rejects.toThrow(/not running/);
  });

  it('reports a server that fails to start', async () => {
    lc.failNextStart(new Error('spawn EACCES'));
    const { client } = make(extensionWithBinary());
    expect(await within(client.start())).toBe(false);
    expect(messages('error')[0]).toMatch(/could not start: spawn EACCES/);
  });

  it('restarts with a new client and the new settings', async () => {
    const { client } = make(extensionWithBinary());
    await within(client.start());
    fake.config = { trust: 'never', budget: 5 };
    expect(await within(client.restart())).toBe(true);
    expect(lc.instances).toHaveLength(2);
    expect(lc.instances[0].stopped).toBe(true);
    expect(lc.instances[1].clientOptions.initializationOptions).toMatchObject({ launchPolicy: 'deny', budget: 5 });
  });

  it('routes beagle/status and lets the hook take done messages; others show as usual', async () => {
    const { client, seen } = make(extensionWithBinary());
    await within(client.start());
    const c = lc.instances[0];
    c.handlers.get('beagle/status')!({ running: null, queued: [], last: null, paused: true });
    expect(seen.statuses.at(-1)).toMatchObject({ paused: true });
    c.handlers.get('window/showMessage')!({ type: 3, message: 'Beagle: a.repository done: 2 results' });
    c.handlers.get('window/showMessage')!({ type: 1, message: 'Beagle: a.repository failed: no java' });
    expect(seen.shown).toEqual(['Beagle: a.repository done: 2 results', 'Beagle: a.repository failed: no java']);
    expect(messages()).toEqual(['Beagle: a.repository failed: no java']);
  });
});
