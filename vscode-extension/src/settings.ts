// The extension's settings and what they become in the server's initializationOptions.
// Pure (no `vscode` import) so the trust rules are unit-tested.

export type TrustSetting = 'ask' | 'always' | 'never';
export type LaunchPolicy = 'ask' | 'allow' | 'deny';

export interface BeagleSettings {
  serverPath: string;
  budget: number | null;
  seed: number | null;
  repetitions: number | null;
  geneticProgramming: boolean;
  trust: TrustSetting;
}

/** Reads the settings through a getter (`WorkspaceConfiguration.get` in the extension, a
 * record in tests), falling back to the defaults package.json declares for bad values. */
export function readSettings(get: (key: string) => unknown): BeagleSettings {
  const num = (v: unknown, ok: (n: number) => boolean): number | null =>
    typeof v === 'number' && Number.isFinite(v) && ok(v) ? v : null;
  const trust = get('trust');
  const path = get('serverPath');
  const gp = get('geneticProgramming');
  return {
    serverPath: typeof path === 'string' ? path.trim() : '',
    budget: num(get('budget'), (n) => n > 0),
    seed: num(get('seed'), (n) => Number.isInteger(n) && n >= 0),
    repetitions: num(get('repetitions'), (n) => Number.isInteger(n) && n >= 1),
    geneticProgramming: typeof gp === 'boolean' ? gp : true,
    trust: trust === 'always' || trust === 'never' ? trust : 'ask',
  };
}

/** The policy for launching the workspace's Java code. VS Code's workspace trust wins: an
 * untrusted workspace never launches anything, whatever `beagle.trust` says. */
export function launchPolicy(trust: TrustSetting, workspaceTrusted: boolean): LaunchPolicy {
  if (!workspaceTrusted) return 'deny';
  return trust === 'always' ? 'allow' : trust === 'never' ? 'deny' : 'ask';
}

/** The extension's command that opens a SEFF's diagram from `[uri, seffId]`. */
export const DIAGRAM_COMMAND = 'beagle.vscode.showSeffDiagram';

export interface InitializationOptions {
  trustedWorkspace: boolean;
  launchPolicy: LaunchPolicy;
  statusNotifications: true;
  /** The command the server's "◇ Diagram" lens above each SEFF runs (the extension's own). */
  diagramCommand: string;
  geneticProgramming: boolean;
  seed?: number;
  budget?: number;
  repetitions?: number;
}

/** initializationOptions for `beagle lsp`. Unset numbers are left out so the server (and the
 * workspace's beagle.toml) keep their defaults. `trustedWorkspace` (the older flag: launch
 * without asking) is true only when the policy is "allow", so a server that does not know
 * `launchPolicy` yet never runs code the user did not allow. */
export function initializationOptions(s: BeagleSettings, workspaceTrusted: boolean): InitializationOptions {
  const policy = launchPolicy(s.trust, workspaceTrusted);
  const options: InitializationOptions = {
    trustedWorkspace: policy === 'allow',
    launchPolicy: policy,
    statusNotifications: true,
    diagramCommand: DIAGRAM_COMMAND,
    geneticProgramming: s.geneticProgramming,
  };
  if (s.seed !== null) options.seed = s.seed;
  if (s.budget !== null) options.budget = s.budget;
  if (s.repetitions !== null) options.repetitions = s.repetitions;
  return options;
}
