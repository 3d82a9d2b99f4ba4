import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useState } from 'react';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';

export type TKycInfo = TRouteOutput<'certinfo'>;
export type TKycState = TKycInfo['status'];
export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence'] as const;
export type TDocumentType = (typeof DOCUMENT_TYPES)[number];

export type TLoad<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; data: T };

/** The trader's verification state at both levels (certinfo). */
export function useKycInfo() {
  const { t, lang } = useI18n();
  const [load, setLoad] = useState<TLoad<TKycInfo>>({ status: 'loading' });
  const fetchInfo = useCallback(
    async (quiet = false) => {
      if (!quiet) setLoad({ status: 'loading' });
      const answer = await callRoute('certinfo', {}, lang);
      setLoad(
        answer.succeed && answer.Data
          ? { status: 'ready', data: answer.Data }
          : { status: 'failed', message: failureText(answer, t) },
      );
    },
    [lang, t],
  );
  useEffect(() => {
    void fetchInfo();
  }, [fetchInfo]);
  return { load, reload: fetchInfo, set: (data: TKycInfo) => setLoad({ status: 'ready', data }) };
}

export interface TCountry {
  code: string;
  name: string;
}

let countries: Promise<string[]> | null = null;

/**
 * The countries a trader can choose (ISO 3166 alpha-2, from the server's country list), named in the
 * reader's language by Intl.DisplayNames and sorted by its collation.
 */
export function useCountries(): TCountry[] | null {
  const { lang, intl } = useI18n();
  const [list, setList] = useState<TCountry[] | null>(null);
  useEffect(() => {
    countries ??= callRoute('countrylist', { list: 'en' }, lang).then((answer) => {
      if (!answer.succeed || !answer.Data) {
        countries = null;
        return [];
      }
      return [...new Set(answer.Data.flatMap((group) => group.data.map((c) => c.twoCharCode)))].filter((c) =>
        /^[A-Z]{2}$/.test(c),
      );
    });
    let live = true;
    void countries.then((codes) => {
      if (!live) return;
      let names: Intl.DisplayNames | null = null;
      try {
        names = new Intl.DisplayNames([intl], { type: 'region' });
      } catch {
        names = null;
      }
      const collator = new Intl.Collator(intl);
      setList(
        codes
          .map((code) => ({ code, name: names?.of(code) ?? code }))
          .sort((a, b) => collator.compare(a.name, b.name)),
      );
    });
    return () => {
      live = false;
    };
  }, [lang, intl]);
  return list;
}

/** The server's birth-date rule: a real calendar day of someone 18 to 120 years old today. */
export function birthDateProblem(value: string, now = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return true;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  const adult = Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate());
  const oldest = Date.UTC(now.getUTCFullYear() - 120, now.getUTCMonth(), now.getUTCDate());
  return !real || date.getTime() > adult || date.getTime() < oldest;
}

/** The server's document-number rule: 4 to 32 letters, digits, spaces or hyphens. */
export const DOCUMENT_NUMBER = /^[A-Za-z0-9 -]{4,32}$/;
