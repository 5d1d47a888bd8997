/** The scheduling contracts callbacks and trades build on besides the engine (docs/architecture.md). */
export { removeOccurrence } from '../rotations/repository.js';
export { insertShift } from '../shifts/repository.js';
