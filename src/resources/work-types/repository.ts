import type { Insertable, Updateable } from 'kysely';
import { lastLivePosition, orgColumns, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import { compiledOnce } from '../../core/db/compiled-once.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import type { WorkSubtypeRow, WorkSubtypeTable, WorkTypeRow, WorkTypeTable } from './table.js';

export const DEFAULT_WORK_TYPES = [
  {
    label: 'Regular Time',
    work_code: 'REG',
    primary_color: '#3B82F6',
    secondary_color: '#FFFFFF',
    excludes_from_callback: 0,
  },
  {
    label: 'Overtime',
    work_code: 'OT',
    primary_color: '#DC2626',
    secondary_color: '#FFFFFF',
    excludes_from_callback: 0,
  },
  {
    label: 'Callback',
    work_code: 'CB',
    primary_color: '#F59E0B',
    secondary_color: '#000000',
    excludes_from_callback: 0,
  },
  { label: 'Trade', work_code: 'TRD', primary_color: '#8B5CF6', secondary_color: '#FFFFFF', excludes_from_callback: 1 },
] as const;

export async function insertDefaultWorkTypes(db: Db, organizationId: number): Promise<void> {
  await db
    .insertInto('work_type')
    .values(
      DEFAULT_WORK_TYPES.map((type, position) => ({
        ...type,
        organization_id: organizationId,
        position,
        deleted_at: null,
      })),
    )
    .execute();
}

/**
 * The work type a new entry gets when the request names none: the organization's type labelled
 * `label` (one of DEFAULT_WORK_TYPES), else its first. 422 when the organization has no work types.
 */
export async function defaultWorkTypeId(
  db: Db,
  orgId: number,
  label: (typeof DEFAULT_WORK_TYPES)[number]['label'],
): Promise<number> {
  const types = await orgColumns(db, 'work_type', orgId, ['id', 'label'])
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const type = types.find((t) => t.label.toLowerCase() === label.toLowerCase()) ?? types[0];
  if (!type) throw invalidParams('The organization has no work types: add one first (POST /work_types).');
  return type.id;
}

export function listWorkTypes(db: Db, orgId: number): Promise<WorkTypeRow[]> {
  return orgRows(db, 'work_type', orgId).where('deleted_at', 'is', null).orderBy('position').orderBy('id').execute();
}

export function findWorkType(db: Db, orgId: number, id: number): Promise<WorkTypeRow | undefined> {
  return orgRows(db, 'work_type', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findWorkTypeOrThrow(db: Db, orgId: number, id: number): Promise<WorkTypeRow> {
  return orNotFound(findWorkType(db, orgId, id), 'WorkType');
}

/** For ids named in a body: a missing work type is a 422. */
export async function findWorkTypeOrInvalid(db: Db, orgId: number, id: number): Promise<WorkTypeRow> {
  const workType = await findWorkType(db, orgId, id);
  if (!workType) throw invalidParams('The selected work type id is invalid.');
  return workType;
}

export async function nextWorkTypePosition(db: Db, orgId: number): Promise<number> {
  const last = await lastLivePosition(db, 'work_type', orgId);
  return last === null ? 0 : last + 1;
}

export async function insertWorkType(db: Db, values: Insertable<WorkTypeTable>): Promise<number> {
  const { id } = await db.insertInto('work_type').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateWorkType(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<WorkTypeTable>,
): Promise<void> {
  await updateOrgRow(db, 'work_type', orgId, id, values);
}

/** Subtypes of the given work types (all non-deleted ones when `workTypeId` is absent). */
export function listWorkSubtypes(db: Db, orgId: number, workTypeId?: number): Promise<WorkSubtypeRow[]> {
  return orgRows(db, 'work_subtype', orgId)
    .where('deleted_at', 'is', null)
    .$if(workTypeId !== undefined, (qb) => qb.where('work_type_id', '=', workTypeId!))
    .orderBy('work_type_id')
    .orderBy('id')
    .execute();
}

export function findWorkSubtype(db: Db, orgId: number, id: number): Promise<WorkSubtypeRow | undefined> {
  return orgRows(db, 'work_subtype', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findWorkSubtypeOrThrow(db: Db, orgId: number, id: number): Promise<WorkSubtypeRow> {
  return orNotFound(findWorkSubtype(db, orgId, id), 'WorkSubtype');
}

export async function insertWorkSubtype(db: Db, values: Insertable<WorkSubtypeTable>): Promise<number> {
  const { id } = await db.insertInto('work_subtype').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateWorkSubtype(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<WorkSubtypeTable>,
): Promise<void> {
  await updateOrgRow(db, 'work_subtype', orgId, id, values);
}

const liveWorkTypeQuery = compiledOnce((db: Db, orgId: number, id: number) =>
  orgRows(db, 'work_type', orgId).where('id', '=', id).where('deleted_at', 'is', null),
);

/** 422 unless the work type (and the subtype, which must belong to it) exist in the organization; the work type. */
export async function assertWorkType(
  db: Db,
  orgId: number,
  workTypeId: number,
  subtypeId: number | null,
): Promise<WorkTypeRow> {
  const [type] = await liveWorkTypeQuery(db, orgId, workTypeId);
  if (!type) throw invalidParams('The selected work type id is invalid.');
  if (subtypeId === null) return type;
  const subtype = await orgColumns(db, 'work_subtype', orgId, ['id'])
    .where('id', '=', subtypeId)
    .where('work_type_id', '=', workTypeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!subtype) throw invalidParams('The selected work subtype id is invalid.');
  return type;
}
