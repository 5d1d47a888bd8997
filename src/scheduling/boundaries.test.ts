import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every non-test source file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

interface Import {
  file: string;
  /** the imported file, relative to the working directory (src/…) */
  target: string;
  typeOnly: boolean;
  text: string;
}

/** The relative imports of a file: import and export-from statements, and dynamic imports of a literal. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const statements = /^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']*)'|\bimport\('(\.[^']*)'\)/gm;
  return [...text.matchAll(statements)].map((match) => ({
    file,
    target: relative('.', resolve(dirname(file), (match[2] ?? match[3])!)),
    typeOnly: match[1] !== undefined,
    text: match[0].replace(/\s+/g, ' '),
  }));
}

/** The folder a file belongs to: `src/<top>` (a folder or a top-level file), `src/resources/<name>` for resources. */
function folderOf(path: string): string {
  const parts = relative('src', path).split(sep);
  return parts[0] === 'resources' && parts.length > 2 ? `resources/${parts[1]}` : parts[0]!;
}

/** The cycles of a graph: each strongly connected component of more than one node (Tarjan). */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('the scheduling engine is the one place for who works when', () => {
  it('no resource imports another resource’s expansion, schedule or splitting code', () => {
    const crossing = /from '\.\.\/[a-z-]+\/(expand|schedule|splitting|segments|work|rules)\.js'/;
    const whoWorksWhen =
      /\b(expandWork|expandSchedule|approvedTimeOffs|withoutTimeOff|segmentsOf|hoursOfEntry|workByUser)\b/;
    const offenders = sources('src/resources').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('import') && crossing.test(line) && whoWorksWhen.test(line))
        .map((line) => `${file}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the code that expands rotations and splits time off lives in src/scheduling', () => {
    const names = [
      'expandWork',
      'expandSchedule',
      'approvedTimeOffs',
      'splitOccurrence',
      'workedPieces',
      'staffingOf',
      'assignmentOccurrences',
      'occurrencesInRange',
      'dutyOn',
    ];
    const defining = new RegExp(`export (async )?function (${names.join('|')})\\b`);
    const outside = sources('src/resources').filter((file) => defining.test(readFileSync(file, 'utf8')));
    expect(outside).toEqual([]);
    const inside = sources('src/scheduling').filter((file) => defining.test(readFileSync(file, 'utf8')));
    expect(inside.length).toBeGreaterThanOrEqual(7);
  });

  it('the engine imports from src/core only, and row types from a resource’s table.ts', () => {
    const imports = sources('src/scheduling').flatMap(importsOf);
    expect(imports.length).toBeGreaterThan(20);
    const outside = imports.filter(({ target }) => !target.startsWith(join('src', 'scheduling')));
    const allowed = (i: Import) =>
      folderOf(i.target) === 'core' || (i.typeOnly && /^src\/resources\/[a-z-]+\/table\.js$/.test(i.target));
    expect(outside.filter((i) => !allowed(i)).map((i) => `${i.file}: ${i.text}`)).toEqual([]);
    // the rule is checked: the engine does name row types of resources
    expect(outside.some((i) => i.target.startsWith(join('src', 'resources')))).toBe(true);
  });

  it('every statement of the engine is in scheduling/reads.ts', () => {
    const querying = /\b(selectFrom|insertInto|updateTable|deleteFrom|executeQuery|sql`)/;
    const files = sources('src/scheduling').filter((file) => file !== join('src', 'scheduling', 'reads.ts'));
    // the engine cache reads its stamp (a change count, not the engine's facts) on SQLite's connection itself
    const stamp = join('src', 'scheduling', 'cache.ts');
    expect(files.filter((file) => file !== stamp && querying.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('resources/schedule keeps routing and rendering only: its files stay under 500 lines', () => {
    // the reads, the rules and the keeping of periods are the engine's (lookups.ts, period-days.ts, reads.ts)
    const dir = join('src', 'resources', 'schedule');
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
    const lines = files.reduce((sum, name) => sum + readFileSync(join(dir, name), 'utf8').split('\n').length - 1, 0);
    expect(files.length).toBeGreaterThan(0);
    expect(lines).toBeLessThan(500);
  });

  it('no import cycle between the folders of src/ (src/<top>, src/resources/<name>)', () => {
    const graph = new Map<string, Set<string>>();
    const why = new Map<string, string>();
    for (const item of sources('src').flatMap(importsOf)) {
      // an `import type` is erased: it orders nothing at run time
      if (item.typeOnly || !item.target.startsWith(`src${sep}`)) continue;
      const [from, to] = [folderOf(item.file), folderOf(item.target)];
      if (from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
      why.set(`${from} -> ${to}`, `${item.file}: ${item.text}`);
    }
    expect(graph.get('scheduling')).toEqual(new Set(['core']));
    const cycles = cyclesOf(graph).map((cycle) =>
      [...why].filter(([edge]) => cycle.some((a) => cycle.some((b) => edge === `${a} -> ${b}`))).map(([, w]) => w),
    );
    expect(cycles).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });
});
