import type { AuthContext } from './auth/context.js';
import { type Db, withTransaction } from './db/transaction.js';
import { created, ok } from './schemas.js';

/**
 * Handlers of the plain write routes: one rule call in one transaction, answered with the success
 * envelope. A message is fixed text or made from what the route was sent.
 */
type Message<A extends unknown[]> = string | ((...args: A) => string);

const say = <A extends unknown[]>(message: Message<A>, ...args: A) =>
  typeof message === 'string' ? message : message(...args);

/** POST: `create(trx, auth, body)` returns the new id; answers 201 `created(message, { id })`. */
export const createdWithId =
  <B>(db: Db, create: (trx: Db, auth: AuthContext, body: B) => Promise<number>, message: Message<[B]>) =>
  async (request: { auth: AuthContext; body: B }, reply: { status(code: 201): unknown }) => {
    const id = await withTransaction(db, (trx) => create(trx, request.auth, request.body));
    reply.status(201);
    return created(say(message, request.body), { id });
  };

/** PATCH/PUT of the record `:id`: `change(trx, auth, id, body)`; answers `ok(message)` with the id. */
export const changedWithId =
  <B>(
    db: Db,
    change: (trx: Db, auth: AuthContext, id: number, body: B) => Promise<unknown>,
    message: Message<[B, number]>,
  ) =>
  async (request: { auth: AuthContext; params: { id: number }; body: B }) => {
    await withTransaction(db, (trx) => change(trx, request.auth, request.params.id, request.body));
    return { ...ok(say(message, request.body, request.params.id)), id: request.params.id };
  };

/** DELETE of the record `:id`: `remove(trx, auth, id)`; answers `ok(message)`, made from what it returns and the id. */
export const deletedOk =
  <R>(db: Db, remove: (trx: Db, auth: AuthContext, id: number) => Promise<R>, message: Message<[R, number]>) =>
  async (request: { auth: AuthContext; params: { id: number } }) => {
    const removed = await withTransaction(db, (trx) => remove(trx, request.auth, request.params.id));
    return ok(say(message, removed, request.params.id));
  };
