import type { Insertable } from 'kysely';
import { orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { FormRow, FormSubmissionTable, FormTable } from './table.js';

export async function findFormOrThrow(db: Db, orgId: number, id: number): Promise<FormRow> {
  return orgRows(db, 'form', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('Form'));
}

export function listForms(db: Db, orgId: number): Promise<FormRow[]> {
  return orgRows(db, 'form', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

export async function insertForm(db: Db, values: Insertable<FormTable>): Promise<number> {
  const { id } = await db.insertInto('form').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function markFormDeleted(db: Db, orgId: number, id: number, deletedAt: string): Promise<void> {
  await db
    .updateTable('form')
    .set({ deleted_at: deletedAt })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function insertSubmission(db: Db, values: Insertable<FormSubmissionTable>): Promise<number> {
  const { id } = await db.insertInto('form_submission').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function listSubmissions(db: Db, orgId: number, formId: number) {
  return orgRows(db, 'form_submission', orgId).where('form_id', '=', formId).orderBy('id').execute();
}
