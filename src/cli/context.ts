import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { AuthContext } from '../core/auth/context.js';
import type { DatabaseHandle } from '../core/db/index.js';

/** What main.ts hands the command modules it registers: the configuration and its helpers. */
export interface CliContext {
  config: Readonly<Config>;
  /** The configured database for people (engine, file or URL with the password masked). */
  database: string;
  /** Opens the configured database, migrated, for the length of fn. */
  withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T>;
  /** Prints JSON with --json, the text otherwise. */
  print(value: unknown, json: boolean, text: string): void;
  /** An --org option's organization id. */
  orgIdFrom(raw: string): number;
}

/** The program's command `name` (described by `description`), made by the first module that registers under it. */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((command) => command.name() === name) ?? program.command(name).description(description);
}

/** The CLI's own entries in the system log. */
export function cliAuth(organization: { id: number; name: string; timezone: string }): AuthContext {
  return {
    orgId: organization.id,
    orgName: organization.name,
    timezone: organization.timezone,
    clientId: 'cli',
    credentialId: 0,
  };
}
