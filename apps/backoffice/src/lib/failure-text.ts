import type { TTranslate } from '@broker/i18n/translator';

/**
 * The text of a failed call in the back office, in the portal's order (apps/web/src/lib/failure-text.ts):
 * the server's message first (translated into the language the back office asks in, with the values
 * only the server knows), then the back office's own text for the failures it makes itself (no
 * connection), then a generic text. `kind` is an ApiError's: `answer`, `network` or `http`.
 */
export function failureText(error: { kind: string; message?: string }, t: TTranslate): string {
  if (error.kind === 'answer' && error.message) return error.message;
  if (error.kind === 'network') return t('admin.errors.network');
  return t('admin.errors.unexpected');
}
