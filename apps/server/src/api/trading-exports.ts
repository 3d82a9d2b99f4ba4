import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { localeEntry } from '@broker/i18n/locales';
import type { FastifyInstance } from 'fastify';
import { userActor } from '../actor';
import { COOKIE, type TServices } from '../http/context';
import { sendError } from '../http/envelope';
import { requestLocale, serverTranslator } from '../i18n';
import { findSession } from '../modules/identity';
import { dealHistory } from '../modules/trading';

/** Close reasons by machine name, for `?format=raw` (stable for scripts and integrations). */
const REASONS: Record<number, string> = {
  1: 'manual',
  2: 'stop_out',
  3: 'take_profit_or_stop_loss',
  4: 'copy_trade',
  5: 'strategy_auto_stop',
  6: 'strategy_stopped',
  7: 'account_cancelled',
};

const RAW_HEADER =
  'position_id,symbol,side,volume,open_time,open_price,close_time,close_price,hold_seconds,swap,commission,profit,close_reason';

/** One CSV field, quoted when it holds a quote, the separator or a line break. */
const cellFor = (sep: string) => (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return text.includes('"') || text.includes(sep) || text.includes('\n')
    ? `"${text.replace(/"/g, '""')}"`
    : text;
};

/**
 * `GET /api/v1/order/history.csv?account_id=&from=&to=&symbol=`: the trader's closed deals as CSV
 * (UTC ISO times, decimal strings), with the session cookie. At most 50,000 rows. The header row,
 * sides and close reasons are in the trader's language (with a byte-order mark so spreadsheet apps
 * read UTF-8), and in languages with a decimal comma the fields are separated by ';' and decimals
 * written with ','; `&format=raw` gives machine names, ',' and '.' instead, for scripts.
 */
export function registerTradingExports(app: FastifyInstance, services: TServices) {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/api/v1/order/history.csv',
    async (request, reply) => {
      const locale = requestLocale(request.headers, request.cookies);
      try {
        const tenant = await services.resolveTenant({ host: request.headers.host, hostspecific: undefined });
        const token = request.cookies[COOKIE.userToken];
        const session = token
          ? await findSession({ db: services.database.db, token, subjectKind: 'user', tenantId: tenant.id })
          : null;
        if (!session) throw new AppError(AppErrorCode.TOKEN_INVALID);
        const accountId = Number(request.query.account_id);
        if (!Number.isSafeInteger(accountId) || accountId <= 0)
          throw AppError.invalid({ account_id: 'invalid' });
        const actor = userActor({ userId: session.subjectId, tenantId: tenant.id, ip: request.ip });
        const ports = { host: services.engine, db: services.database.db };
        const to = Number(request.query.to ?? Date.now());
        const from = Number(request.query.from ?? to - 365 * 86_400_000);
        const raw = request.query.format === 'raw';
        const t = serverTranslator(locale);
        // Spreadsheets in languages that write 1,5 split CSV on ';' and read decimal commas: give
        // them that, or German Excel shows one column of text. Raw exports stay ',' and '.'.
        const decimalComma =
          !raw &&
          new Intl.NumberFormat(localeEntry(locale).iso).formatToParts(1.5).find((p) => p.type === 'decimal')
            ?.value === ',';
        const sep = decimalComma ? ';' : ',';
        const num = (value: string) => (decimalComma ? value.replace('.', ',') : value);
        const cell = cellFor(sep);
        const rows: string[] = [
          raw
            ? RAW_HEADER
            : [
                t('history.csv.position'),
                t('history.col.symbol'),
                t('history.col.side'),
                t('history.col.volume'),
                t('history.csv.openTime'),
                t('history.csv.openPrice'),
                t('history.csv.closeTime'),
                t('history.csv.closePrice'),
                t('history.csv.holdSeconds'),
                t('history.col.swap'),
                t('history.col.commission'),
                t('history.col.profit'),
                t('history.col.reason'),
              ]
                .map(cell)
                .join(sep),
        ];
        const side = (value: string) => (raw ? value : t(`history.side.${value}`));
        const reason = (value: number) =>
          raw
            ? (REASONS[value] ?? String(value))
            : REASONS[value]
              ? t(`history.reason.${value}`)
              : t('history.reason.other', { reason: value });
        for (let page = 1; page <= 250; page++) {
          const { items } = await dealHistory(ports, {
            actor,
            account_id: accountId,
            from,
            to,
            symbol: request.query.symbol || undefined,
            page,
            size: 200,
          });
          for (const d of items)
            rows.push(
              [
                d.position_id,
                d.symbol,
                side(d.side),
                num(d.volume),
                new Date(d.open_time).toISOString(),
                num(d.open_price),
                new Date(d.close_time).toISOString(),
                num(d.close_price),
                d.hold_seconds,
                num(d.swap),
                num(d.commission),
                num(d.profit),
                reason(d.close_reason),
              ]
                .map(cell)
                .join(sep),
            );
          if (items.length < 200) break;
        }
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="history-${accountId}.csv"`);
        return reply.send(`${raw ? '' : '\uFEFF'}${rows.join('\n')}\n`);
      } catch (error) {
        return sendError(reply, error, locale);
      }
    },
  );
}
