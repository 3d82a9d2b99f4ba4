import { fileKind, fileProblem, type TFileKind, type TFileProblem } from './upload';

export const FEEDBACK_MAX = 500;
export const MAX_IMAGES = 5;
export const MAX_VIDEOS = 1;
export const CONTACT_KEYS = ['email', 'phone', 'wechat', 'telegram'] as const;
export type TContactKey = (typeof CONTACT_KEYS)[number];
export type TContacts = Record<TContactKey, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contact methods given, trimmed; empty ones are left out. */
export function givenContacts(contacts: TContacts): Partial<TContacts> {
  const given: Partial<TContacts> = {};
  for (const key of CONTACT_KEYS) {
    const value = contacts[key].trim();
    if (value) given[key] = value;
  }
  return given;
}

/** Translation keys of the problems the server would find: no contact at all, a malformed email. */
export function feedbackProblems(
  text: string,
  contacts: TContacts,
): Partial<Record<'text' | 'contacts' | 'email', string>> {
  const problems: Partial<Record<'text' | 'contacts' | 'email', string>> = {};
  if (text.length > FEEDBACK_MAX) problems.text = 'validation.feedbackTooLong';
  const given = givenContacts(contacts);
  if (Object.keys(given).length === 0) problems.contacts = 'validation.contactRequired';
  if (given.email && !EMAIL.test(given.email)) problems.email = 'validation.email';
  return problems;
}

export type TPicked<F> = {
  accepted: { file: F; kind: TFileKind }[];
  refused: { file: F; problem: TFileProblem }[];
};

/**
 * Sorts newly chosen files into those to upload and those refused (wrong type, too large, or past
 * 5 images and 1 video together with the attachments already there).
 */
export function pickAttachments<F extends { name: string; type: string; size: number }>(
  files: F[],
  existing: { images: number; videos: number },
): TPicked<F> {
  let images = existing.images;
  let videos = existing.videos;
  const picked: TPicked<F> = { accepted: [], refused: [] };
  for (const file of files) {
    const problem = fileProblem(file, 'feedback');
    const kind = fileKind(file);
    // fileProblem refuses every file without a kind.
    if (problem || !kind) {
      picked.refused.push({ file, problem: problem ?? { key: 'validation.invalid' } });
      continue;
    }
    if ((kind === 'image' && images >= MAX_IMAGES) || (kind === 'video' && videos >= MAX_VIDEOS)) {
      picked.refused.push({ file, problem: { key: 'validation.tooManyAttachments' } });
      continue;
    }
    if (kind === 'image') images++;
    else videos++;
    picked.accepted.push({ file, kind });
  }
  return picked;
}
