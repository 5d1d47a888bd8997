/** The scheduling contracts callbacks and trades build on besides the engine (docs/architecture.md). */
export { deleteException, exceptionsOf, removeOccurrence, upsertException } from '../rotations/repository.js';
export { deleteShift, insertShift, updateShift } from '../shifts/repository.js';
export { assertVacancyOpen, lockAssignment } from '../shifts/for-vacancy.js';
