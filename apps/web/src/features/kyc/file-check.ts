import { AppErrorCode } from '@broker/domain/result-codes';

export type TKycMime = 'image/jpeg' | 'image/png' | 'video/mp4' | 'video/x-msvideo';
export type TAllowed = 'image' | 'video' | 'any';

/** The server's limits for KYC files (spec 5; files.ts FILE_LIMITS.kyc), until certinfo says otherwise. */
export const KYC_LIMITS = { image: 5 * 1024 * 1024, video: 50 * 1024 * 1024 };
const MB = 1024 * 1024;

/**
 * The type of a file from its first bytes, as the server decides it (files.ts sniffMime): JPEG
 * (FF D8 FF), PNG (89 50 4E 47 0D 0A 1A 0A), MP4 ("ftyp" at offset 4), AVI ("RIFF" ... "AVI ").
 * Never from the name or the browser's declared type: a renamed file is caught here, not after a
 * 50 MB upload.
 */
export function sniffMime(head: Uint8Array): TKycMime | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(4, [0x66, 0x74, 0x79, 0x70])) return 'video/mp4';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x41, 0x56, 0x49, 0x20])) return 'video/x-msvideo';
  return null;
}

/** A problem as a translation key and its values. */
export type TFileProblem = { key: string; values?: Record<string, number> };

/**
 * Whether a chosen file may be sent for this field: its content must be a JPG or PNG (images), an
 * MP4 or AVI (videos), or either where both are allowed, within the size limit of its kind.
 */
export function fileProblem(
  mime: TKycMime | null,
  size: number,
  allowed: TAllowed,
  limits: { image: number; video: number } = KYC_LIMITS,
): TFileProblem | null {
  if (!mime || size === 0)
    return {
      key:
        allowed === 'video'
          ? 'kyc.file.videoOnly'
          : allowed === 'image'
            ? 'kyc.file.imageOnly'
            : `errors.${AppErrorCode.FILE_TYPE_REFUSED}`,
    };
  const kind = mime.startsWith('image/') ? 'image' : 'video';
  if (allowed !== 'any' && kind !== allowed)
    return { key: allowed === 'video' ? 'kyc.file.videoOnly' : 'kyc.file.imageOnly' };
  const limit = limits[kind];
  if (size > limit)
    return { key: `errors.${AppErrorCode.FILE_TOO_LARGE}`, values: { maxMb: Math.round(limit / MB) } };
  return null;
}

/** Reads the first 16 bytes of a file and checks it (see fileProblem). */
export async function checkFile(
  file: Blob,
  allowed: TAllowed,
  limits?: { image: number; video: number },
): Promise<{ mime: TKycMime | null; problem: TFileProblem | null }> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const mime = sniffMime(head);
  return { mime, problem: fileProblem(mime, file.size, allowed, limits) };
}

/** What the file input offers to pick (a hint for the picker only: the content decides). */
export const ACCEPT: Record<TAllowed, string> = {
  image: 'image/jpeg,image/png,.jpg,.jpeg,.png',
  video: 'video/mp4,video/x-msvideo,video/avi,.mp4,.avi',
  any: 'image/jpeg,image/png,video/mp4,video/x-msvideo,.jpg,.jpeg,.png,.mp4,.avi',
};
