import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import {
  checkFile,
  FILE_LIMITS,
  isFilePurpose,
  Meter,
  recordStoredFile,
  sniffFile,
  storedFile,
  type TFileMime,
  type TFilePurpose,
} from './files';

/*
 * Resumable chunked uploads (spec 7.2 `golbal/upload` and `golbal/merge`). The client names an
 * upload with a UUID and sends its chunks in any order; a chunk sent again is ignored, so a resend
 * after a dropped connection is harmless. The database counts the chunks and bytes under a row
 * lock, so parallel requests cannot pass the purpose's limit; a merge claims the upload with a
 * compare-and-set, joins the chunks in order, types the file by its content and records it.
 */

/** The largest chunk the server takes. */
export const CHUNK_MAX_BYTES = 1024 * 1024;
/** The most chunks an upload may have (50 MB in 1 MiB chunks needs 50). */
export const MAX_CHUNKS = 1024;
/** Unfinished uploads a trader may have at once. */
export const OPEN_UPLOADS_PER_USER = 10;
/** An upload untouched this long is abandoned: its chunks are removed. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A merge claim older than this belongs to a request that died: another may take it over. */
const STALE_MERGE_MS = 10 * 60 * 1000;

/** The database and the folder of stored files (DATA_DIR/files); chunks go under its `chunks/`. */
export interface TUploadPorts {
  db: TDb;
  dir: string;
}

export interface TUploadRef {
  tenantId: string;
  userId: string;
  /** The client's id of the upload (a UUID). */
  uploadId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const chunksRoot = (dir: string) => join(dir, 'chunks');
const sessionDir = (dir: string, sessionId: string) => join(dir, 'chunks', sessionId);
const maxBytes = (purpose: TFilePurpose) => Math.max(FILE_LIMITS[purpose].image, FILE_LIMITS[purpose].video);

function checkShape(input: { uploadId: string; purpose: unknown; total: unknown; index?: unknown }) {
  const fields: Record<string, string> = {};
  if (!UUID.test(input.uploadId)) fields.uploadId = 'invalid';
  if (!isFilePurpose(input.purpose)) fields.purpose = 'purposeInvalid';
  const total = input.total;
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 1 || total > MAX_CHUNKS)
    fields.total = 'invalid';
  else if (
    input.index !== undefined &&
    (typeof input.index !== 'number' ||
      !Number.isInteger(input.index) ||
      input.index < 0 ||
      input.index >= total)
  )
    fields.index = 'invalid';
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
}

const findSession = (db: TDb, ref: TUploadRef) =>
  db
    .selectFrom('upload_sessions')
    .selectAll()
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('client_id', '=', ref.uploadId);

/**
 * Stores one chunk (the raw request body, at most 1 MiB) of the trader's upload, starting the
 * upload with its first chunk. Answers how many distinct chunks the server has. Refuses a chunk
 * whose upload was started with another purpose or total, or is merged (-9103), one that would
 * take the upload past its purpose's largest file (-9006), and an 11th unfinished upload (-9003).
 */
export async function receiveChunk(
  ports: TUploadPorts,
  input: TUploadRef & { purpose: TFilePurpose; index: number; total: number; body: Readable },
): Promise<{ uploadId: string; index: number; received: number; total: number }> {
  checkShape(input);
  const { db, dir } = ports;
  const { purpose, index, total } = input;
  await mkdir(chunksRoot(dir), { recursive: true });
  const temp = join(chunksRoot(dir), `${randomUUID()}.part`);
  try {
    const meter = new Meter(CHUNK_MAX_BYTES);
    await pipeline(input.body, meter, createWriteStream(temp, { mode: 0o600 }));
    // An empty chunk is an empty file's: refused like one.
    if (meter.bytes === 0) throw new AppError(AppErrorCode.FILE_TYPE_REFUSED);
    const received = await db.transaction().execute(async (trx) => {
      let session = await findSession(trx, input).forUpdate().executeTakeFirst();
      if (!session) {
        // Counting the trader's open uploads and adding one must not interleave with another request's.
        await sql`select pg_advisory_xact_lock(hashtext(${`uploads:${input.tenantId}:${input.userId}`}))`.execute(
          trx,
        );
        const open = await trx
          .selectFrom('upload_sessions')
          .select(sql<string>`count(*)`.as('n'))
          .where('tenant_id', '=', input.tenantId)
          .where('user_id', '=', input.userId)
          .where('file_id', 'is', null)
          .where('updated_at', '>', new Date(Date.now() - ABANDONED_AFTER_MS))
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= OPEN_UPLOADS_PER_USER) throw new AppError(AppErrorCode.RATE_LIMITED);
        await trx
          .insertInto('upload_sessions')
          .values({
            id: randomUUID(),
            tenant_id: input.tenantId,
            user_id: input.userId,
            client_id: input.uploadId,
            purpose,
            total,
          })
          .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'client_id']).doNothing())
          .execute();
        session = await findSession(trx, input).forUpdate().executeTakeFirst();
      }
      if (
        !session ||
        session.purpose !== purpose ||
        session.total !== total ||
        session.file_id !== null ||
        session.merging_at !== null
      )
        throw new AppError(AppErrorCode.UPLOAD_CONFLICT);
      const added = await trx
        .insertInto('upload_chunks')
        .values({ upload_id: session.id, chunk_index: index, bytes: meter.bytes })
        .onConflict((oc) => oc.columns(['upload_id', 'chunk_index']).doNothing())
        .returning('chunk_index')
        .executeTakeFirst();
      if (!added) {
        // A resend of a chunk the server has: the first copy stays.
        await trx
          .updateTable('upload_sessions')
          .set({ updated_at: sql`now()` })
          .where('id', '=', session.id)
          .execute();
        return session.received;
      }
      const limit = maxBytes(purpose);
      if (Number(session.bytes) + meter.bytes > limit)
        throw new AppError(AppErrorCode.FILE_TOO_LARGE, { maxMb: Math.round(limit / 1048576) });
      const updated = await trx
        .updateTable('upload_sessions')
        .set({
          received: sql`received + 1`,
          bytes: sql`bytes + ${meter.bytes}`,
          updated_at: sql`now()`,
        })
        .where('id', '=', session.id)
        .returning('received')
        .executeTakeFirstOrThrow();
      // In place before the row commits; should the commit fail, a resend renames over it.
      await mkdir(sessionDir(dir, session.id), { recursive: true });
      await rename(temp, join(sessionDir(dir, session.id), String(index)));
      return updated.received;
    });
    return { uploadId: input.uploadId, index, received, total };
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Which chunks of the trader's upload the server has (sorted), the total it was started with, and
 * the stored file once merged. An unknown upload has none.
 */
export async function uploadState(
  db: TDb,
  ref: TUploadRef,
): Promise<{ uploadId: string; total: number | null; received: number[]; fileId: string | null }> {
  if (!UUID.test(ref.uploadId)) throw AppError.invalid({ uploadId: 'invalid' });
  const session = await findSession(db, ref).executeTakeFirst();
  if (!session) return { uploadId: ref.uploadId, total: null, received: [], fileId: null };
  const chunks = await db
    .selectFrom('upload_chunks')
    .select('chunk_index')
    .where('upload_id', '=', session.id)
    .orderBy('chunk_index')
    .execute();
  return {
    uploadId: ref.uploadId,
    total: session.total,
    received: session.file_id ? [] : chunks.map((c) => c.chunk_index),
    fileId: session.file_id,
  };
}

/** Forgets an upload and its chunks. */
async function dropSession(ports: TUploadPorts, sessionId: string) {
  await ports.db.deleteFrom('upload_sessions').where('id', '=', sessionId).execute();
  await rm(sessionDir(ports.dir, sessionId), { recursive: true, force: true });
}

/**
 * Joins the trader's chunks in order into a stored file of the purpose (owned by the trader),
 * typed by its content and held to the purpose's limit of that type. A merge repeated after it
 * succeeded answers the same file. Refuses a merge before every chunk arrived (-9101, with the
 * count missing), one running in another request (-9102, ask again), one whose purpose or total
 * differ from the chunks' (-9103); a refused file (-9006, -9007) ends the upload.
 */
export async function mergeUpload(
  ports: TUploadPorts,
  input: TUploadRef & { purpose: TFilePurpose; total: number },
): Promise<{ id: string; mime: TFileMime; size: number }> {
  checkShape(input);
  const { db, dir } = ports;
  const { purpose, total } = input;
  const claimed = await db
    .updateTable('upload_sessions')
    .set({ merging_at: sql`now()` })
    .where('tenant_id', '=', input.tenantId)
    .where('user_id', '=', input.userId)
    .where('client_id', '=', input.uploadId)
    .where('purpose', '=', purpose)
    .where('total', '=', total)
    .where('file_id', 'is', null)
    .where(sql<boolean>`received = total`)
    .where((eb) =>
      eb.or([eb('merging_at', 'is', null), eb('merging_at', '<', new Date(Date.now() - STALE_MERGE_MS))]),
    )
    .returning(['id'])
    .executeTakeFirst();
  if (!claimed) {
    const session = await findSession(db, input).executeTakeFirst();
    if (!session) throw new AppError(AppErrorCode.UPLOAD_INCOMPLETE, { missing: total });
    if (session.purpose !== purpose || session.total !== total)
      throw new AppError(AppErrorCode.UPLOAD_CONFLICT);
    if (session.file_id) {
      const file = await storedFile(db, session.file_id);
      if (!file) throw new AppError(AppErrorCode.UPLOAD_CONFLICT);
      return { id: session.file_id, mime: file.mime, size: Number(file.size_bytes) };
    }
    if (session.received < session.total)
      throw new AppError(AppErrorCode.UPLOAD_INCOMPLETE, { missing: session.total - session.received });
    throw new AppError(AppErrorCode.UPLOAD_BUSY);
  }
  const release = () =>
    db.updateTable('upload_sessions').set({ merging_at: null }).where('id', '=', claimed.id).execute();
  const folder = sessionDir(dir, claimed.id);
  const parts = Array.from({ length: total }, (_, index) => join(folder, String(index)));
  // A chunk whose file is gone (a disk restored from a backup, say) is asked for again.
  const lost: number[] = [];
  for (const [index, part] of parts.entries()) if (!(await stat(part).catch(() => null))) lost.push(index);
  if (lost.length > 0) {
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('upload_chunks')
        .where('upload_id', '=', claimed.id)
        .where('chunk_index', 'in', lost)
        .execute();
      await trx
        .updateTable('upload_sessions')
        .set({
          merging_at: null,
          received: sql`(select count(*) from upload_chunks where upload_id = ${claimed.id})`,
          bytes: sql`(select coalesce(sum(bytes), 0) from upload_chunks where upload_id = ${claimed.id})`,
        })
        .where('id', '=', claimed.id)
        .execute();
    });
    throw new AppError(AppErrorCode.UPLOAD_INCOMPLETE, { missing: lost.length });
  }
  const id = randomUUID();
  const temp = join(dir, `${id}.part`);
  try {
    const meter = new Meter(maxBytes(purpose));
    await pipeline(
      async function* () {
        for (const part of parts) yield* createReadStream(part);
      },
      meter,
      createWriteStream(temp, { mode: 0o600 }),
    );
    const mime = checkFile(purpose, await sniffFile(temp), meter.bytes);
    await rename(temp, join(dir, id));
    await db.transaction().execute(async (trx) => {
      await recordStoredFile(trx, {
        id,
        tenantId: input.tenantId,
        userId: input.userId,
        purpose,
        mime,
        sizeBytes: meter.bytes,
        sha256: meter.hash.digest('hex'),
      });
      await trx
        .updateTable('upload_sessions')
        .set({ file_id: id, merging_at: null, updated_at: sql`now()` })
        .where('id', '=', claimed.id)
        .execute();
      await trx.deleteFrom('upload_chunks').where('upload_id', '=', claimed.id).execute();
    });
    await rm(folder, { recursive: true, force: true });
    return { id, mime, size: meter.bytes };
  } catch (error) {
    await rm(temp, { force: true });
    // A refused file will not become acceptable: the upload ends. Anything else may pass on a retry.
    if (error instanceof AppError) await dropSession(ports, claimed.id);
    else await release();
    throw error;
  }
}

/**
 * Removes the uploads untouched for `olderThanMs` (a day) with their chunks, and chunk files no
 * upload owns any more. Safe to run on every instance at once.
 */
export async function cleanAbandonedUploads(
  ports: TUploadPorts,
  { olderThanMs = ABANDONED_AFTER_MS }: { olderThanMs?: number } = {},
): Promise<{ uploads: number; strays: number }> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const gone = await ports.db
    .deleteFrom('upload_sessions')
    .where('updated_at', '<', cutoff)
    .returning('id')
    .execute();
  for (const { id } of gone) await rm(sessionDir(ports.dir, id), { recursive: true, force: true });
  let strays = 0;
  const names = await readdir(chunksRoot(ports.dir)).catch(() => [] as string[]);
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(join(chunksRoot(ports.dir), name)).catch(() => null);
    if (info && info.mtimeMs < cutoff.getTime()) old.push(name);
  }
  const ids = old.filter((name) => UUID.test(name));
  const live = new Set(
    ids.length === 0
      ? []
      : (await ports.db.selectFrom('upload_sessions').select('id').where('id', 'in', ids).execute()).map(
          (r) => r.id,
        ),
  );
  for (const name of old) {
    if (live.has(name)) continue;
    await rm(join(chunksRoot(ports.dir), name), { recursive: true, force: true });
    strays++;
  }
  return { uploads: gone.length, strays };
}
