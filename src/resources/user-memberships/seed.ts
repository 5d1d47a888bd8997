import type { DemoSeedContext } from '../../core/seed.js';
import { createLabel } from '../labels/rules.js';
import { createList } from '../lists/rules.js';
import { addUserQualifier, MEMBERSHIPS, replaceMemberships } from './rules.js';
import { createGroup } from '../groups/rules.js';
import { createQualifier } from '../qualifiers/rules.js';
import { createCertification } from '../certifications/rules.js';
import { addUserCertification } from './certification-rules.js';
import { todayIn } from '../../core/time.js';
import { DEMO_ROSTER } from '../users/seed.js';

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
 * Firefighter list and in their platoon's group (A/B/C Shift); officers and drivers hold OFF and
 * DO as user qualifiers (and officers are on the Officer list); paramedics hold PM through a
 * current paramedic licence (certification `PM`) and are on the Paramedic list; the others are EMTs.
 */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const { db, auth, adminId, userIds } = ctx;
  const qualifierIds: number[] = [];
  for (const [name, shortcode, color] of QUALIFIERS) {
    qualifierIds.push(
      await createQualifier(db, auth, { name, shortcode, color, text_color: '#FFFFFF', admin_id: adminId }),
    );
  }
  const labelIds: number[] = [];
  for (const [label, color, textColor] of LABELS)
    labelIds.push(await createLabel(db, auth, { label, color, text_color: textColor }));
  const groupIds: number[] = [];
  for (const name of GROUPS) groupIds.push(await createGroup(db, auth, name));
  // a contact window (minutes to answer an offer): without one a callback started on the demo contacts nobody
  const window = { contact_window_minutes: 30 };
  const listIds = [
    await createList(db, auth, { name: 'Firefighter', max_consecutive_hours: 48, ...window }),
    await createList(db, auth, { name: 'Paramedic', yearly_limit: 1560, ordering: 'hours', ...window }),
    await createList(db, auth, { name: 'Officer', max_consecutive_hours: 48, ...window }),
  ];
  const licence = await createCertification(db, auth, {
    name: 'Paramedic licence',
    cert_id: 'PM',
    created_by: adminId,
  });
  const [firefighter, emt, , driver, officer] = qualifierIds;
  const today = todayIn(auth.timezone);
  for (const [index, userId] of userIds.entries()) {
    const held = DEMO_ROSTER[index]?.qualifiers ?? [];
    const isParamedic = held.includes('PM');
    await addUserQualifier(db, auth, userId, { id: firefighter, ranking: 1 });
    await addUserQualifier(db, auth, userId, { id: emt, ranking: 2 });
    if (held.includes('DO')) await addUserQualifier(db, auth, userId, { id: driver, ranking: 3 });
    if (held.includes('OFF')) await addUserQualifier(db, auth, userId, { id: officer, ranking: 4 });
    if (isParamedic)
      await addUserCertification(db, auth, userId, {
        id: licence,
        number: `PM-${String(4100 + index)}`,
        issued_on: today.subtract({ years: 1 + (index % 3) }).toString(),
        expires_on: today.add({ years: 1, days: index * 11 }).toString(),
      });
    const platoon = GROUPS.indexOf(`${DEMO_ROSTER[index]?.platoon ?? 'A'} Shift`);
    await replaceMemberships(db, auth, MEMBERSHIPS.groups, userId, [groupIds[platoon]!]);
    const lists = [listIds[0]!, ...(isParamedic ? [listIds[1]!] : []), ...(held.includes('OFF') ? [listIds[2]!] : [])];
    await replaceMemberships(db, auth, MEMBERSHIPS.titles, userId, lists);
  }
  Object.assign(ctx.shared, { qualifierIds, labelIds, listIds, groupIds });
  return {
    qualifiers: qualifierIds.length,
    labels: labelIds.length,
    groups: groupIds.length,
    lists: listIds.length,
    certifications: 1,
  };
}
