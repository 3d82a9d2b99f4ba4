import type { TUnwrapped } from '@broker/contracts/envelope';
import { loadCatalog } from '@broker/i18n/catalogs';
import { createTranslator } from '@broker/i18n/translator';
import { describe, expect, it } from 'vitest';
import { failureText } from '../../src/lib/failure-text';

const en = createTranslator('en', await loadCatalog('en'));
const de = createTranslator('de', await loadCatalog('de'));

/** A refused call as the HTTP layer hands it to a page. */
function refused(fields: Partial<TUnwrapped<null>>): TUnwrapped<null> {
  return { code: -1, succeed: false, Data: null, ErrorCode: -1, message: '', ...fields };
}

describe('failureText: one text per failed call, in one order', () => {
  it('shows the server’s message first: it holds the values only the server knows', () => {
    const serverText = en('errors.-1008', { minutes: 15 });
    const answer = refused({
      code: -1008,
      ErrorCode: -1008,
      message: serverText,
      messageKey: 'errors.-1008',
    });
    expect(failureText(answer, en)).toBe('Too many failed attempts. Try again in 15 minutes.');
    // Translating the key again could not say how long: without the value the translator throws.
    expect(() => en('errors.-1008')).toThrow();
  });

  it('shows the server’s message even where the portal has a text for the code', () => {
    const answer = refused({
      code: -3015,
      ErrorCode: -3015,
      message: 'server text',
      messageKey: 'errors.-3015',
    });
    expect(failureText(answer, en)).toBe('server text');
  });

  it('translates the key of a failure the portal made itself (no message)', () => {
    expect(failureText(refused({ code: 0, messageKey: 'errors.network' }), de)).toBe(de('errors.network'));
    expect(failureText(refused({ code: 502, messageKey: 'errors.-9999' }), en)).toBe(en('errors.-9999'));
    expect(en('errors.-9999')).not.toBe('errors.-9999');
  });

  it('falls back to the code’s text, then to the generic text', () => {
    expect(failureText({ code: -1006, message: '' }, en)).toBe(en('errors.-1006'));
    expect(failureText({ code: 404, message: '', messageKey: 'errors.unknown.key' }, en)).toBe(
      en('errors.network'),
    );
    expect(failureText({ message: '' }, en)).toBe(en('errors.network'));
  });

  it('never throws for a key whose text needs values it does not have', () => {
    expect(failureText({ code: -1012, message: '', messageKey: 'errors.-1012' }, en)).toBe(
      en('errors.network'),
    );
  });
});
