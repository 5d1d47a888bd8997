import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { validationMessages, type ValidationIssue } from './errors.js';
import { strictInputKeywords } from './strict-input.js';

/**
 * Checks values against a TypeBox schema outside a request (CSV rows, CLI input) as Fastify's
 * validator checks request bodies (Ajv with ajv-formats, every failing field reported), worded
 * as errors.ts words a request's failures. Returns the messages; none when the value is valid.
 */
export function compileCheck(schema: TSchema, context = 'body'): (value: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: true, allowUnionTypes: true });
  strictInputKeywords(ajv); // ids, flags and nullable fields read as in a request body
  // ajv-formats is CommonJS: under Node's ESM its default import is the module object
  const addFormats = (ajvFormats as unknown as { default: typeof ajvFormats.default }).default ?? ajvFormats;
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? [] : validationMessages((validate.errors ?? []) as ValidationIssue[], context));
}
