import AjvCompiler from '@fastify/ajv-compiler';

/**
 * Strict input (docs/security.md, "Strict input"). Ajv's type coercion, which Fastify turns on,
 * read `true` for an id as 1, `["x"]` for a string as "x" and `?user_id=0x10` as 16. Bodies are
 * therefore validated without coercion, and what the spec's clients may send in another form is
 * declared where it is accepted (core/schemas.ts): an id as an integer or its digits, a flag as a
 * boolean or 0/1, an empty string for a nullable field. Query strings (text by nature) keep
 * coercion for booleans and arrays, but their numbers must be plain decimal text.
 */

type Ajv = AjvCompiler.Ajv;
type DataContext = { parentData: Record<string | number, unknown>; parentDataProperty: string | number };
type KeywordValidate = ((schema: unknown, data: unknown, parentSchema: unknown, cxt?: DataContext) => boolean) & {
  errors?: unknown[];
};

const DECIMAL = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };
const FLAG_VALUES = new Map<unknown, boolean>([
  [0, false],
  [1, true],
  ['0', false],
  ['1', true],
  ['false', false],
  ['true', true],
]);

function replace(cxt: DataContext | undefined, value: unknown): void {
  if (cxt) cxt.parentData[cxt.parentDataProperty] = value;
}

/**
 * `numericText: 'integer' | 'number'`: decimal text is read as the number (then minimum/maximum apply); other text is
 * refused.
 */
const numericText: KeywordValidate = (kind, data, _parent, cxt) => {
  if (typeof data !== 'string') return true;
  const type = kind === 'number' ? 'number' : 'integer';
  if (!DECIMAL[type].test(data)) {
    numericText.errors = [{ keyword: 'type', params: { type }, message: `must be ${type}` }];
    return false;
  }
  replace(cxt, Number(data));
  return true;
};

/** `flag: true`: 0/1 ("0"/"1", "true"/"false"; the schema's enum lists them) is read as the boolean. */
const flag: KeywordValidate = (_schema, data, _parent, cxt) => {
  const value = FLAG_VALUES.get(data);
  if (value !== undefined) replace(cxt, value);
  return true;
};

/** `emptyAsNull: true`: an empty string is read as null (a nullable field cleared). */
const emptyAsNull: KeywordValidate = (_schema, data, _parent, cxt) => {
  if (data === '') replace(cxt, null);
  return true;
};

/** Adds the keywords above to an Ajv instance (Fastify's, and core/validate.ts's). */
export function strictInputKeywords(ajv: Pick<Ajv, 'addKeyword'>): void {
  ajv.addKeyword({
    keyword: 'numericText',
    modifying: true,
    errors: true,
    schemaType: 'string',
    validate: numericText as never,
  });
  ajv.addKeyword({ keyword: 'flag', modifying: true, errors: false, schemaType: 'boolean', validate: flag as never });
  ajv.addKeyword({
    keyword: 'emptyAsNull',
    modifying: true,
    errors: false,
    schemaType: 'boolean',
    validate: emptyAsNull as never,
  });
}

type Schema = Record<string, unknown> & { type?: unknown; properties?: Record<string, Schema>; items?: Schema };

/** A query number as text: `{type: 'integer'}` → `{type: ['integer', 'string'], numericText: 'integer'}`. */
function numericAsText(schema: Schema): Schema {
  if (schema.type === 'integer' || schema.type === 'number')
    return { ...schema, type: [schema.type, 'string'], numericText: schema.type };
  if (schema.type === 'array' && schema.items) return { ...schema, items: numericAsText(schema.items) };
  return schema;
}

function strictQuerySchema(schema: Schema): Schema {
  if (!schema.properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, numericAsText(property)]),
    ),
  };
}

interface RouteSchema {
  schema: Schema;
  httpPart?: string;
}

/**
 * Fastify's validator factory (`schemaController.compilersFactory.buildValidator`): Fastify's own
 * Ajv compiler, without coercion for bodies, with decimal-only numbers in query strings, each
 * route's validator compiled on its first request.
 */
export function strictValidatorFactory() {
  const compilers = strictValidatorCompilers();
  return (externalSchemas: Record<string, unknown>, options?: ValidatorOptions) => {
    const compile = compilers(externalSchemas, options);
    return (route: RouteSchema) => compiledOnFirstUse(() => compile(route));
  };
}

type ValidatorOptions = { customOptions?: Record<string, unknown>; plugins?: unknown[] };

/** The same validators compiled at once, as Ajv gives them: what `strictValidatorFactory`'s must answer alike. */
export function strictValidatorCompilers() {
  const build = AjvCompiler();
  return (externalSchemas: Record<string, unknown>, options: ValidatorOptions = {}) => {
    const withKeywords = { ...options, plugins: [...(options.plugins ?? []), strictInputKeywords] };
    const coercing = build(externalSchemas as never, withKeywords as never) as unknown as (
      route: RouteSchema,
    ) => unknown;
    const exact = build(
      externalSchemas as never,
      { ...withKeywords, customOptions: { ...options.customOptions, coerceTypes: false } } as never,
    ) as unknown as (route: RouteSchema) => unknown;
    return (route: RouteSchema) => {
      if (route.httpPart === 'body') return exact(route);
      if (route.httpPart === 'querystring') return coercing({ ...route, schema: strictQuerySchema(route.schema) });
      return coercing(route);
    };
  };
}

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A route's validator compiled on its first request rather than before the server listens, as its
 * serializers are (lazy-serializers.ts; the measured gain is in decision 0031). It stands for
 * Ajv's validate function: Fastify reads a failed check's findings from its `errors` and, where it
 * has a `schemaEnv`, hands it the request so that it may replace the whole body (an empty text
 * read as null). strict-input.test.ts checks that it answers as Ajv's own on a corpus of inputs.
 */
function compiledOnFirstUse(compile: () => unknown): Validate {
  let validate: Validate | undefined;
  const compiled = () => (validate ??= compile() as Validate);
  const firstUse: Validate = (data, context) => {
    const check = compiled();
    const valid = context === undefined ? check(data) : check(data, context);
    firstUse.errors = check.errors;
    return valid;
  };
  Object.defineProperty(firstUse, 'schemaEnv', { get: () => compiled().schemaEnv });
  return firstUse;
}
