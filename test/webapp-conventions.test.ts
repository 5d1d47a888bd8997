import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app (web/src) stays made of small parts: no file over 300 lines, no import cycle, and
 * every call of the API goes through the typed client (openapi-fetch in web/src/api.ts).
 */
const ROOT = resolve('web/src');
const LIMIT = 300;

const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(tsx?|css)$/.test(file))
  .map((file) => join(ROOT, file));
const modules = files.filter((file) => /\.tsx?$/.test(file));
const name = (file: string) => relative(ROOT, file);

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  allowImportingTsExtensions: true,
};

/** The files of web/src a module imports (imports, re-exports and `import type` alike). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
    return resolved && resolve(resolved).startsWith(`${ROOT}/`) ? [resolve(resolved)] : [];
  });
}

/** Every import cycle among `graph`'s nodes, each as the path that closes it (depth-first search). */
function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('web/src', () => {
  it(`has no file over ${LIMIT} lines`, () => {
    const long = files
      .map((file) => ({ file: name(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > LIMIT)
      .map(({ file, lines }) => `${file} (${lines} lines)`);
    expect(long).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map(modules.map((file) => [name(file), importsOf(file).map(name)]));
    expect(graph.get('app.tsx')?.length, 'the import graph was read').toBeGreaterThan(3);
    expect(importCycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('calls the API only through the typed client of web/src/api.ts', () => {
    const api = readFileSync(join(ROOT, 'api.ts'), 'utf8');
    expect(api).toMatch(/createClient<paths>\(/);
    const untyped = modules
      .filter((file) => name(file) !== 'api.ts')
      .filter((file) => /\bfetch\(|XMLHttpRequest|['"`]\/v1\/[^'"`]*['"`]\s*\+/.test(readFileSync(file, 'utf8')))
      .map(name);
    expect(untyped).toEqual([]);
    // api.ts itself builds no request by hand: no fetch of its own
    expect(api).not.toMatch(/\bfetch\(/);
  });
});
