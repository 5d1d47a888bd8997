import { Type, type Static } from '@sinclair/typebox';
import { ShortText } from '../../core/schemas.js';

/** Groups are listed with string ids, as the sample shows. */
export const GroupResponse = Type.Object({ id: Type.String(), label: Type.String() });
export const GroupBody = Type.Object({ name: ShortText({ minLength: 1 }) });
export type GroupBody = Static<typeof GroupBody>;
