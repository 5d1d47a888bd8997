import type { Generated, Selectable } from 'kysely';

export interface FormTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  /** JSON text: FormField[] */
  fields: string;
  created_by: number | null;
  /** The creator's name as it was when the form was made (GET /forms/ shows a string). */
  created_by_name: string;
  /** UTC instant */
  created_at: string;
  deleted_at: string | null;
}

export interface FormSubmissionTable {
  id: Generated<number>;
  organization_id: number;
  form_id: number;
  user_id: number;
  /** UTC instant */
  submitted_at: string;
  /** JSON text: SubmissionAnswer[] in the form's field order */
  answers: string;
}

export type FormRow = Selectable<FormTable>;
export type FormSubmissionRow = Selectable<FormSubmissionTable>;

declare module '../../core/db/types.js' {
  interface Database {
    form: FormTable;
    form_submission: FormSubmissionTable;
  }
}
