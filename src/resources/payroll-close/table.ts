/** The organization's closed payroll periods (migration 1800; docs/time-off.md, "Closed payroll periods"). */
declare module '../../core/db/types.js' {
  interface OrganizationTable {
    /** the last date of the last closed payroll period; null: none closed */
    payroll_closed_through: string | null;
  }
}

export {};
