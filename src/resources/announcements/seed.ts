import type { DemoSeedContext } from '../../core/seed.js';
import { writeBulletinBoard } from '../bulletin-board/rules.js';
import { createForm, submitForm } from '../forms/rules.js';
import { createAnnouncement } from './rules.js';

export const seedOrder = 60;

const TRUCK_CHECK = {
  title: 'Truck Check - Daily',
  fields: [
    { title: 'Apparatus', required: true, options: ['Engine 1', 'Engine 2', 'Ladder 1', 'Medic 1'] },
    { title: 'Fuel level', required: true, options: ['Full', '3/4', '1/2', 'Below 1/2'] },
    { title: 'Equipment checked', multiple: true },
    { title: 'Notes' },
  ],
};

/** Communication samples: two announcements, the bulletin board, a form with submissions. */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const { db, auth, adminId, userIds } = ctx;
  await createAnnouncement(db, auth, {
    title: 'Station 2 bay doors',
    body: '<p>The north bay door at <strong>Station 2</strong> is under repair until Friday. Use the south door.</p>',
    admin_id: adminId,
  });
  await createAnnouncement(db, auth, {
    title: 'Quarterly training',
    body:
      '<p>Hazmat refresher on the 15th, 09:00, training room. <em>Attendance required</em> for all engine ' +
      'crews.</p>',
    admin_id: adminId,
  });
  await writeBulletinBoard(db, auth, {
    admin_id: adminId,
    content:
      '<h1>Welcome to crewplan</h1><p>Trade requests need approval 48 hours ahead. Kelly days are on the ' +
      'shared calendar.</p>',
  });
  const formId = await createForm(db, auth, { ...TRUCK_CHECK, user_id: adminId });
  const answers = [
    ['Engine 1', 'Full', ['SCBA', 'Hose', 'Medical bag'], 'All good'],
    ['Ladder 1', '3/4', ['SCBA', 'Saws'], 'Chainsaw chain dull, replaced'],
    ['Medic 1', 'Full', ['Monitor', 'Oxygen', 'Drug box'], ''],
  ] as const;
  for (const [index, [apparatus, fuel, equipment, notes]] of answers.entries()) {
    await submitForm(db, auth, formId, {
      user_id: userIds[(index + 1) % userIds.length],
      submission: [
        { title: 'Apparatus', value: apparatus },
        { title: 'Fuel level', value: fuel },
        { title: 'Equipment checked', values: [...equipment] },
        ...(notes ? [{ title: 'Notes', value: notes }] : []),
      ],
    });
  }
  return { announcements: 2, forms: 1, form_submissions: answers.length };
}
