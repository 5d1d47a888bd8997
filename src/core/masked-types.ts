import type { AuthContext } from './auth/context.js';

/*
 * Masked time off types (docs/time-off.md#masked-types): time off of a masked type (sick leave,
 * family leave) shows its type only to those who may see it, admins and the person; everyone
 * else (members, calendar feeds, printed boards) sees "Off" or the type's public name. Every
 * response that names a time off's type names it through visibleTimeOffType.
 */

/** Who reads a time off. */
export interface TimeOffViewer {
  /** admins (web app) and the organization's API credentials see every type */
  seesEveryType: boolean;
  /** the reading user (a web app member): they see the type of their own time off */
  userId: number | null;
}

/** A reader who is nobody in particular: a calendar feed (its URL is shared), a printed board. */
export const PUBLIC_VIEWER: TimeOffViewer = { seesEveryType: false, userId: null };

/** The viewer of a /v1 request: an API credential or an admin's session sees every type, a member's session its own. */
export function timeOffViewer(auth: AuthContext): TimeOffViewer {
  const user = auth.sessionUser;
  if (!user) return { seesEveryType: true, userId: null };
  return { seesEveryType: user.isAdmin, userId: user.userId };
}

/** A key telling apart viewers who may see different things (responses kept in a cache carry it). */
export const viewerKey = (viewer: TimeOffViewer): string =>
  viewer.seesEveryType ? 'all' : `user:${viewer.userId ?? 'none'}`;

/** What a masked type shows as: its public name, else "Off". */
export const publicNameOf = (type: { public_name: string | null }): string => type.public_name ?? 'Off';

/** The colours a masked type shows in: the same for every masked type, so that a colour tells nothing. */
export const MASKED_COLOR = '#6b7280';
export const MASKED_TEXT_COLOR = '#FFFFFF';

/** A time off's type as responses name it (id 0 when masked: no type to look up). */
export interface VisibleTimeOffType {
  id: number;
  name: string;
  work_code: string | null;
  color: string;
  text_color: string;
  /** set on masked types: what those who may not see the type see (the printed board prints it) */
  public_name?: string;
}

/** A type as the engine and the rows carry it: its names, colours and whether it is masked. */
export interface MaskableTimeOffType {
  id: number;
  name: string;
  work_code: string | null;
  color: string;
  text_color: string;
  masked: boolean;
  /** null: "Off" */
  public_name: string | null;
}

/** Whether the viewer sees the type of the user's time off. */
export function seesTimeOffType(viewer: TimeOffViewer, ownerId: number, type: { masked: boolean }): boolean {
  return !type.masked || viewer.seesEveryType || viewer.userId === ownerId;
}

/**
 * A time off item as JSON: as those who see its type see it and, on a masked type, as everyone
 * else does (`publicJson`); maskedJsonArray picks per viewer (GET /schedule keeps both, rendered once).
 */
export interface MaskedJson {
  userId: number;
  json: string;
  publicJson: string | undefined;
}

/** The items as a JSON array, each as the viewer may see it. */
export function maskedJsonArray(items: MaskedJson[], viewer: TimeOffViewer): string {
  const shown = items.map((item) =>
    item.publicJson === undefined || seesTimeOffType(viewer, item.userId, { masked: true })
      ? item.json
      : item.publicJson,
  );
  return `[${shown.join(',')}]`;
}

/**
 * THE rule: the type of a user's time off as the viewer may see it. A type that is not masked, or
 * a viewer who may see it, gets the type (with `public_name` when masked); anyone else gets the
 * public name, no work code, no id and the masked colours.
 */
export function visibleTimeOffType(
  viewer: TimeOffViewer,
  entry: { user_id: number },
  type: MaskableTimeOffType,
): VisibleTimeOffType {
  const { id, name, work_code, color, text_color } = type;
  if (!type.masked) return { id, name, work_code, color, text_color };
  const public_name = publicNameOf(type);
  if (seesTimeOffType(viewer, entry.user_id, type)) return { id, name, work_code, color, text_color, public_name };
  return { id: 0, name: public_name, work_code: null, color: MASKED_COLOR, text_color: MASKED_TEXT_COLOR, public_name };
}

/** The type of a time off type row, in the shape visibleTimeOffType reads. */
export function maskableOfRow(row: {
  id: number;
  label: string;
  work_code: string | null;
  primary_color: string;
  secondary_color: string;
  masked: number;
  public_name: string | null;
}): MaskableTimeOffType {
  return {
    id: row.id,
    name: row.label,
    work_code: row.work_code,
    color: row.primary_color,
    text_color: row.secondary_color,
    masked: row.masked === 1,
    public_name: row.public_name,
  };
}
