import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { describe, expect, it } from 'vitest';
import {
  BusNoResponders,
  BusTimeout,
  decodeJson,
  encodeJson,
  InProcessBus,
  subjectMatches,
} from '../../src/cluster/bus';
import { NatsBus } from '../../src/cluster/nats-bus';
import { forwardedError, replayReplyOps, type TReplyOp } from '../../src/http/forwarded-calls';

describe('bus subjects', () => {
  it('matches NATS wildcards: * one token, > the rest', () => {
    expect(subjectMatches('engine.events', 'engine.events')).toBe(true);
    expect(subjectMatches('engine.*', 'engine.events')).toBe(true);
    expect(subjectMatches('engine.*', 'engine.events.more')).toBe(false);
    expect(subjectMatches('engine.>', 'engine.events.more')).toBe(true);
    expect(subjectMatches('engine.>', 'engine')).toBe(false);
    expect(subjectMatches('market.quotes', 'market.quote')).toBe(false);
  });
});

describe('in-process bus', () => {
  it('delivers after the publisher returns, to matching subscribers only', async () => {
    const bus = new InProcessBus();
    const heard: string[] = [];
    bus.subscribe('a.*', (data, subject) => heard.push(`${subject}:${decodeJson<number>(data)}`));
    bus.subscribe('b.x', () => heard.push('b'));
    bus.publish('a.x', encodeJson(1));
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard).toEqual(['a.x:1']);
  });

  it('answers requests from its responder, refuses at once without one, and times out', async () => {
    const bus = new InProcessBus();
    await expect(bus.request('engine.call', encodeJson({}), 100)).rejects.toBeInstanceOf(BusNoResponders);
    const stop = bus.serve('engine.call', async (data) => encodeJson({ echo: decodeJson(data) }));
    expect(decodeJson(await bus.request('engine.call', encodeJson(7), 100))).toEqual({ echo: 7 });
    stop();
    bus.serve('engine.call', () => new Promise(() => undefined));
    await expect(bus.request('engine.call', encodeJson(1), 50)).rejects.toBeInstanceOf(BusTimeout);
    expect(bus.stats.requests).toBe(3);
    expect(bus.stats.requestFailures).toBe(2);
  });
});

// The NATS server of every development and CI machine (issue 20).
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const log = { info: () => undefined, warn: () => undefined };
const nats = await NatsBus.connect(natsUrl, `unit${process.pid}`, 'unit', log).catch(() => null);

describe.runIf(nats !== null)('NATS bus', () => {
  it('fans out to every subscriber and shares requests in one queue group: each answered once', async () => {
    const other = await NatsBus.connect(natsUrl, `unit${process.pid}`, 'unit-2', log);
    const bus = nats as NatsBus;
    try {
      const heard: number[] = [];
      bus.subscribe('events', (data) => heard.push(decodeJson<number>(data)));
      other.subscribe('events', (data) => heard.push(decodeJson<number>(data) * 10));
      let answered = 0;
      bus.serve('call', async (data) => {
        answered++;
        return data;
      });
      other.serve('call', async (data) => {
        answered++;
        return data;
      });
      await bus.natsConnection.flush();
      await other.natsConnection.flush();
      other.publish('events', encodeJson(2));
      for (let i = 0; i < 20; i++)
        expect(decodeJson(await other.request('call', encodeJson(i), 2_000))).toBe(i);
      expect(answered).toBe(20);
      await expect.poll(() => [...heard].sort()).toEqual([2, 20]);
      await expect(bus.request('nobody', encodeJson(1), 2_000)).rejects.toBeInstanceOf(BusNoResponders);
    } finally {
      await other.close();
      await bus.close();
    }
  });
});

describe('forwarded calls', () => {
  it("gives the leader's error back with its code, values, fields and message key", () => {
    const error = forwardedError({
      code: AppErrorCode.VALIDATION_FAILED,
      details: { max: 5 },
      fields: { volume: 'tooLarge' },
      messageKey: 'errors.-9001.volume',
      message: 'volume too large',
    });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: AppErrorCode.VALIDATION_FAILED,
      details: { max: 5 },
      fields: { volume: 'tooLarge' },
      messageKey: 'errors.-9001.volume',
    });
  });

  it("replays the leader's cookie and header changes on the standby's reply", () => {
    const done: string[] = [];
    const reply = {
      setCookie: (name: string, value: string) => done.push(`set ${name}=${value}`),
      clearCookie: (name: string) => done.push(`clear ${name}`),
      header: (name: string, value: string) => done.push(`header ${name}: ${value}`),
    };
    const ops: TReplyOp[] = [
      { op: 'setCookie', name: 'account', value: '7', options: { path: '/' } },
      { op: 'clearCookie', name: 'old', options: {} },
      { op: 'header', name: 'retry-after', value: '1' },
    ];
    replayReplyOps(reply as never, ops);
    expect(done).toEqual(['set account=7', 'clear old', 'header retry-after: 1']);
  });
});
