import type { Command } from 'commander';
import { recordedCallbackIds } from '../resources/callbacks/decisions/repository.js';
import { replayCallback, type Replay } from '../resources/callback-decisions/replay.js';
import { findOrganization } from '../resources/organizations/repository.js';
import { commandGroup, type CliContext } from './context.js';

/** One callback's replay in words. */
function replayText(replay: Replay): string {
  if (!replay.recorded) return `callback #${replay.callback_id}: ${replay.notes.join('; ')}`;
  const order = replay.stored_order.map((id) => `#${id}`).join(', ') || 'nobody';
  const head = `callback #${replay.callback_id} (${replay.ordering}): ${order}`;
  const lines = [replay.identical ? `${head}: identical` : `${head}: DIFFERENT`];
  for (const difference of replay.differences) lines.push(`  - ${difference}`);
  for (const note of replay.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

/**
 * `callbacks replay`: orders each callback's list again from its decision record's stored inputs and
 * rules, and from the inputs as the database holds them now (src/resources/callback-decisions/replay.ts);
 * exits 1 when any differs.
 */
export function registerCallbackCommands(program: Command, cli: CliContext): void {
  commandGroup(program, 'callbacks', 'callbacks')
    .command('replay')
    .description("recompute each callback's contact order from its stored inputs and from today's, print differences")
    .requiredOption('--org <id>', 'organization id')
    .option('--callback <id>', 'one callback (all recorded callbacks of the organization otherwise)')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; callback?: string; json?: boolean }) => {
      await cli.withDatabase(async ({ db }) => {
        const organizationId = cli.orgIdFrom(options.org);
        const organization = await findOrganization(db, organizationId);
        if (!organization) throw new Error(`organization ${organizationId} does not exist`);
        const ids = options.callback
          ? [callbackIdFrom(options.callback)]
          : await recordedCallbackIds(db, organizationId);
        const replays: Replay[] = [];
        for (const id of ids) replays.push(await replayCallback(db, organizationId, organization.timezone, id));
        const different = replays.filter((r) => !r.identical);
        const summary = different.length
          ? `${different.length} of ${replays.length} callback(s) differ`
          : `${replays.length} callback(s) replayed: identical`;
        cli.print(
          { organization_id: organizationId, identical: different.length === 0, callbacks: replays },
          !!options.json,
          [...replays.map(replayText), summary].join('\n'),
        );
        if (different.length) process.exitCode = 1;
      });
    });
}

function callbackIdFrom(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1) throw new Error(`--callback must be a callback id, got "${raw}"`);
  return id;
}
