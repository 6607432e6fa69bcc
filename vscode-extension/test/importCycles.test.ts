// No import cycles among the extension's modules (src/**/*.ts), type-only imports included: a
// circle makes two modules one unit (neither can be read, tested or bundled without the other)
// and, for value imports, leaves one of them half-initialised at load time. Imports are read
// with TypeScript's own pre-parser (import, import type, export ... from, import()), so a
// comment or a string that looks like an import does not count.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module a relative specifier names ('./x' is x.ts or x/index.ts), else null (a package). */
function resolveRelative(from: string, specifier: string, files: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const found = [base, `${base}.ts`, join(base, 'index.ts')].find((p) => files.has(p));
  if (!found) throw new Error(`${relative(src, from)} imports ${specifier}, which is no module of src/`);
  return found;
}

/** Each module's imports of other modules of src/. */
function importGraph(): Map<string, string[]> {
  const files = new Set(tsFiles(src));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((f) => resolveRelative(file, f.fileName, files)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle of the graph, one per strongly connected component of more than one module (or
 * a module importing itself), each shown as a path back to its start. */
function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  // One concrete circle through each component: a shortest way from its first module back to it.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...members].sort()[0];
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let u = v; u !== start; u = previous.get(u)!) path.splice(1, 0, u);
          return [...path, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...component, component[0]];
  });
}

describe('the modules of src/', () => {
  it('import each other without a cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(10);
    // The check sees imports at all: extension.ts wires the others together.
    expect(graph.get(join(src, 'extension.ts'))?.length).toBeGreaterThan(3);
    expect(cycles(graph).map((c) => c.map((file) => relative(src, file)).join(' -> '))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts', '/d.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts', '/d.ts']],
      ['/d.ts', []],
      ['/e.ts', ['/e.ts']],
    ]);
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual(['/a.ts -> /b.ts -> /c.ts -> /a.ts', '/e.ts -> /e.ts']);
  });
});
