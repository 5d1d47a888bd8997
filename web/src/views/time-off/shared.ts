export const PENDING = 0;

export const hours = (n: number) => `${Math.round(n * 100) / 100} h`;
export const requestDate = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso))
    : 'unknown';
