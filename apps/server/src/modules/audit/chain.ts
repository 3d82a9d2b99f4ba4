import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/** prev_hash of a broker's first entry. */
export const GENESIS_HASH = '0'.repeat(64);
const PAGE = 5_000;

/** One stored entry as the walk reads it: the stored hashes and the hash recomputed now. */
export interface TChainLink {
  id: string;
  seq: number;
  createdAt: string;
  prevHash: string;
  hash: string;
  /** audit_event_hash() of the stored columns, computed by the database at verification time. */
  recomputed: string;
}

/** Where the walk stands: the last entry that checked out (seq 0 and the genesis hash at first). */
export interface TChainCursor {
  seq: number;
  hash: string;
}

export type TChainBreak = {
  seq: number;
  id: string;
  createdAt: string;
  reason: 'content' | 'missing' | 'link';
};

/**
 * Checks links in seq order after `cursor`: each entry must hash to its stored hash (else its
 * content changed), carry the next sequence number (else entries before it were removed) and
 * name the previous entry's hash (else it was re-chained). Returns the new cursor, or the first
 * break.
 */
export function walkChain(
  links: readonly TChainLink[],
  cursor: TChainCursor,
): { cursor: TChainCursor; broken: TChainBreak | null } {
  let at = cursor;
  for (const link of links) {
    const where = { seq: link.seq, id: link.id, createdAt: link.createdAt };
    if (link.recomputed !== link.hash) return { cursor: at, broken: { ...where, reason: 'content' } };
    if (link.seq !== at.seq + 1) return { cursor: at, broken: { ...where, reason: 'missing' } };
    if (link.prevHash !== at.hash) return { cursor: at, broken: { ...where, reason: 'link' } };
    at = { seq: link.seq, hash: link.hash };
  }
  return { cursor: at, broken: null };
}

/** Reads one page of a broker's chain after `afterSeq`, with each entry's hash recomputed. */
async function readLinks(db: TDb, tenantId: string, afterSeq: number): Promise<TChainLink[]> {
  const result = await sql<{
    id: string | number;
    seq: string | number;
    created_at: Date;
    prev_hash: string;
    hash: string;
    recomputed: string;
  }>`
    select id, seq, created_at, prev_hash, hash,
      audit_event_hash(tenant_id, seq, created_at, actor_kind, actor_id, action, target, ip, details,
        prev_hash) as recomputed
    from audit_events
    where tenant_id = ${tenantId} and seq > ${afterSeq}
    order by seq
    limit ${PAGE}`.execute(db);
  return result.rows.map((row) => ({
    id: String(row.id),
    seq: Number(row.seq),
    createdAt: new Date(row.created_at).toISOString(),
    prevHash: row.prev_hash,
    hash: row.hash,
    recomputed: row.recomputed,
  }));
}

export interface TChainReport {
  intact: boolean;
  entries: number;
  headSeq: number;
  headHash: string | null;
  checkedAt: string;
  broken: TChainBreak | null;
}

/** Walks a broker's whole chain, a page at a time, and reports the first broken link. */
export async function verifyChain({ db, tenantId }: { db: TDb; tenantId: string }): Promise<TChainReport> {
  let cursor: TChainCursor = { seq: 0, hash: GENESIS_HASH };
  let entries = 0;
  for (;;) {
    const links = await readLinks(db, tenantId, cursor.seq);
    const step = walkChain(links, cursor);
    entries += step.broken ? step.cursor.seq - cursor.seq : links.length;
    if (step.broken) {
      return {
        intact: false,
        entries,
        headSeq: step.cursor.seq,
        headHash: step.cursor.seq ? step.cursor.hash : null,
        checkedAt: new Date().toISOString(),
        broken: step.broken,
      };
    }
    cursor = step.cursor;
    if (links.length < PAGE) break;
  }
  return {
    intact: true,
    entries,
    headSeq: cursor.seq,
    headHash: cursor.seq ? cursor.hash : null,
    checkedAt: new Date().toISOString(),
    broken: null,
  };
}
