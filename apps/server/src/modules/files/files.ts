import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';

export type TFilePurpose = 'avatar' | 'feedback' | 'kyc';
export type TFileMime = 'image/jpeg' | 'image/png' | 'video/mp4' | 'video/x-msvideo';

/**
 * Size limits (spec 5 gives 2 MB and 5 MB for images; avatars take the stricter one, feedback and
 * KYC documents the larger one; videos up to 50 MB). A purpose with a video limit of 0 takes images only.
 */
export const FILE_LIMITS = {
  avatar: { image: 2 * 1024 * 1024, video: 0 },
  feedback: { image: 5 * 1024 * 1024, video: 50 * 1024 * 1024 },
  kyc: { image: 5 * 1024 * 1024, video: 50 * 1024 * 1024 },
} as const satisfies Record<TFilePurpose, { image: number; video: number }>;

export const FILE_PURPOSES = Object.keys(FILE_LIMITS) as TFilePurpose[];
export const isFilePurpose = (value: unknown): value is TFilePurpose =>
  typeof value === 'string' && (FILE_PURPOSES as string[]).includes(value);

/**
 * Refuses a file its purpose does not take: an unknown type, a video where only images go, an
 * empty file, or one over the limit of its kind.
 */
export function checkFile(purpose: TFilePurpose, mime: TFileMime | null, bytes: number): TFileMime {
  const limit = FILE_LIMITS[purpose];
  if (!mime || bytes === 0) throw new AppError(AppErrorCode.FILE_TYPE_REFUSED);
  const max = mime.startsWith('image/') ? limit.image : limit.video;
  if (max === 0) throw new AppError(AppErrorCode.FILE_TYPE_REFUSED);
  if (bytes > max) throw new AppError(AppErrorCode.FILE_TOO_LARGE, { maxMb: Math.round(max / 1048576) });
  return mime;
}
export const MAX_UPLOAD_BYTES = FILE_LIMITS.feedback.video;

/**
 * The type of a file from its first bytes, never from its name or declared type: JPEG (FF D8 FF),
 * PNG (89 50 4E 47 0D 0A 1A 0A), MP4 ("ftyp" box at offset 4) and AVI ("RIFF" … "AVI ").
 */
export function sniffMime(head: Uint8Array): TFileMime | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(4, [0x66, 0x74, 0x79, 0x70])) return 'video/mp4';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x41, 0x56, 0x49, 0x20])) return 'video/x-msvideo';
  return null;
}

export const filesDir = (dataDir: string) => join(resolve(dataDir), 'files');

/** Counts bytes and hashes them while streaming; aborts past `limit`. */
export class Meter extends Transform {
  bytes = 0;
  readonly hash = createHash('sha256');
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      done(new AppError(AppErrorCode.FILE_TOO_LARGE, { maxMb: Math.round(this.limit / 1048576) }));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

export const fileUrl = (id: string, purpose: TFilePurpose) =>
  purpose === 'avatar' ? `/files/avatar/${id}` : `/files/${id}`;

/** Where staff view a trader's file in the back office (their session and permission). */
export const staffFileUrl = (id: string) => `/api/v1/admin/files/${id}`;

/** The type of a stored file from its first bytes (null when unknown or too short). */
export async function sniffFile(path: string): Promise<TFileMime | null> {
  const size = (await stat(path)).size;
  if (size < 12) return null;
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(16);
    await handle.read(head, 0, 16, 0);
    return sniffMime(head);
  } finally {
    await handle.close();
  }
}

/** Checks that files belong to the trader and have the purpose; answers their rows. */
export async function ownedFiles(
  db: TDb,
  {
    tenantId,
    userId,
    ids,
    purpose,
  }: { tenantId: string; userId: string; ids: string[]; purpose: TFilePurpose },
) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('stored_files')
    .select(['id', 'mime', 'size_bytes'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size) throw AppError.invalid({ attachments: 'fileUnknown' });
  return rows;
}

/**
 * The trader's files of the purpose among `ids` (another trader's, another broker's or another
 * purpose's are absent): what a use case checks before referring to uploaded files.
 */
export async function filesOf(
  db: TDb,
  {
    tenantId,
    userId,
    ids,
    purpose,
  }: { tenantId: string; userId: string; ids: readonly string[]; purpose: TFilePurpose },
): Promise<Map<string, { mime: TFileMime; bytes: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('stored_files')
    .select(['id', 'mime', 'size_bytes'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, { mime: r.mime, bytes: Number(r.size_bytes) }]));
}

/** The broker's stored files among `ids` with their owner, purpose, type and size (for staff). */
export async function brokerFiles(
  db: TDb,
  { tenantId, ids }: { tenantId: string; ids: readonly string[] },
): Promise<Map<string, { userId: string; purpose: TFilePurpose; mime: TFileMime; bytes: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('stored_files')
    .select(['id', 'user_id', 'purpose', 'mime', 'size_bytes'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      { userId: r.user_id, purpose: r.purpose, mime: r.mime, bytes: Number(r.size_bytes) },
    ]),
  );
}

/** A stored file's type, size and purpose, by id (any broker's: ids are random). */
export function storedFile(db: TDb, id: string) {
  return db
    .selectFrom('stored_files')
    .select(['mime', 'size_bytes', 'purpose'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Records a stored upload (its bytes already renamed into place under DATA_DIR/files). */
export async function recordStoredFile(
  db: TDb,
  file: {
    id: string;
    tenantId: string;
    userId: string;
    purpose: TFilePurpose;
    mime: TFileMime;
    sizeBytes: number;
    sha256: string;
  },
): Promise<void> {
  await db
    .insertInto('stored_files')
    .values({
      id: file.id,
      tenant_id: file.tenantId,
      user_id: file.userId,
      purpose: file.purpose,
      mime: file.mime,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
    })
    .execute();
}
