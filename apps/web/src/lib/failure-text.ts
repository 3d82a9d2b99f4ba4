import type { TUnwrapped } from '@broker/contracts/envelope';
import type { TTranslate } from '@broker/i18n/translator';

/** What a failed call says about itself (an unwrapped answer, or the part of it a page kept). */
export type TFailure = Pick<TUnwrapped<unknown>, 'message' | 'messageKey'> & { code?: number };

/**
 * The one text of a failed call, on every page of the portal. In this order:
 * 1. The server's message. The server translates it into the language the portal asks in (the
 *    LanguageCode header), from the same catalogs, and fills in what only it knows: the minutes of a
 *    lockout (`errors.-1008`), the wait before another code (`errors.-1012`), a plan's maximum
 *    (`errors.-6019`). Translating the key again here could not: such a message needs those values,
 *    and the translator throws without them.
 * 2. The portal's text for the answer's key (`messageKey`, else `errors.<code>`): the failures the
 *    portal makes itself carry a key and no message (no connection: `errors.network`; an answer that is
 *    not JSON: `errors.-9999`).
 * 3. The generic `errors.network`.
 * The back office follows the same order (its lib/failure-text.ts).
 */
export function failureText(answer: TFailure, t: TTranslate): string {
  if (answer.message) return answer.message;
  for (const key of [answer.messageKey, answer.code ? `errors.${answer.code}` : undefined]) {
    if (!key) continue;
    try {
      const text = t(key);
      if (text !== key) return text;
    } catch {
      // The text needs values that only the server has; the generic text follows.
    }
  }
  return t('errors.network');
}
