/**
 * `npm run client:generate`: writes client/src/schema.d.ts from the app's OpenAPI document
 * (see ./schema.ts). client/schema.test.ts fails while the committed file differs from it.
 */
import { writeFileSync } from 'node:fs';
import { generateSchemaText, SCHEMA_FILE } from './schema.js';

writeFileSync(SCHEMA_FILE, await generateSchemaText());
console.log(`wrote ${SCHEMA_FILE}`);
