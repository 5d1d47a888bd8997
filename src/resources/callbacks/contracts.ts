/** The scheduling contracts callbacks and trades build on (docs/architecture.md). */
export { expandWork, type WorkItem } from '../rotations/expand.js';
export { removeOccurrence } from '../rotations/repository.js';
export { insertShift } from '../shifts/repository.js';
