import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { requestLocale } from '../i18n';
import { recordAudit } from '../modules/audit';
import {
  brokerFiles,
  checkFile,
  cleanAbandonedUploads,
  FILE_LIMITS,
  filesDir,
  fileUrl,
  isFilePurpose,
  MAX_UPLOAD_BYTES,
  Meter,
  mergeUpload,
  receiveChunk,
  recordStoredFile,
  sniffFile,
  storedFile,
  type TFilePurpose,
  uploadState,
} from '../modules/files';
import type { TServices } from './context';
import { sendData, sendError } from './envelope';
import { authenticateStaff, authenticateUpload } from './upload-auth';

type TUploadQuery = { purpose?: string; uploadId?: string; index?: string; total?: string };

/** A whole number from the query, or NaN (refused by the use case). */
const integer = (text: string | undefined) => (text && /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN);

const purposeOf = (value: unknown): TFilePurpose => {
  if (!isFilePurpose(value)) throw AppError.invalid({ purpose: 'purposeInvalid' });
  return value;
};

/** Uploads a trader makes in an hour: whole files and merged chunked ones. */
const UPLOADS_PER_HOUR = 30;
/** Chunks a trader sends in an hour (a 50 MB video is 50 chunks of 1 MiB). */
const CHUNKS_PER_HOUR = 2_000;
const CLEAN_EVERY_MS = 60 * 60 * 1000;

/**
 * The trader's uploads (spec 7.2 `golbal/upload` and `golbal/merge`), each needing the trader
 * session and, when it changes something, its CSRF token:
 *
 * - `POST /api/v1/account/golbal/upload?purpose=avatar|feedback|kyc` with a whole file as the raw
 *   body: stored, typed by its content, limited by purpose; answers `{ id, mime, size, url }`.
 * - `POST /api/v1/account/golbal/upload?purpose=...&uploadId=<uuid>&index=<i>&total=<n>` with one
 *   chunk (at most 1 MiB) as the raw body: answers `{ uploadId, index, received, total }`; a chunk
 *   sent again is ignored.
 * - `GET /api/v1/account/golbal/upload?uploadId=<uuid>`: `{ uploadId, total, received: [indexes],
 *   fileId }`, so a client resumes with the chunks the server lacks.
 * - `POST /api/v1/account/golbal/merge` `{ uploadId, total, purpose }`: joins the chunks in order,
 *   answers `{ id, mime, size, url }` like a whole upload (again when repeated).
 *
 * Staff view a trader's KYC files at `GET /api/v1/admin/files/:id` (staff session, `kyc.view`,
 * same broker; audited as `kyc.file.view`), with Range requests for video. Every answer is in the
 * gateway envelope but a file.
 */
export function registerUploads(app: FastifyInstance, services: TServices) {
  const dir = filesDir(services.config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  const db = services.database.db;

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { bodyLimit: MAX_UPLOAD_BYTES + 1 }, (_request, _payload, done) =>
      done(null),
    );
    scope.post<{ Querystring: TUploadQuery }>(
      '/api/v1/account/golbal/upload',
      { bodyLimit: MAX_UPLOAD_BYTES + 1 },
      async (request, reply) => {
        const locale = requestLocale(request.headers, request.cookies);
        const id = randomUUID();
        const temp = join(dir, `${id}.part`);
        try {
          const { tenant, userId } = await authenticateUpload(services, request);
          const purpose = purposeOf(request.query.purpose);
          if (request.query.uploadId !== undefined) {
            const allowed = await services.rateLimiter.hit(
              `upload-chunk:${tenant.id}:${userId}`,
              CHUNKS_PER_HOUR,
              3_600_000,
            );
            if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
            const chunk = await receiveChunk(
              { db, dir },
              {
                tenantId: tenant.id,
                userId,
                uploadId: request.query.uploadId,
                purpose,
                index: integer(request.query.index),
                total: integer(request.query.total),
                body: request.raw,
              },
            );
            return sendData(reply, chunk, locale);
          }
          const limit = FILE_LIMITS[purpose];
          const allowed = await services.rateLimiter.hit(
            `upload:${tenant.id}:${userId}`,
            UPLOADS_PER_HOUR,
            3_600_000,
          );
          if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
          const meter = new Meter(Math.max(limit.image, limit.video));
          await pipeline(request.raw, meter, createWriteStream(temp, { mode: 0o600 }));
          const mime = checkFile(purpose, await sniffFile(temp), meter.bytes);
          await rename(temp, join(dir, id));
          await recordStoredFile(db, {
            id,
            tenantId: tenant.id,
            userId,
            purpose,
            mime,
            sizeBytes: meter.bytes,
            sha256: meter.hash.digest('hex'),
          });
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

  app.get<{ Querystring: TUploadQuery }>('/api/v1/account/golbal/upload', async (request, reply) => {
    const locale = requestLocale(request.headers, request.cookies);
    try {
      const { tenant, userId } = await authenticateUpload(services, request);
      const state = await uploadState(db, {
        tenantId: tenant.id,
        userId,
        uploadId: String(request.query.uploadId ?? ''),
      });
      return sendData(reply, state, locale);
    } catch (error) {
      return sendError(reply, error, locale);
    }
  });

  app.post<{ Body: { uploadId?: unknown; total?: unknown; purpose?: unknown } | undefined }>(
    '/api/v1/account/golbal/merge',
    async (request, reply) => {
      const locale = requestLocale(request.headers, request.cookies);
      try {
        const { tenant, userId } = await authenticateUpload(services, request);
        const body = request.body ?? {};
        const purpose = purposeOf(body.purpose);
        const allowed = await services.rateLimiter.hit(
          `upload:${tenant.id}:${userId}`,
          UPLOADS_PER_HOUR,
          3_600_000,
        );
        if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
        const file = await mergeUpload(
          { db, dir },
          {
            tenantId: tenant.id,
            userId,
            uploadId: typeof body.uploadId === 'string' ? body.uploadId : '',
            purpose,
            total: typeof body.total === 'number' ? body.total : Number.NaN,
          },
        );
        return sendData(reply, { ...file, url: fileUrl(file.id, purpose) }, locale);
      } catch (error) {
        return sendError(reply, error, locale);
      }
    },
  );

  /** Avatars are public (leaderboards and copy trading show them); other files are not served here. */
  app.get<{ Params: { id: string } }>('/files/avatar/:id', async (request, reply) => {
    const { id } = request.params;
    if (!/^[0-9a-f-]{36}$/.test(id)) return reply.code(404).send();
    const row = await storedFile(db, id);
    if (row?.purpose !== 'avatar') return reply.code(404).send();
    reply.header('content-type', row.mime);
    reply.header('content-length', String(row.size_bytes));
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.send(createReadStream(join(dir, id)));
  });

  app.get<{ Params: { id: string } }>(
    '/api/v1/admin/files/:id',
    { compress: false },
    async (request, reply) => {
      const locale = requestLocale(request.headers, request.cookies);
      try {
        const { tenant, staffId } = await authenticateStaff(services, request, 'kyc.view');
        const { id } = request.params;
        const file = /^[0-9a-f-]{36}$/.test(id)
          ? (await brokerFiles(db, { tenantId: tenant.id, ids: [id] })).get(id)
          : undefined;
        if (file?.purpose !== 'kyc') throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
        // Each look at a trader's identity documents is in the operation history; a video's
        // further ranges (seeking) are the same look.
        if (!/^bytes=0*[1-9]/.test(request.headers.range ?? ''))
          await recordAudit(db, {
            tenantId: tenant.id,
            actorKind: 'staff',
            actorId: staffId,
            action: 'kyc.file.view',
            target: id,
            ip: request.ip,
            details: { userId: file.userId, mime: file.mime },
          });
        return sendFile(
          reply,
          { path: join(dir, id), id, mime: file.mime, size: file.bytes },
          request.headers.range,
        );
      } catch (error) {
        return sendError(reply, error, locale);
      }
    },
  );

  // Chunks of uploads abandoned for a day go, on every instance, hourly (the first pass a minute in).
  const clean = () =>
    cleanAbandonedUploads({ db, dir }).catch((error: unknown) =>
      app.log.warn({ err: error }, 'abandoned uploads not cleaned'),
    );
  const first = setTimeout(clean, 60_000);
  const hourly = setInterval(clean, CLEAN_EVERY_MS);
  first.unref();
  hourly.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(hourly);
  });
}

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'video/mp4': 'mp4',
  'video/x-msvideo': 'avi',
};

/**
 * A stored file for viewing in the browser: its recorded type (never sniffed again by the
 * browser), inline, not cached, and one byte range when asked (video seeking).
 */
function sendFile(
  reply: FastifyReply,
  file: { path: string; id: string; mime: string; size: number },
  range: string | undefined,
) {
  reply.header('content-type', file.mime);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-disposition', `inline; filename="${file.id}.${EXTENSION[file.mime] ?? 'bin'}"`);
  reply.header('cache-control', 'private, no-store');
  reply.header('accept-ranges', 'bytes');
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && match && (match[1] || match[2])) {
    const suffix = !match[1];
    let start = suffix ? Math.max(0, file.size - Number(match[2])) : Number(match[1]);
    let end = suffix || !match[2] ? file.size - 1 : Math.min(Number(match[2]), file.size - 1);
    if (start >= file.size || start > end) {
      reply.header('content-range', `bytes */${file.size}`);
      return reply.code(416).send();
    }
    start = Math.max(0, start);
    end = Math.max(start, end);
    reply.code(206);
    reply.header('content-range', `bytes ${start}-${end}/${file.size}`);
    reply.header('content-length', String(end - start + 1));
    return reply.send(createReadStream(file.path, { start, end }));
  }
  reply.header('content-length', String(file.size));
  return reply.send(createReadStream(file.path));
}
