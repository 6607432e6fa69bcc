import { describe, expect, it } from 'vitest';
import { initializationOptions, launchPolicy, readSettings, type BeagleSettings } from '../src/settings';

const defaults: BeagleSettings = readSettings(() => undefined);

describe('settings', () => {
  it('has the declared defaults', () => {
    expect(defaults).toEqual({ serverPath: '', budget: null, seed: null, repetitions: null, geneticProgramming: true, trust: 'ask' });
  });

  it('drops values the server would reject', () => {
    const s = readSettings((k) => ({ budget: -3, seed: 1.5, repetitions: 0, trust: 'sometimes', geneticProgramming: 'no' })[k]);
    expect(s).toEqual(defaults);
  });

  it('maps trust to the launch policy; an untrusted workspace always denies', () => {
    expect(launchPolicy('ask', true)).toBe('ask');
    expect(launchPolicy('always', true)).toBe('allow');
    expect(launchPolicy('never', true)).toBe('deny');
    for (const t of ['ask', 'always', 'never'] as const) expect(launchPolicy(t, false)).toBe('deny');
  });
});

describe('initializationOptions', () => {
  it('passes the analysis settings and asks for status notifications', () => {
    const s = readSettings((k) => ({ budget: 30, seed: 7, repetitions: 5, geneticProgramming: false, trust: 'always' })[k]);
    expect(initializationOptions(s, true)).toEqual({
      trustedWorkspace: true,
      launchPolicy: 'allow',
      statusNotifications: true,
      diagramCommand: 'beagle.vscode.showSeffDiagram',
      geneticProgramming: false,
      seed: 7,
      budget: 30,
      repetitions: 5,
    });
  });

  it('leaves unset numbers out so the server and beagle.toml keep theirs', () => {
    const o = initializationOptions(defaults, true);
    expect(o).toEqual({ trustedWorkspace: false, launchPolicy: 'ask', statusNotifications: true, diagramCommand: 'beagle.vscode.showSeffDiagram', geneticProgramming: true });
    expect('seed' in o || 'budget' in o || 'repetitions' in o).toBe(false);
  });

  it('denies launches in an untrusted workspace even with trust "always"', () => {
    const s = { ...defaults, trust: 'always' as const };
    const o = initializationOptions(s, false);
    expect(o.launchPolicy).toBe('deny');
    expect(o.trustedWorkspace).toBe(false);
  });

  it('sends trustedWorkspace only with the allow policy', () => {
    expect(initializationOptions({ ...defaults, trust: 'never' }, true).trustedWorkspace).toBe(false);
    expect(initializationOptions({ ...defaults, trust: 'ask' }, true).trustedWorkspace).toBe(false);
  });
});
