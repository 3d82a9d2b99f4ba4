import type { FastifyInstance } from 'fastify';
import type { TServices } from '../http/context';
import { toScaled } from '../modules/trading';

/**
 * A hand-driven market for demos and browser tests: with `FEED=off` in demo mode, `POST
 * /dev/feed/tick { symbol, bid, ask }` (prices as decimal strings) feeds one quote as a feed would,
 * through the off-market filter, at the server's time. Never mounted otherwise (a production start
 * has no demo mode; a running feed owns the prices).
 */
export function registerDevFeed(app: FastifyInstance, services: TServices) {
  let last = 0;
  app.post<{ Body: { symbol?: unknown; bid?: unknown; ask?: unknown } }>(
    '/dev/feed/tick',
    async (request, reply) => {
      const { symbol, bid, ask } = request.body ?? {};
      const price = (v: unknown) => (typeof v === 'string' && /^\d{1,9}(\.\d{1,8})?$/.test(v) ? v : null);
      const digits = typeof symbol === 'string' ? services.engine.digits(symbol) : undefined;
      const b = price(bid);
      const a = price(ask);
      if (digits === undefined || b === null || a === null)
        return reply
          .code(400)
          .send({ success: false, message: 'symbol, bid and ask (decimal strings) are required' });
      let prices: [number, number];
      try {
        prices = [toScaled(b, digits, 'bid'), toScaled(a, digits, 'ask')];
      } catch {
        return reply.code(400).send({ success: false, message: `at most ${digits} decimals` });
      }
      if (prices[1] < prices[0]) return reply.code(400).send({ success: false, message: 'ask below bid' });
      last = Math.max(last + 1, Date.now());
      services.market.onTick({ symbol: symbol as string, time: last, bid: prices[0], ask: prices[1] });
      return { success: true };
    },
  );
}
