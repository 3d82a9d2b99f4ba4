import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deviceLabel } from '@broker/domain/identity/device-label';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';

/** What the push-subscription use cases work with: the database. */
export interface TPushPorts {
  db: TDb;
}

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

/**
 * Stores (or moves to this trader) the browser's subscription; one row per endpoint. `userAgent`
 * names the browser in the trader's list of devices.
 */
export async function insertPushSubscription(
  ports: TPushPorts,
  {
    actor,
    userAgent,
    ...input
  }: {
    actor: TActor;
    userAgent: string | null;
    endpoint: string;
    keys: { p256dh: string; auth: string };
  },
): Promise<{ id: string }> {
  const userId = actor.id;
  const row = await ports.db
    .insertInto('push_subscriptions')
    .values({
      id: newId(),
      tenant_id: actor.tenantId,
      user_id: userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'endpoint']).doUpdateSet({
        user_id: userId,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        user_agent: userAgent?.slice(0, 300) ?? null,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** Removes one of the trader's subscriptions, by endpoint or by id. */
export async function deletePushSubscription(
  ports: TPushPorts,
  { actor, ...input }: { actor: TActor } & ({ endpoint: string } | { id: string }),
): Promise<{ deleted: number }> {
  let query = ports.db
    .deleteFrom('push_subscriptions')
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', actor.id);
  query = 'id' in input ? query.where('id', '=', input.id) : query.where('endpoint', '=', input.endpoint);
  const result = await query.executeTakeFirst();
  return { deleted: Number(result.numDeletedRows) };
}

/** The trader's subscriptions (browsers), newest first. */
export async function listPushSubscriptions(ports: TPushPorts, { actor }: { actor: TActor }) {
  const rows = await ports.db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'user_agent', 'created_at'])
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', actor.id)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    endpoint: r.endpoint,
    device: deviceLabel(r.user_agent),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
