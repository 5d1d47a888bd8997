import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findFormOrThrow, insertForm, insertSubmission, markFormDeleted } from './repository.js';
import type { CreateFormBody, FormField, SubmissionAnswer, SubmitFormBody } from './schemas.js';

export function parseFields(row: { fields: string }): FormField[] {
  return JSON.parse(row.fields) as FormField[];
}

function normalizeFields(fields: FormField[]): FormField[] {
  const seen = new Set<string>();
  return fields.map((field) => {
    const title = field.title.trim();
    if (!title) throw invalidParams('The fields title must not be blank.');
    if (seen.has(title)) throw invalidParams(`The field title "${title}" appears more than once.`);
    seen.add(title);
    return {
      title,
      multiple: field.multiple ?? false,
      required: field.required ?? false,
      ...(field.options ? { options: field.options } : {}),
    };
  });
}

export async function createForm(trx: Db, auth: AuthContext, body: CreateFormBody): Promise<number> {
  // one 422 naming every failing field
  const [creator, fields] = await checkAll([
    () => (body.user_id === undefined ? undefined : findUserOrInvalid(trx, auth.orgId, body.user_id)),
    () => normalizeFields(body.fields),
  ] as const);
  const title = body.title.trim();
  const id = await insertForm(trx, {
    organization_id: auth.orgId,
    title,
    fields: JSON.stringify(fields),
    created_by: creator?.id ?? null,
    created_by_name: creator ? fullName(creator) : `API client ${auth.clientId}`,
    created_at: nowUtc(),
    deleted_at: null,
  });
  await logAction(trx, auth, 'form.created', id, {
    description: `created form ${title}.`,
    actorUserId: creator?.id ?? null,
    after: { title, fields },
  });
  return id;
}

export async function deleteForm(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const form = await findFormOrThrow(trx, auth.orgId, id);
  await markFormDeleted(trx, auth.orgId, id, nowUtc());
  await logAction(trx, auth, 'form.deleted', id, {
    description: `deleted form ${form.title}.`,
  });
}

/** Checks answers against the form's fields and returns them in the form's field order. */
function checkAnswers(fields: FormField[], submission: SubmitFormBody['submission']): SubmissionAnswer[] {
  const byTitle = new Map(fields.map((field) => [field.title, field]));
  const given = new Map<string, SubmitFormBody['submission'][number]>();
  for (const answer of submission) {
    const title = answer.title.trim();
    const field = byTitle.get(title);
    if (!field) throw invalidParams(`The submission field "${title}" is not a field of this form.`);
    if (given.has(title)) throw invalidParams(`The submission field "${title}" is answered more than once.`);
    if (
      field.multiple
        ? answer.values === undefined || answer.value !== undefined
        : answer.value === undefined || answer.values !== undefined
    ) {
      throw invalidParams(
        `The submission field "${title}" must be answered with ` +
          `${field.multiple ? 'values (an array of strings)' : 'value (a string)'}.`,
      );
    }
    const chosen = field.multiple ? answer.values! : [answer.value!];
    if (field.options && chosen.some((value) => !field.options!.includes(value))) {
      throw invalidParams(`The submission field "${title}" must be one of: ${field.options.join(', ')}.`);
    }
    given.set(title, answer);
  }
  const answers: SubmissionAnswer[] = [];
  for (const field of fields) {
    const answer = given.get(field.title);
    if (!answer) {
      if (field.required) throw invalidParams(`The submission field "${field.title}" is required.`);
      continue;
    }
    answers.push(
      field.multiple ? { title: field.title, values: answer.values! } : { title: field.title, value: answer.value! },
    );
  }
  return answers;
}

export async function submitForm(trx: Db, auth: AuthContext, formId: number, body: SubmitFormBody): Promise<number> {
  const form = await findFormOrThrow(trx, auth.orgId, formId);
  const user = await findUserOrInvalid(trx, auth.orgId, body.user_id);
  const answers = checkAnswers(parseFields(form), body.submission);
  const id = await insertSubmission(trx, {
    organization_id: auth.orgId,
    form_id: formId,
    user_id: user.id,
    submitted_at: nowUtc(),
    answers: JSON.stringify(answers),
  });
  await writeLog(trx, auth, {
    action: 'form.submitted',
    description: `submitted form ${form.title}.`,
    actorUserId: user.id,
    entityType: 'form_submission',
    entityId: id,
    after: { form_id: formId, submission: answers },
  });
  return id;
}
