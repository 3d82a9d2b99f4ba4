/**
 * The bus between the server's instances (issue 20, ADR 014): request/reply to the one instance that
 * serves a subject (the engine leader), and fan-out of events to every instance. NATS when NATS_URL
 * is set; otherwise an in-process bus with the same interface, for the one process of `npm start`.
 */
export interface TBus {
  readonly kind: 'in-process' | 'nats';
  /** Sends to every subscriber of the subject, on every instance (this one included). */
  publish(subject: string, data: Uint8Array): void;
  /** Hears what is published on the subject (a `*` or `>` wildcard as NATS has them). */
  subscribe(subject: string, listener: (data: Uint8Array, subject: string) => void): () => void;
  /**
   * Answers requests on the subject. Several instances serving one subject share its requests (a
   * NATS queue group): each request is answered once.
   */
  serve(subject: string, responder: (data: Uint8Array) => Promise<Uint8Array>): () => void;
  /**
   * Asks whoever serves the subject. Refuses with BusNoResponders at once when nobody serves it, and
   * with BusTimeout when the answer did not come in `timeoutMs`: the request may then have been
   * carried out or not (the caller retries with the same idempotency key).
   */
  request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** Whether the bus is connected now (false while a NATS client reconnects). */
  readonly connected: boolean;
  /** Counters for /metrics. */
  readonly stats: TBusStats;
  close(): Promise<void>;
}

export interface TBusStats {
  published: number;
  received: number;
  requests: number;
  requestFailures: number;
  served: number;
  reconnects: number;
}

/** Counters at zero. */
export const emptyBusStats = (): TBusStats => ({
  published: 0,
  received: 0,
  requests: 0,
  requestFailures: 0,
  served: 0,
  reconnects: 0,
});

export class BusNoResponders extends Error {
  constructor(subject: string) {
    super(`no instance serves ${subject}`);
    this.name = 'BusNoResponders';
  }
}

export class BusTimeout extends Error {
  constructor(subject: string, ms: number) {
    super(`no answer on ${subject} in ${ms} ms`);
    this.name = 'BusTimeout';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeJson = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const decodeJson = <T>(data: Uint8Array): T => JSON.parse(decoder.decode(data)) as T;

/** Whether a NATS-style subject pattern (`*` one token, `>` the rest) matches a subject. */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (pattern === subject) return true;
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * The bus of one process: published messages reach this process's subscribers on the next turn
 * of the event loop (as they would over the network, never inside the publisher's call), requests
 * reach this process's responder.
 */
export class InProcessBus implements TBus {
  readonly kind = 'in-process' as const;
  readonly connected = true;
  readonly stats: TBusStats = emptyBusStats();
  private readonly listeners = new Set<{
    pattern: string;
    listener: (data: Uint8Array, subject: string) => void;
  }>();
  private readonly responders = new Map<string, ((data: Uint8Array) => Promise<Uint8Array>)[]>();
  private turn = 0;

  publish(subject: string, data: Uint8Array): void {
    this.stats.published++;
    const targets = [...this.listeners].filter((l) => subjectMatches(l.pattern, subject));
    if (targets.length === 0) return;
    queueMicrotask(() => {
      for (const target of targets) {
        if (!this.listeners.has(target)) continue;
        this.stats.received++;
        try {
          target.listener(data, subject);
        } catch {
          // a listener's failure stays with it
        }
      }
    });
  }

  subscribe(subject: string, listener: (data: Uint8Array, subject: string) => void): () => void {
    const entry = { pattern: subject, listener };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  serve(subject: string, responder: (data: Uint8Array) => Promise<Uint8Array>): () => void {
    const list = this.responders.get(subject) ?? [];
    list.push(responder);
    this.responders.set(subject, list);
    return () => {
      const current = this.responders.get(subject) ?? [];
      this.responders.set(
        subject,
        current.filter((r) => r !== responder),
      );
    };
  }

  async request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    this.stats.requests++;
    const list = this.responders.get(subject) ?? [];
    const responder = list[this.turn++ % Math.max(1, list.length)];
    if (!responder) {
      this.stats.requestFailures++;
      throw new BusNoResponders(subject);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        responder(data).then((answer) => {
          this.stats.served++;
          return answer;
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new BusTimeout(subject, timeoutMs)), timeoutMs);
        }),
      ]);
    } catch (error) {
      this.stats.requestFailures++;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.responders.clear();
  }
}
