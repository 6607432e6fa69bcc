// Small text helpers over PCM (XMI) and beagle.toml files that need no server round trip.
// Pure, unit-tested.

export interface NamedElement {
  id: string;
  name: string;
}

function attribute(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[2] ?? m[3] ?? '') : null;
}

/** The components of a repository file (`<components__Repository ... id=".." entityName="..">`),
 * to choose from when the results of a whole repository are asked for. */
export function componentsIn(text: string): NamedElement[] {
  const out: NamedElement[] = [];
  for (const m of text.matchAll(/<components__Repository\b[^>]*>/g)) {
    const id = attribute(m[0], 'id');
    if (id) out.push({ id, name: attribute(m[0], 'entityName') ?? id });
  }
  return out;
}

/** The link files a beagle.toml names (`links = "..."`, as a string or a list of strings),
 * relative to its folder. The language server serves these files too. */
export function linkFilesIn(toml: string): string[] {
  const out: string[] = [];
  for (const m of toml.matchAll(/^\s*links\s*=\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/gm)) {
    for (const s of m[1].matchAll(/"([^"]*)"|'([^']*)'/g)) {
      const f = s[1] ?? s[2];
      if (f) out.push(f);
    }
  }
  return out;
}

/** A "done" message of the server (`Beagle: <label> done: ...`): the job's label, else null. */
export function doneLabel(message: string): string | null {
  const m = /^Beagle: (.+?) done: /.exec(message);
  return m ? m[1] : null;
}
