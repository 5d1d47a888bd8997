/** The organization's fatigue rules (migration 1680; docs/contract-rules.md, "Fatigue rules"): null = off. */
declare module '../../core/db/types.js' {
  interface OrganizationTable {
    fatigue_max_consecutive_hours: number | null;
    fatigue_stretch_break_hours: import('kysely').Generated<number>;
    fatigue_rest_hours: number | null;
    fatigue_rest_after_hours: number | null;
    fatigue_rest_within_hours: number | null;
    fatigue_max_period_hours: number | null;
  }
}

export {};
