import { createHash, randomBytes } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import type { TIdentityPorts } from './ports';

export const CAPTCHA_TTL_MS = 5 * 60_000;

/** Number of leading zero bits of a hex digest. */
export function leadingZeroBits(hex: string): number {
  let bits = 0;
  for (const ch of hex) {
    const nibble = Number.parseInt(ch, 16);
    if (nibble === 0) {
      bits += 4;
      continue;
    }
    return bits + Math.clz32(nibble) - 28;
  }
  return bits;
}

export function powDigest(salt: string, nonce: string): string {
  return createHash('sha256').update(`${salt}:${nonce}`).digest('hex');
}

/** Solves a challenge by brute force (what the browser does in a worker; tests use it directly). */
export function solveChallenge(salt: string, difficulty: number): string {
  for (let n = 0; ; n++) {
    if (leadingZeroBits(powDigest(salt, String(n))) >= difficulty) return String(n);
  }
}

/**
 * A self-hosted proof-of-work captcha: the client must find a nonce whose SHA-256 with the
 * challenge's salt starts with `difficulty` zero bits — cheap once, expensive in bulk, no outside
 * service and no image to read. Each challenge is single use and lives 5 minutes.
 */
export async function issueChallenge(ports: TIdentityPorts, { difficulty }: { difficulty: number }) {
  const { db } = ports;
  const challenge = {
    id: newId(),
    salt: randomBytes(16).toString('hex'),
    difficulty,
    expires_at: new Date(Date.now() + CAPTCHA_TTL_MS),
    used_at: null,
  };
  await db.insertInto('captcha_challenges').values(challenge).execute();
  return {
    id: challenge.id,
    salt: challenge.salt,
    difficulty,
    algorithm: 'sha256' as const,
    expiresAt: challenge.expires_at.getTime(),
  };
}

export async function verifyChallenge({
  db,
  id,
  nonce,
}: {
  db: TDb;
  id: string;
  nonce: string;
}): Promise<void> {
  const used = await db
    .updateTable('captcha_challenges')
    .set({ used_at: new Date() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning(['salt', 'difficulty'])
    .executeTakeFirst();
  if (!used || leadingZeroBits(powDigest(used.salt, nonce)) < used.difficulty)
    throw new AppError(AppErrorCode.CAPTCHA_FAILED);
}
