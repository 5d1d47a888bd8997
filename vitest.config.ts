import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'client/**/*.test.ts'],
    pool: 'forks',
    // Test files mostly wait (servers, fsync, child processes): one worker per core keeps every
    // core busy, where vitest's default (cores - 1) runs one file at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
