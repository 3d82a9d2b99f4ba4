import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import webpush, { WebPushError } from 'web-push';
import type { TDb } from '../../db/database';
import type { TVapidKeys } from './push';

/**
 * Sends Web Push messages (RFC 8030, payload encrypted per RFC 8291, signed per RFC 8292 VAPID) to
 * the push services of a trader's subscribed browsers.
 */
export class WebPushSender {
  private readonly agent: Agent;
  constructor(
    private readonly vapid: TVapidKeys,
    /** The VAPID contact (`mailto:` or https URL) push services may use to reach the operator. */
    private readonly subject: string,
    /** Extra certificate authorities (PEM) trusted for push services: a private one, or a test's. */
    extraCa: string | undefined,
    /** The push services' hosts (each with its subdomains) the server may post to (PUSH_SERVICE_HOSTS). */
    private readonly serviceHosts: readonly string[],
  ) {
    this.agent = new Agent({
      keepAlive: true,
      ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}),
    });
  }

  /** Sends one message; answers whether the subscription is gone (404/410: to be forgotten). */
  async send(
    subscription: { endpoint: string; p256dh: string; auth: string },
    payload: string,
    options: { ttlSeconds: number; topic?: string },
  ): Promise<'sent' | 'gone'> {
    // an endpoint outside the known push services (an internal address above all) is never called
    if (!pushServiceAllowed(subscription.endpoint, this.serviceHosts)) return 'gone';
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: { subject: this.subject, ...this.vapid },
          TTL: options.ttlSeconds,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
          timeout: 10_000,
          agent: this.agent,
          ...(options.topic ? { topic: options.topic } : {}),
        },
      );
      return 'sent';
    } catch (error) {
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410))
        return 'gone';
      throw error;
    }
  }

  close() {
    this.agent.destroy();
  }
}

/** Whether an endpoint is an https URL on one of the push services' hosts (or their subdomains). */
export function pushServiceAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/**
 * Sends a message to every subscribed browser of a trader; subscriptions their push service says are
 * gone are deleted. Answers how many browsers it reached; a failing one is logged, not thrown.
 */
export async function pushToUser(
  ports: { db: TDb; sender: WebPushSender; log: { warn(details: object, message: string): void } },
  input: { tenantId: string; userId: string; payload: string; ttlSeconds: number; topic?: string },
): Promise<number> {
  const subscriptions = await ports.db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('tenant_id', '=', input.tenantId)
    .where('user_id', '=', input.userId)
    .execute();
  const outcomes = await Promise.all(
    subscriptions.map(async (subscription) => {
      try {
        return {
          id: subscription.id,
          outcome: await ports.sender.send(subscription, input.payload, {
            ttlSeconds: input.ttlSeconds,
            ...(input.topic ? { topic: input.topic } : {}),
          }),
        };
      } catch (error) {
        ports.log.warn({ err: error, subscription: subscription.id }, 'web push not delivered');
        return { id: subscription.id, outcome: 'failed' as const };
      }
    }),
  );
  const gone = outcomes.filter((o) => o.outcome === 'gone').map((o) => o.id);
  if (gone.length > 0) await ports.db.deleteFrom('push_subscriptions').where('id', 'in', gone).execute();
  return outcomes.filter((o) => o.outcome === 'sent').length;
}
