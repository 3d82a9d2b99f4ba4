import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TServices } from '../../http/context';
import { sendData, sendError } from '../../http/envelope';
import { requestLocale } from '../../i18n';
import { authenticateUpload } from './upload-auth';

export type TFilePurpose = 'avatar' | 'feedback';
export type TFileMime = 'image/jpeg' | 'image/png' | 'video/mp4' | 'video/x-msvideo';

/** Size limits (spec 5 gives 2 MB and 5 MB for images; avatars take the stricter one). */
export const FILE_LIMITS = {
  avatar: { image: 2 * 1024 * 1024, video: 0 },
  feedback: { image: 5 * 1024 * 1024, video: 50 * 1024 * 1024 },
} as const;
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
class Meter extends Transform {
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

/**
 * `POST /api/v1/account/golbal/upload?purpose=avatar|feedback` with the file as the raw request
 * body (any content type): streamed to DATA_DIR/files, typed by its content, limited by purpose,
 * answered in the gateway envelope with the file id. Needs the trader session and its CSRF token.
 */
export function registerUploads(app: FastifyInstance, services: TServices) {
  const dir = filesDir(services.config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { bodyLimit: MAX_UPLOAD_BYTES + 1 }, (_request, _payload, done) =>
      done(null),
    );
    scope.post<{ Querystring: { purpose?: string } }>(
      '/api/v1/account/golbal/upload',
      { bodyLimit: MAX_UPLOAD_BYTES + 1 },
      async (request, reply) => {
        const locale = requestLocale(request.headers, request.cookies);
        const id = randomUUID();
        const temp = join(dir, `${id}.part`);
        try {
          const { tenant, userId } = await authenticateUpload(services, request);
          const purpose = request.query.purpose;
          if (purpose !== 'avatar' && purpose !== 'feedback')
            throw AppError.invalid({ purpose: 'purposeInvalid' });
          const limit = FILE_LIMITS[purpose];
          const allowed = await services.rateLimiter.hit(`upload:${tenant.id}:${userId}`, 30, 3_600_000);
          if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
          const meter = new Meter(Math.max(limit.image, limit.video));
          await pipeline(request.raw, meter, createWriteStream(temp, { mode: 0o600 }));
          const mime = await sniffFile(temp);
          if (!mime || (purpose === 'avatar' && !mime.startsWith('image/')))
            throw new AppError(AppErrorCode.FILE_TYPE_REFUSED);
          const max = mime.startsWith('image/') ? limit.image : limit.video;
          if (meter.bytes > max)
            throw new AppError(AppErrorCode.FILE_TOO_LARGE, { maxMb: Math.round(max / 1048576) });
          if (meter.bytes === 0) throw new AppError(AppErrorCode.FILE_TYPE_REFUSED);
          await rename(temp, join(dir, id));
          await services.database.db
            .insertInto('stored_files')
            .values({
              id,
              tenant_id: tenant.id,
              user_id: userId,
              purpose,
              mime,
              size_bytes: meter.bytes,
              sha256: meter.hash.digest('hex'),
            })
            .execute();
          return sendData(reply, { id, mime, size: meter.bytes, url: fileUrl(id, purpose) }, locale);
        } catch (error) {
          await rm(temp, { force: true });
          // The body may not have been read; drain it so the answer reaches the client.
          request.raw.resume();
          return sendError(reply, error, locale);
        }
      },
    );
  });

  /** Avatars are public (leaderboards and copy trading show them); other files are not served here. */
  app.get<{ Params: { id: string } }>('/files/avatar/:id', async (request, reply) => {
    const { id } = request.params;
    if (!/^[0-9a-f-]{36}$/.test(id)) return reply.code(404).send();
    const row = await services.database.db
      .selectFrom('stored_files')
      .select(['mime', 'size_bytes', 'purpose'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.purpose !== 'avatar') return reply.code(404).send();
    reply.header('content-type', row.mime);
    reply.header('content-length', String(row.size_bytes));
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.send(createReadStream(join(dir, id)));
  });
}

export const fileUrl = (id: string, purpose: TFilePurpose) =>
  purpose === 'avatar' ? `/files/avatar/${id}` : `/files/${id}`;

async function sniffFile(path: string): Promise<TFileMime | null> {
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
  services: TServices,
  {
    tenantId,
    userId,
    ids,
    purpose,
  }: { tenantId: string; userId: string; ids: string[]; purpose: TFilePurpose },
) {
  if (ids.length === 0) return [];
  const rows = await services.database.db
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

export type { FastifyRequest };
