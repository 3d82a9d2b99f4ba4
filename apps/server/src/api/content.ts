import { groupedCountries } from '@broker/i18n/countries';
import { isLocaleCode, LOCALES } from '@broker/i18n/locales';
import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import { legalDocument, submitFeedback, type TContentPorts } from '../modules/content';
import { userActorOf } from './actors';

const contentPorts = (ctx: TCallContext): TContentPorts => ({ db: ctx.services.database.db });

/** Handlers of the portal's texts and lists (legal documents, countries, languages) and feedback. */
export const contentHandlers = {
  feedback: async (input, ctx) =>
    submitFeedback(contentPorts(ctx), {
      ...input,
      actor: userActorOf(ctx),
      locale: ctx.locale,
      userAgent: ctx.userAgent,
    }),
  countrylist: async (input, ctx) =>
    groupedCountries(input.list ?? (ctx.locale.startsWith('zh') ? 'zh' : 'en')),
  localelist: async () => LOCALES.map(({ code, iso, name, file }) => ({ code, iso, name, file })),
  legaldoc: async (input) => legalDocument(isLocaleCode(input.lang) ? input.lang : 'en', input.name),
} satisfies Partial<THandlers>;
