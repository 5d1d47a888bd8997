import type { WebhookSettings } from '../../config.js';

export type { WebhookSettings };

/** Delay before attempt n+1 after n consecutive failures: base·2^(n-1), capped. */
export function backoffDelayMs(
  settings: Pick<WebhookSettings, 'backoffBaseMs' | 'backoffMaxMs'>,
  failures: number,
): number {
  return Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, failures - 1));
}
