import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../../src/cluster/bus';
import { DurableStreams } from '../../src/cluster/durable-streams';
import { NatsBus } from '../../src/cluster/nats-bus';
import { AuditRelay, type TRelayedAuditEvent } from '../../src/modules/audit';
import { startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

/**
 * Issue 20: the audit trail is copied, in each broker's chain order, to a JetStream stream by the
 * engine leader; a new leader resumes where the stream stands and a repeat is stored once.
 */
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const log = { info: () => undefined, warn: () => undefined };
const probe = await NatsBus.connect(natsUrl, 'probe', 'probe', log).catch(() => null);
await probe?.close();

describe.runIf(probe !== null)('audit stream on JetStream', () => {
  const prefix = `audit${randomBytes(4).toString('hex')}`;
  let server: TTestServer;
  let bus: NatsBus;
  let streams: DurableStreams;
  beforeAll(async () => {
    server = await startTestServer({ FEED: 'off', NATS_URL: natsUrl, BUS_PREFIX: prefix });
    bus = await NatsBus.connect(natsUrl, prefix, 'audit-test', log);
    streams = await DurableStreams.open(bus, prefix);
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(bus.natsConnection);
    await jsm.streams.delete(streams.auditStream).catch(() => undefined);
    await bus?.close();
    await server?.close();
  });

  it('carries every entry once, in chain order, and a new leader repeats nothing', {
    timeout: 60_000,
  }, async () => {
    const db = server.app.services.database.db;
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount();
    const { rows } = {
      rows: await db
        .selectFrom('trading_accounts')
        .select('tenant_id')
        .where('id', '=', String(accountId) as never)
        .execute(),
    };
    const tenantId = rows[0]?.tenant_id as string;
    // An action the audit trail records, made now.
    const answer = await trader.call('/api/v1/account/create', {
      account_type: 1,
      trade_type: 2,
      leverage: 100,
      idempotencyKey: randomBytes(8).toString('hex'),
    });
    expect(answer.body.success, answer.body.message).toBe(true);
    const stored = async () =>
      Number(
        (
          await db
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('tenant_id', '=', tenantId)
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const count = await stored();
    expect(count).toBeGreaterThan(0);
    await expect.poll(() => streams.lastSeq(tenantId), { timeout: 20_000 }).toBe(count);

    // Every entry, in chain order, the same as the database's.
    const jsm = await jetstreamManager(bus.natsConnection);
    const seqs: number[] = [];
    const info = await jsm.streams.info(streams.auditStream);
    for (let n = info.state.first_seq; n <= info.state.last_seq; n++) {
      const message = await jsm.streams.getMessage(streams.auditStream, { seq: n });
      const event = decodeJson<TRelayedAuditEvent>(message?.data ?? new Uint8Array());
      if (event.tenantId === tenantId) seqs.push(event.seq);
    }
    expect(seqs).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    const last = await db
      .selectFrom('audit_events')
      .select(['hash', 'action'])
      .where('tenant_id', '=', tenantId)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    const streamed = (
      await jsm.streams.getMessage(streams.auditStream, {
        last_by_subj: streams.auditSubject(tenantId),
      })
    )?.json() as TRelayedAuditEvent;
    expect(streamed).toMatchObject({ hash: last.hash, action: last.action });

    // A new leader reads where the stream stands: nothing is stored twice.
    await server.app.services.cluster.stop();
    const before = (await jsm.streams.info(streams.auditStream)).state.messages;
    const relay = new AuditRelay(db, streams, { error: () => undefined });
    expect(await relay.round()).toBe(0);
    // A repeat of an entry (a leader that died after storing it) is dropped by its id.
    await streams.publish(streamed);
    expect((await jsm.streams.info(streams.auditStream)).state.messages).toBe(before);
  });
});
