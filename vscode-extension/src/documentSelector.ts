// Which documents the language server gets: the five PCM languages, beagle.toml, and the link
// files (any *links*.toml, plus the files each beagle.toml names). Pure, unit-tested.

import * as path from 'node:path';

export const PCM_LANGUAGES = [
  'pcm-repository',
  'pcm-system',
  'pcm-usagemodel',
  'pcm-allocation',
  'pcm-resourceenvironment',
] as const;

export type Filter = { language: string } | { scheme: string; pattern: string };

/** `linkFiles`: absolute paths of link files named in beagle.toml files (posix separators are
 * fine for glob patterns on every platform VS Code runs on). */
export function documentSelector(linkFiles: string[] = []): Filter[] {
  const filters: Filter[] = PCM_LANGUAGES.map((language) => ({ language }));
  filters.push({ scheme: 'file', pattern: '**/beagle.toml' });
  filters.push({ scheme: 'file', pattern: '**/*links*.toml' });
  for (const f of new Set(linkFiles)) {
    const pattern = f.split(path.sep).join('/');
    if (!filters.some((x) => 'pattern' in x && x.pattern === pattern)) filters.push({ scheme: 'file', pattern });
  }
  return filters;
}
