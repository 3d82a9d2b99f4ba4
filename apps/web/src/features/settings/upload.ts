import {
  CSRF_COOKIE,
  CSRF_HEADER,
  type TEnvelope,
  type TUnwrapped,
  unwrapEnvelope,
} from '@broker/contracts/envelope';
import { AppErrorCode } from '@broker/domain/result-codes';
import { readCookie } from '../../lib/cookies';

export type TUploadPurpose = 'avatar' | 'feedback';
export type TUploaded = { id: string; mime: string; size: number; url: string };
export type TFileKind = 'image' | 'video';

const MB = 1024 * 1024;

/** The server's limits (spec 5): avatars JPG/PNG up to 2 MB; feedback images 5 MB, videos MP4/AVI 50 MB. */
export const UPLOAD_LIMITS: Record<TUploadPurpose, Record<TFileKind, number>> = {
  avatar: { image: 2 * MB, video: 0 },
  feedback: { image: 5 * MB, video: 50 * MB },
};

export const ACCEPT: Record<TUploadPurpose, string> = {
  avatar: 'image/jpeg,image/png,.jpg,.jpeg,.png',
  feedback: 'image/jpeg,image/png,video/mp4,video/x-msvideo,.jpg,.jpeg,.png,.mp4,.avi',
};

/**
 * What a chosen file claims to be, from its type or name. Only a first sorting for quick feedback:
 * the server decides by the file's content.
 */
export function fileKind(file: { name: string; type: string }): TFileKind | null {
  const type = file.type.toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (type === 'image/jpeg' || type === 'image/png' || ['jpg', 'jpeg', 'png'].includes(extension))
    return 'image';
  if (
    type === 'video/mp4' ||
    type === 'video/x-msvideo' ||
    type === 'video/avi' ||
    ['mp4', 'avi'].includes(extension)
  )
    return 'video';
  return null;
}

/** A translation key with its values. */
export type TFileProblem = { key: string; values?: Record<string, number> };

/** The server's answer for this file (its result code's message), checked before sending it. */
export function fileProblem(
  file: { name: string; type: string; size: number },
  purpose: TUploadPurpose,
): TFileProblem | null {
  const kind = fileKind(file);
  const limit = kind ? UPLOAD_LIMITS[purpose][kind] : 0;
  if (!kind || limit === 0 || file.size === 0) return { key: `errors.${AppErrorCode.FILE_TYPE_REFUSED}` };
  if (file.size > limit)
    return { key: `errors.${AppErrorCode.FILE_TOO_LARGE}`, values: { maxMb: limit / MB } };
  return null;
}

const failure = (messageKey: string): TUnwrapped<null> => ({
  code: 0,
  succeed: false,
  Data: null,
  ErrorCode: 0,
  message: '',
  messageKey,
});

/**
 * Sends one file as the raw body of `POST /api/v1/account/golbal/upload` with the session's CSRF
 * token. XMLHttpRequest rather than fetch: only it reports upload progress, which a 50 MB video
 * needs. An aborted upload answers like a network error.
 */
export function uploadFile({
  file,
  purpose,
  lang,
  onProgress,
  signal,
}: {
  file: Blob;
  purpose: TUploadPurpose;
  lang: string;
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}): Promise<TUnwrapped<TUploaded | null>> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1/account/golbal/upload?purpose=${purpose}`);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.setRequestHeader('LanguageCode', lang);
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) request.setRequestHeader(CSRF_HEADER, csrf);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      const envelope = request.response as TEnvelope<TUploaded | null> | null;
      if (!envelope || typeof envelope !== 'object') {
        resolve(failure('errors.network'));
        return;
      }
      if (request.status >= 400) console.warn('upload failed', request.status, envelope.errorCode);
      resolve(unwrapEnvelope(envelope));
    };
    request.onerror = () => {
      console.warn('Network Error', 'upload');
      resolve(failure('errors.network'));
    };
    request.onabort = () => resolve(failure('errors.network'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/** An idempotency key: random, and available on plain-HTTP origins where crypto.randomUUID is not. */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
