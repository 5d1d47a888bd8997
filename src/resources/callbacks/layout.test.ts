import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Callbacks by concern (issue 36): the resource's folder and its subfolders (lists and ordering,
 * the runner, channels, offers and links), and the satellite resources around them.
 */
const RESOURCES = join('src', 'resources');
const CALLBACKS = join(RESOURCES, 'callbacks');
const SUBFOLDERS = ['ordering', 'runner', 'channels', 'offers', 'decisions'].map((name) => join(CALLBACKS, name));
const SATELLITES = [
  'callback-auto-start',
  'user-auto-accept',
  'callback-settings',
  'user-callback-offers',
  'callback-decisions',
  'list-equalization',
].map((name) => join(RESOURCES, name));
const FOLDERS = [CALLBACKS, ...SUBFOLDERS, ...SATELLITES];

const filesOf = (folder: string) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(folder, entry.name));

/** The folders a folder's modules import at run time (type-only imports, tests and test fixtures left out). */
function runtimeImports(folder: string): Set<string> {
  const imported = new Set<string>();
  for (const file of filesOf(folder).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('test-fixtures.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^import (?!type )[^;]*? from '(\.{1,2}\/[^']+)'/gms)) {
      const target = dirname(normalize(join(folder, match[1]!)));
      if (target !== folder) imported.add(target);
    }
  }
  return imported;
}

describe('callbacks by concern', () => {
  // tests are left out: a test of any folder may drive the runner, which imports the others
  it('no import cycle between the modules of the callbacks folders and their satellites', () => {
    const graph = new Map(
      FOLDERS.map((folder) => [folder, [...runtimeImports(folder)].filter((f) => FOLDERS.includes(f))]),
    );
    const cycles: string[] = [];
    const visit = (folder: string, path: string[]) => {
      for (const next of graph.get(folder) ?? []) {
        if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else visit(next, [...path, next]);
      }
    };
    for (const folder of FOLDERS) visit(folder, [folder]);
    expect(cycles).toEqual([]);
  });

  it("the callbacks repositories query only the callbacks' own tables (joined to others to read alongside)", () => {
    const own = new Set([
      'callback',
      'callback_user',
      'callback_offer',
      'sms_inbound_message',
      'callback_decision',
      'callback_decision_line',
      'callback_contact',
    ]);
    const foreign = [CALLBACKS, ...SUBFOLDERS].flatMap((folder) =>
      filesOf(folder)
        .filter((file) => file.endsWith('repository.ts'))
        .flatMap((file) =>
          [...readFileSync(file, 'utf8').matchAll(/(?:selectFrom|updateTable|insertInto|deleteFrom)\('(\w+)/g)]
            .map((m) => m[1]!)
            .filter((table) => !own.has(table))
            .map((table) => `${relative('.', file)}: ${table}`),
        ),
    );
    expect(foreign).toEqual([]);
  });

  it('every subfolder and satellite has its tests beside it', () => {
    const untested = [...SUBFOLDERS, ...SATELLITES].filter(
      (folder) => !filesOf(folder).some((f) => f.endsWith('.test.ts')),
    );
    expect(untested).toEqual([]);
  });
});
