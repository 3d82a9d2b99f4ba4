import { randomUUID } from 'node:crypto';
import { AppErrorCode } from '@broker/domain/result-codes';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../../src/modules/identity/passwords';
import { healthOf, LocalCluster, type TInstance, until } from '../cluster';
import { Trader } from '../trader';

/**
 * Issue 20: three instances on one PostgreSQL database and one NATS, behind HAProxy. One leads the
 * engine; the others forward engine calls to it over the bus and serve the WebSockets from its
 * ticks and events. The leader is killed with SIGKILL five times while several clients stream signed
 * orders through the load balancer; every acknowledged order must be there exactly once, no account
 * may hold more margin than its equity, and the streams must go on after reconnecting.
 * PostgreSQL only: several processes cannot share an embedded PGlite.
 */
const onServer = process.env.DATABASE_URL?.startsWith('postgres') ?? false;

const SYMBOL = 'BTCUSDT';
const RETRYABLE = new Set<number>([AppErrorCode.SERVICE_UNAVAILABLE]);

/** Silence after which a stream's socket is taken for dead (the streams push several times a second). */
const SILENCE_MS = 4000;

/** A stream that reconnects when its instance dies, and counts what it receives. */
class Stream {
  received = 0;
  lastAt = 0;
  private socket: WebSocket | null = null;
  private closed = false;
  reconnects = 0;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly first: string,
    private readonly counts: (message: { type?: string }) => boolean,
  ) {
    this.open();
  }

  private open() {
    if (this.closed) return;
    const socket = new WebSocket(this.url, { headers: this.headers });
    this.socket = socket;
    // Like the portal's client (ReconnectingSocket's idle check), a socket that has gone silent is
    // dropped and opened again: one left half-open by a killed instance never closes by itself.
    let heardAt = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - heardAt > SILENCE_MS) socket.terminate();
    }, 500);
    socket.on('open', () => {
      heardAt = Date.now();
      socket.send(this.first);
    });
    socket.on('message', (data) => {
      heardAt = Date.now();
      const message = JSON.parse(String(data)) as { type?: string };
      if (this.counts(message)) {
        this.received++;
        this.lastAt = Date.now();
      }
    });
    const again = () => {
      clearInterval(watchdog);
      if (this.socket !== socket || this.closed) return;
      this.socket = null;
      this.reconnects++;
      setTimeout(() => this.open(), 200);
    };
    socket.on('close', again);
    socket.on('error', again);
  }

  close() {
    this.closed = true;
    this.socket?.terminate();
  }
}

describe.runIf(onServer)('several instances: one engine leader, failover under load', () => {
  const cluster = new LocalCluster(3, { FEED: 'simulator' });
  let databaseUrl = '';

  beforeAll(async () => {
    await cluster.start();
    databaseUrl = cluster.database;
  }, 240_000);
  afterAll(async () => cluster.stop(), 60_000);

  /** Traders of the default broker, made in the database (this test is not about registration). */
  async function traders(count: number, baseUrl: string): Promise<Trader[]> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>('select id from tenants where is_default');
      const tenantId = rows[0]?.id as string;
      const hash = await hashPassword('Cluster2026!');
      const emails: string[] = [];
      for (let i = 0; i < count; i++) {
        const email = `cluster.${randomUUID()}@example.com`;
        emails.push(email);
        await client.query(
          `insert into users (id, tenant_id, email, password_hash, display_name) values ($1, $2, $3, $4, $5)`,
          [randomUUID(), tenantId, email, hash, `Cluster ${i}`],
        );
      }
      return Promise.all(emails.map((email) => Trader.signIn(baseUrl, email, 'Cluster2026!')));
    } finally {
      await client.end();
    }
  }

  it('a standby forwards engine calls and serves both WebSockets from the leader', {
    timeout: 90_000,
  }, async () => {
    const leader = (await until(() => cluster.leader())) as TInstance;
    const standbys = cluster.instances.filter((i) => i !== leader);
    const [a, b] = standbys as [TInstance, TInstance];
    const health = await healthOf(a.baseUrl);
    expect(health?.code).toBe(200);
    expect(health?.body.parts.engine.role).toBe('standby');
    expect(health?.body.parts.bus).toEqual({ kind: 'nats', status: 'ok' });

    // Made through one standby, traded through the other: the issue's -3006 is gone.
    const [trader] = await traders(1, a.baseUrl);
    const accountId = await (trader as Trader).createAccount();
    const onB = (trader as Trader).at(b.baseUrl);
    const order = await onB.send(accountId, { symbol: SYMBOL, side: 'buy', volume: '0.01' });
    expect(order.body.success, order.body.message).toBe(true);
    const positions = await (trader as Trader).call('/api/v1/order/positions', { account_id: accountId });
    expect(positions.body.success, positions.body.message).toBe(true);
    expect(positions.body.data.map((p: { order_id: number }) => p.order_id)).toEqual([
      order.body.data.ticket,
    ]);
    // A business refusal crosses the bus with its code and translated message.
    const tooBig = await onB.send(accountId, { symbol: SYMBOL, side: 'buy', volume: '500' });
    expect(tooBig.body.success).toBe(false);
    expect(tooBig.body.code).not.toBe(AppErrorCode.SERVICE_UNAVAILABLE);
    expect(tooBig.body.message).toMatch(/\w/);

    // The standby's market stream carries the leader's prices; its account stream the leader's state.
    const cookie = [...(trader as Trader).api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // An HTTP route outside the gateway that needs the engine (the history export) is answered by
    // the leader through the standby.
    const csv = await fetch(`${a.baseUrl}/api/v1/order/history.csv?account_id=${accountId}&format=raw`, {
      headers: { cookie },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((await csv.text()).split('\n')[0]).toMatch(/position/i);
    const quotes: { bid: number; time: number }[] = [];
    const market = new WebSocket(`${b.baseUrl.replace('http', 'ws')}/ws/market`);
    market.on('open', () =>
      market.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: [SYMBOL] })),
    );
    market.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'quote') quotes.push(message.data);
    });
    const snapshots: { positions: unknown[] }[] = [];
    const account = new WebSocket(`${a.baseUrl.replace('http', 'ws')}/ws/account`, {
      headers: { cookie, origin: a.baseUrl },
    });
    account.on('open', () => account.send(JSON.stringify({ op: 'subscribe', account_id: accountId })));
    account.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'account') snapshots.push(message.data);
    });
    try {
      await until(async () => (quotes.length >= 3 ? true : undefined), 20_000);
      await until(async () => (snapshots.length >= 1 ? true : undefined), 20_000);
      expect(snapshots[0]?.positions).toHaveLength(1);
      // An order through the leader reaches the standby's account stream.
      const second = (trader as Trader).at(leader.baseUrl);
      const more = await second.send(accountId, { symbol: SYMBOL, side: 'sell', volume: '0.02' });
      expect(more.body.success, more.body.message).toBe(true);
      await until(async () => (snapshots.at(-1)?.positions.length === 2 ? true : undefined), 10_000);
    } finally {
      market.terminate();
      account.terminate();
    }
  });

  it('kills the leader five times under a stream of signed orders: each acknowledged order once, margins held, streams resume', {
    timeout: 600_000,
  }, async () => {
    const clients = await traders(4, cluster.proxyUrl);
    const accounts = await Promise.all(clients.map((c) => c.createAccount()));
    // A volume whose margin is a twelfth of the balance: the stream runs into the margin limit.
    const preview = await clients[0]?.call('/api/v1/order/margin', {
      account_id: accounts[0],
      symbol: SYMBOL,
      side: 'buy',
      volume: '1',
    });
    expect(preview?.body.success, preview?.body.message).toBe(true);
    const info = await clients[0]?.call('/api/v1/account/info', { account_id: accounts[0] });
    const balance = Number(info?.body.data.balance);
    const marginPerLot = Number(preview?.body.data.margin);
    const volume = Math.max(0.01, Math.floor((balance / marginPerLot / 12) * 100) / 100).toFixed(2);

    const acknowledged = clients.map(() => new Map<string, number>());
    let refusedForMargin = 0;
    let retries = 0;
    const accepted: number[] = [];
    /** When each successful attempt was sent: the failover is measured on attempts sent after the kill. */
    const sentAndAccepted: [number, number][] = [];
    let running = true;

    /** One client: orders one after another, each retried with its key until it has an answer. */
    const stream = async (index: number) => {
      const client = clients[index] as Trader;
      const accountId = accounts[index] as number;
      let n = 0;
      while (running) {
        const key = randomUUID();
        const side = n++ % 3 === 2 ? 'sell' : 'buy';
        const signed = client.sign({ volume, side, accountId, leverage: 100, symbol: SYMBOL });
        const body = {
          account_id: accountId,
          type: 'market',
          idempotencyKey: key,
          symbol: SYMBOL,
          side,
          volume,
          ...signed,
        };
        for (let attempt = 0; ; attempt++) {
          let answer: { body: { success: boolean; code: number; data: { ticket: number } } } | null = null;
          const sentAt = Date.now();
          try {
            answer = await client.call('/api/v1/order/send', body);
          } catch {
            answer = null; // the connection died with its instance
          }
          if (answer?.body.success) {
            acknowledged[index]?.set(key, answer.body.data.ticket);
            accepted.push(Date.now());
            sentAndAccepted.push([sentAt, Date.now()]);
            break;
          }
          if (answer && !RETRYABLE.has(answer.body.code) && typeof answer.body.code === 'number') {
            if (answer.body.code === AppErrorCode.INSUFFICIENT_MARGIN) refusedForMargin++;
            break;
          }
          retries++;
          if (attempt > 200) throw new Error('an order never got an answer');
          await new Promise((r) => setTimeout(r, 100));
        }
        if (side === 'sell' && n % 9 === 0) {
          // Now and then close everything: room for more orders, and closes cross the kills too.
          await client
            .call('/api/v1/order/closeall', { account_id: accountId, idempotencyKey: randomUUID() })
            .catch(() => undefined);
        }
      }
    };

    const cookieOf = (client: Trader) => [...client.api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const wsBase = cluster.proxyUrl.replace('http', 'ws');
    const marketStream = new Stream(
      `${wsBase}/ws/market`,
      {},
      JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: [SYMBOL] }),
      (m) => m.type === 'quote',
    );
    const accountStream = new Stream(
      `${wsBase}/ws/account`,
      { cookie: cookieOf(clients[0] as Trader), origin: cluster.proxyUrl },
      JSON.stringify({ op: 'subscribe', account_id: accounts[0] }),
      (m) => m.type === 'account',
    );

    const streams = clients.map((_, i) => stream(i));
    const failovers: number[] = [];
    try {
      for (let kill = 0; kill < 5; kill++) {
        await until(
          async () => (accepted.filter((t) => t > Date.now() - 1_000).length >= 5 ? true : undefined),
          60_000,
        );
        const leader = (await until(() => cluster.leader(), 30_000)) as TInstance;
        const epoch = (await healthOf(leader.baseUrl))?.body.parts.engine.epoch ?? 0;
        const killedAt = Date.now();
        await cluster.kill(leader);
        // The first order sent once the leader was gone, and accepted: by the next leader.
        const deadAt = Date.now();
        const first = await until(
          async () => sentAndAccepted.filter(([sent]) => sent >= deadAt).sort((x, y) => x[1] - y[1])[0],
          60_000,
          20,
        );
        failovers.push(first[1] - killedAt);
        const next = (await until(() => cluster.leader(), 30_000)) as TInstance;
        expect(next).not.toBe(leader);
        expect((await healthOf(next.baseUrl))?.body.parts.engine.epoch).toBeGreaterThan(epoch);
        // The killed instance comes back as a standby before the next kill.
        await cluster.launch(leader.index);
      }
      await until(
        async () => (accepted.filter((t) => t > Date.now() - 1_000).length >= 5 ? true : undefined),
        60_000,
      );
    } finally {
      running = false;
      await Promise.allSettled(streams);
    }
    console.log(
      `failover (kill to next accepted order) ms: ${failovers.join(', ')}; orders ${accepted.length}, retries ${retries}, refused for margin ${refusedForMargin}; stream reconnects market ${marketStream.reconnects}, account ${accountStream.reconnects}`,
    );
    await Promise.all(streams);

    // Every acknowledged order is stored exactly once: its ticket is a deal that opened a position,
    // and nothing else was opened.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      for (const [index, accountId] of accounts.entries()) {
        const tickets = [...(acknowledged[index]?.values() ?? [])];
        expect(new Set(tickets).size).toBe(tickets.length);
        const { rows } = await db.query<{ id: string }>(
          `select id::text as id from positions where account_id = $1
           union select distinct position_id::text from deals where account_id = $1`,
          [accountId],
        );
        const stored = rows.map((r) => Number(r.id)).sort((x, y) => x - y);
        expect(stored).toEqual([...tickets].sort((x, y) => x - y));
      }
    } finally {
      await db.end();
    }
    expect(refusedForMargin).toBeGreaterThan(0);
    // No account holds more margin than its equity.
    for (const [index, accountId] of accounts.entries()) {
      const answer = await (clients[index] as Trader).call('/api/v1/account/info', { account_id: accountId });
      expect(answer.body.success, answer.body.message).toBe(true);
      expect(Number(answer.body.data.margin)).toBeLessThanOrEqual(Number(answer.body.data.equity));
    }
    // Both streams go on after the last kill.
    const since = Date.now();
    await until(async () => (marketStream.lastAt > since ? true : undefined), 20_000);
    await until(async () => (accountStream.lastAt > since ? true : undefined), 20_000);
    marketStream.close();
    accountStream.close();
    expect(failovers).toHaveLength(5);
    expect(Math.max(...failovers)).toBeLessThan(15_000);
  });
});
