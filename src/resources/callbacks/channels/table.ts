/** The key of every inbound SMS handled (provider message id or signed-request hash): a replay is refused. */
export interface SmsInboundMessageTable {
  message_key: string;
  /** UTC instant */
  received_at: string;
}

declare module '../../../core/db/types.js' {
  interface Database {
    sms_inbound_message: SmsInboundMessageTable;
  }
}
