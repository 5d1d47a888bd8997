import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The browser tests that drive the board's screens on whichever engine runs: on PostgreSQL they are left
 * out (docs/decisions/0034-browser-tests-on-sqlite.md), every request they make being tested on both
 * engines through HTTP. The live board (board-day-live) stays: its change feed differs by engine.
 * SCREEN_TESTS_ON_POSTGRES=1 runs them there too.
 */
const SCREEN_TESTS = [
  'test/e2e/webapp.test.ts',
  'test/e2e/board-actions.test.ts',
  'test/e2e/board-axe-keyboard.test.ts',
  'test/e2e/board-keyboard.test.ts',
  'test/e2e/callback-board.test.ts',
  'test/e2e/offers.test.ts',
  'test/e2e/push.test.ts',
  'test/e2e/settings-masked.test.ts',
  'test/e2e/time-off-queue.test.ts',
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'client/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.TEST_DATABASE_URL && !process.env.SCREEN_TESTS_ON_POSTGRES ? SCREEN_TESTS : []),
    ],
    pool: 'forks',
    // Test files mostly wait (servers, fsync, child processes): one worker per core keeps every
    // core busy, where vitest's default (cores - 1) runs one file at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs its test files one after another in one process, importing the app once rather
    // than once per file: the SQLite suite 191 → 157 s here, 5m17 → 3m31 of CPU. Each file still
    // starts its own server on its own database; a file that changes the environment gives it back
    // (vi.stubEnv, then vi.unstubAllEnvs in afterAll).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // expect.poll waits on a browser or a worker that, on a loaded CI machine, takes seconds more
    // than vitest's default second (an approval and the queue's reload, at load 16, took over 1 s).
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['test/helpers/global-setup.ts'],
    // toSucceed, toBeNotFound, toBeInvalid and toAnswer on an API response (test/helpers/matchers.ts)
    setupFiles: ['test/helpers/matchers.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
