import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TCallContext } from '../../http/context';
import { newId } from '../../ids';
import { deviceLabel } from '../identity/account-security';

export interface TVapidKeys {
  /** Uncompressed P-256 point, base64url: what PushManager.subscribe takes as applicationServerKey. */
  publicKey: string;
  /** The private scalar, base64url (JWK "d"). */
  privateKey: string;
}

/**
 * The server's VAPID key pair for Web Push: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, else made
 * once into DATA_DIR/vapid.json (mode 600) so subscriptions survive restarts.
 */
export function loadVapidKeys(dataDir: string, env: { publicKey?: string; privateKey?: string }): TVapidKeys {
  if (env.publicKey && env.privateKey) return { publicKey: env.publicKey, privateKey: env.privateKey };
  const file = join(resolve(dataDir), 'vapid.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as TVapidKeys;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const d = privateKey.export({ format: 'jwk' }).d as string;
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x as string, 'base64url'),
    Buffer.from(jwk.y as string, 'base64url'),
  ]);
  const keys = { publicKey: point.toString('base64url'), privateKey: d };
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** Stores (or moves to this trader) the browser's subscription; one row per endpoint. */
export async function insertPushSubscription(
  ctx: TCallContext,
  userId: string,
  input: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<{ id: string }> {
  const row = await ctx.services.database.db
    .insertInto('push_subscriptions')
    .values({
      id: newId(),
      tenant_id: ctx.tenant.id,
      user_id: userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      user_agent: ctx.userAgent?.slice(0, 300) ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'endpoint']).doUpdateSet({
        user_id: userId,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        user_agent: ctx.userAgent?.slice(0, 300) ?? null,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

export async function deletePushSubscription(
  ctx: TCallContext,
  userId: string,
  input: { endpoint: string } | { id: string },
): Promise<{ deleted: number }> {
  let query = ctx.services.database.db
    .deleteFrom('push_subscriptions')
    .where('tenant_id', '=', ctx.tenant.id)
    .where('user_id', '=', userId);
  query = 'id' in input ? query.where('id', '=', input.id) : query.where('endpoint', '=', input.endpoint);
  const result = await query.executeTakeFirst();
  return { deleted: Number(result.numDeletedRows) };
}

export async function listPushSubscriptions(ctx: TCallContext, userId: string) {
  const rows = await ctx.services.database.db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'user_agent', 'created_at'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    endpoint: r.endpoint,
    device: deviceLabel(r.user_agent),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
