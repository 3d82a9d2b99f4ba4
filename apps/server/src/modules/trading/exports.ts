import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyInstance } from 'fastify';
import { COOKIE, type TCallContext, type TServices } from '../../http/context';
import { sendError } from '../../http/envelope';
import { requestLocale } from '../../i18n';
import { findSession } from '../identity/sessions';

const REASONS: Record<number, string> = {
  1: 'manual',
  2: 'stop_out',
  3: 'take_profit_or_stop_loss',
  4: 'copy_trade',
  5: 'strategy_auto_stop',
  6: 'strategy_stopped',
  7: 'account_cancelled',
};

const cell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * `GET /api/v1/order/history.csv?account_id=&from=&to=&symbol=`: the trader's closed deals as CSV
 * (UTC ISO times, decimal strings), with the session cookie. At most 50,000 rows.
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
        const ctx = {
          services,
          tenant,
          userSession: session,
          locale,
          ip: request.ip,
        } as unknown as TCallContext;
        const to = Number(request.query.to ?? Date.now());
        const from = Number(request.query.from ?? to - 365 * 86_400_000);
        const rows: string[] = [
          'position_id,symbol,side,volume,open_time,open_price,close_time,close_price,hold_seconds,swap,commission,profit,close_reason',
        ];
        for (let page = 1; page <= 250; page++) {
          const { items } = await services.trading.deals(ctx, {
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
                d.side,
                d.volume,
                new Date(d.open_time).toISOString(),
                d.open_price,
                new Date(d.close_time).toISOString(),
                d.close_price,
                d.hold_seconds,
                d.swap,
                d.commission,
                d.profit,
                REASONS[d.close_reason] ?? String(d.close_reason),
              ]
                .map(cell)
                .join(','),
            );
          if (items.length < 200) break;
        }
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="history-${accountId}.csv"`);
        return reply.send(`${rows.join('\n')}\n`);
      } catch (error) {
        return sendError(reply, error, locale);
      }
    },
  );
}
