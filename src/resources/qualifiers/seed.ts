import type { DemoSeedContext } from '../../cli/seed.js';
import { createLabel } from '../labels/rules.js';
import { createList } from '../lists/rules.js';
import { addUserQualifier, MEMBERSHIPS, replaceMemberships } from '../user-memberships/rules.js';
import { createGroup } from '../groups/rules.js';
import { createQualifier } from './rules.js';

export const seedOrder = 10;

const QUALIFIERS = [
  ['Firefighter', 'FF', '#d81b60'],
  ['EMT', 'EMT', '#1e88e5'],
  ['Paramedic', 'PM', '#43a047'],
  ['Driver/Operator', 'DO', '#fb8c00'],
  ['Officer', 'OFF', '#5e35b1'],
] as const;

const LABELS = [
  ['CPT', '#CCCCCC', '#333333'],
  ['ENG', '#ff0000', '#ffffff'],
  ['Acting', '#fdd835', '#000000'],
] as const;

const GROUPS = ['A Shift', 'B Shift', 'C Shift'];

/**
 * Catalogs of the demo organization and who belongs where: everyone is a firefighter on the
 * Firefighter list and in a shift group (A/B/C in turn); paramedics and officers by role.
 */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const { db, auth, adminId, userIds } = ctx;
  const qualifierIds: number[] = [];
  for (const [name, shortcode, color] of QUALIFIERS) {
    qualifierIds.push(await createQualifier(db, auth, { name, shortcode, color, text_color: '#FFFFFF', admin_id: adminId }));
  }
  const labelIds: number[] = [];
  for (const [label, color, textColor] of LABELS) labelIds.push(await createLabel(db, auth, { label, color, text_color: textColor }));
  const groupIds: number[] = [];
  for (const name of GROUPS) groupIds.push(await createGroup(db, auth, name));
  const listIds = [
    await createList(db, auth, { name: 'Firefighter', max_consecutive_hours: 48 }),
    await createList(db, auth, { name: 'Paramedic', yearly_limit: 1560, ordering: 'hours' }),
  ];
  const [firefighter, emt, paramedic, driver, officer] = qualifierIds;
  for (const [index, userId] of userIds.entries()) {
    const isParamedic = index >= userIds.length - 3;
    const isOfficer = index <= 3;
    await addUserQualifier(db, auth, userId, { id: firefighter, ranking: 1 });
    await addUserQualifier(db, auth, userId, { id: isParamedic ? paramedic : emt, ranking: 2 });
    if (index % 3 === 1) await addUserQualifier(db, auth, userId, { id: driver, ranking: 3 });
    if (isOfficer) await addUserQualifier(db, auth, userId, { id: officer, ranking: 4 });
    await replaceMemberships(db, auth, MEMBERSHIPS.groups, userId, [groupIds[index % groupIds.length]]);
    await replaceMemberships(db, auth, MEMBERSHIPS.titles, userId, isParamedic ? listIds : [listIds[0]]);
  }
  Object.assign(ctx.shared, { qualifierIds, labelIds, listIds, groupIds });
  return { qualifiers: qualifierIds.length, labels: labelIds.length, groups: groupIds.length, lists: listIds.length };
}
