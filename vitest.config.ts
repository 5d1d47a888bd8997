import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'client/**/*.test.ts'],
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
