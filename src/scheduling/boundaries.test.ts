import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every non-test source file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
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
    const defining =
      /export (async )?function (expandWork|expandSchedule|approvedTimeOffs|splitOccurrence|workedPieces|staffingOf)\b/;
    const outside = sources('src/resources').filter((file) => defining.test(readFileSync(file, 'utf8')));
    expect(outside).toEqual([]);
    const inside = sources('src/scheduling').filter((file) => defining.test(readFileSync(file, 'utf8')));
    expect(inside.length).toBeGreaterThanOrEqual(5);
  });
});
