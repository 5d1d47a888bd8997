/**
 * How a test runs the server or the CLI as a process of its own: the compiled build that `npm start`
 * and `npm run cli` run, which test/helpers/global-setup.ts brings up to date before the suite. It
 * starts in a third of the time the sources take under tsx (1.9 s against 4.5–6 s on a loaded
 * 2-core machine), and a suite starts about a hundred such processes.
 */
export const SERVER_ENTRY = 'dist/server.js';
export const CLI_ENTRY = 'dist/cli/main.js';
