import type { TDb } from '../../db/database';

export type TSmsChannel = 'sms' | 'whatsapp';

export interface TSmsMessage {
  to: string;
  text: string;
  channel: TSmsChannel;
}

/** A text-message provider. Real ones (Twilio, Vonage, WhatsApp Business) plug in behind this. */
export interface TSmsProvider {
  readonly name: string;
  send(message: TSmsMessage): Promise<{ providerId: string }>;
}

export class SmsDeliveryError extends Error {}

/**
 * The built-in sandbox provider: behaves like a real gateway (a short network delay, a provider
 * message id, a permanent failure for unroutable numbers — any number ending in 0000) and writes
 * every message to the `sms_outbox` table, where developers and tests read it.
 */
export class SandboxSmsProvider implements TSmsProvider {
  readonly name = 'sandbox';
  constructor(
    private readonly db: TDb,
    private readonly delayMs = 50,
  ) {}

  async send(message: TSmsMessage): Promise<{ providerId: string }> {
    await new Promise((r) => setTimeout(r, this.delayMs));
    const providerId = `sbx_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const failed = message.to.endsWith('0000');
    await this.db
      .insertInto('sms_outbox')
      .values({
        provider_id: providerId,
        channel: message.channel,
        recipient: message.to,
        body: message.text,
        status: failed ? 'failed' : 'delivered',
      })
      .execute();
    if (failed) throw new SmsDeliveryError(`sandbox: ${message.to} is unroutable`);
    return { providerId };
  }
}

/**
 * Outside demo mode, with no real provider configured: every text is refused (the caller answers
 * "message not delivered"), so no code is stored where nobody reads it.
 */
export class UndeliverableSmsProvider implements TSmsProvider {
  readonly name = 'none';
  async send(message: TSmsMessage): Promise<{ providerId: string }> {
    throw new SmsDeliveryError(
      `no ${message.channel} provider configured (the sandbox runs in demo mode only)`,
    );
  }
}
