import { randomBytes } from 'node:crypto';
import type { TDb } from '../../db/database';
import { newToken, sha256 } from '../../ids';

/** A fresh AES-256 key for a session's trade-token request (base64). */
const newCipherKey = (): string => randomBytes(32).toString('base64');

export type TSubjectKind = 'user' | 'staff';

export interface TSessionPolicy {
  idleSeconds: number;
  absoluteSeconds: number;
}

/** Traders stay signed in for a week of inactivity, 30 days at most; staff for 30 minutes and 12 hours. */
export const SESSION_POLICIES: Record<TSubjectKind, TSessionPolicy> = {
  user: { idleSeconds: 7 * 24 * 3600, absoluteSeconds: 30 * 24 * 3600 },
  staff: { idleSeconds: 30 * 60, absoluteSeconds: 12 * 3600 },
};

export interface TSession {
  tokenHash: string;
  tenantId: string;
  subjectKind: TSubjectKind;
  subjectId: string;
  csrfToken: string;
  absoluteExpiresAt: Date;
  /** AES-256 key for the trade-token request; trader sessions only. */
  cipherKey: string | null;
}

type TSessionRow = Awaited<ReturnType<typeof readSession>>;

/**
 * Recently read session rows, so a burst of calls (a trader's orders, the terminal's reads) costs one
 * lookup a second instead of one per call. Keys are SHA-256 hashes of 128-bit random tokens, so rows
 * of different databases (tests run several servers in one process) never meet, and a row still
 * carries its broker, checked on every use. Sign-out, revocation and password changes forget the
 * whole cache at once (whatever connection or transaction they used); a revocation made by SQL
 * elsewhere is honoured within CACHE_MS.
 */
const CACHE_MS = 1_000;
const CACHE_LIMIT = 20_000;
const cache = new Map<string, { row: NonNullable<TSessionRow>; at: number }>();

const revocationListeners = new Set<() => void>();

/** Called after any revocation (sign-out, revoke, password change): live sockets re-check at once. */
export function onSessionsRevoked(listener: () => void): () => void {
  revocationListeners.add(listener);
  return () => revocationListeners.delete(listener);
}

/** Drops every cached session row (after any revocation) and tells the listeners. */
export function forgetSessions(_db?: TDb): void {
  cache.clear();
  for (const listener of revocationListeners) listener();
}

function readSession(db: TDb, tokenHash: string) {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function createSession({
  db,
  tenantId,
  subjectKind,
  subjectId,
  userAgent,
  ip,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  subjectKind: TSubjectKind;
  subjectId: string;
  userAgent: string | null;
  ip: string | null;
  now?: Date;
}): Promise<{ token: string; session: TSession }> {
  const token = newToken();
  const policy = SESSION_POLICIES[subjectKind];
  const session: TSession = {
    tokenHash: sha256(token),
    tenantId,
    subjectKind,
    subjectId,
    csrfToken: newToken(),
    absoluteExpiresAt: new Date(now.getTime() + policy.absoluteSeconds * 1000),
    cipherKey: subjectKind === 'user' ? newCipherKey() : null,
  };
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      tenant_id: tenantId,
      subject_kind: subjectKind,
      subject_id: subjectId,
      csrf_token: session.csrfToken,
      user_agent: userAgent?.slice(0, 400) ?? null,
      ip,
      created_at: now,
      last_seen_at: now,
      idle_expires_at: new Date(now.getTime() + policy.idleSeconds * 1000),
      absolute_expires_at: session.absoluteExpiresAt,
      cipher_key: session.cipherKey,
    })
    .execute();
  return { token, session };
}

/** The SHA-256 of recently seen cookie tokens: every call of a signed-in client looks its session up. */
const tokenHashes = new Map<string, string>();
function hashOf(token: string): string {
  let hash = tokenHashes.get(token);
  if (hash === undefined) {
    hash = sha256(token);
    if (tokenHashes.size >= CACHE_LIMIT) tokenHashes.clear();
    tokenHashes.set(token, hash);
  }
  return hash;
}

/**
 * The live session of a token, sliding its idle expiry (written at most once a minute); null when
 * missing, revoked, expired, of another kind, or of another broker.
 */
export async function findSession({
  db,
  token,
  subjectKind,
  tenantId,
  now = new Date(),
}: {
  db: TDb;
  token: string;
  subjectKind: TSubjectKind;
  tenantId: string;
  now?: Date;
}): Promise<TSession | null> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
  const tokenHash = hashOf(token);
  const hit = cache.get(tokenHash);
  let row: TSessionRow;
  if (hit && now.getTime() - hit.at < CACHE_MS) row = hit.row;
  else {
    row = await readSession(db, tokenHash);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    if (row) cache.set(tokenHash, { row, at: now.getTime() });
    else cache.delete(tokenHash);
  }
  if (!row || row.revoked_at || row.subject_kind !== subjectKind || row.tenant_id !== tenantId) return null;
  if (row.idle_expires_at <= now || row.absolute_expires_at <= now) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > 60_000) {
    const idle = new Date(now.getTime() + SESSION_POLICIES[subjectKind].idleSeconds * 1000);
    cache.delete(tokenHash);
    await db
      .updateTable('sessions')
      .set({
        last_seen_at: now,
        idle_expires_at: idle < row.absolute_expires_at ? idle : row.absolute_expires_at,
      })
      .where('token_hash', '=', row.token_hash)
      .execute();
  }
  return {
    tokenHash: row.token_hash,
    tenantId: row.tenant_id,
    subjectKind: row.subject_kind,
    subjectId: row.subject_id,
    csrfToken: row.csrf_token,
    absoluteExpiresAt: row.absolute_expires_at,
    cipherKey: row.cipher_key,
  };
}

export async function revokeSession({
  db,
  token,
  now = new Date(),
}: {
  db: TDb;
  token: string;
  now?: Date;
}): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', sha256(token)).execute();
  forgetSessions(db);
}
