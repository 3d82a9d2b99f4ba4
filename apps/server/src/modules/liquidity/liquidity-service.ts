import { AccountType } from '@broker/domain/trading/calculations';
import type { TEngineEvent, TPositionView } from '@broker/domain/trading/engine-core';
import type { FastifyInstance } from 'fastify';
import type { TDatabase } from '../../db/database';
import { newId } from '../../ids';
import type { MarketService } from '../market';
import { UsdConverter } from '../market';
import { accountGroupOrDefault, type EngineHost } from '../trading';
import {
  LiquidityRejection,
  type TCloseHedgeRequest,
  type THedgeFill,
  type THedgeRequest,
  type TLiquidityProvider,
} from './provider';
import { resolveBook, type TBookDecision, type TBookRule, type TTradeRecord, windowsNeeded } from './routing';
import { SimulatedLiquidityProvider } from './simulated-provider';
import {
  flagInterruptedHedges,
  hedgeById,
  insertHedge,
  loadBookRules,
  openABookPositions,
  openingHedge,
  type THedgeRow,
  tradeRecord,
  updateHedge,
} from './store';

/** How long a broker's rules are kept in memory; a change through the back office clears them at once. */
const RULES_TTL_MS = 5_000;
const DAY_MS = 86_400_000;

export interface TLiquidityOptions {
  database: TDatabase;
  engine: EngineHost;
  market: MarketService | null;
  provider?: TLiquidityProvider;
  /** Attempts per hedge order before it is flagged for the dealer, and the pause between them. */
  attempts?: number;
  retryDelayMs?: number;
  /** Share of orders the built-in sandbox provider refuses (when no provider is given). */
  sandboxRejectRate?: number;
  now?(): number;
  log?(error: unknown, message: string): void;
}

/**
 * Hedges A-book positions: after the engine commits a position's opening or closing, it decides the
 * book of the account (routing rules, at order time), and for the A-book sends the matching order
 * to the liquidity provider and records it in lp_orders. A refused hedge is retried a bounded number
 * of times and then flagged for the dealer. The work of one position runs in order (its close waits
 * for its opening hedge); nothing here ever blocks or fails the engine.
 */
export class LiquidityService {
  readonly provider: TLiquidityProvider;
  private readonly db;
  private readonly attempts: number;
  private readonly retryDelayMs: number;
  private readonly now: () => number;
  private readonly log: (error: unknown, message: string) => void;
  private readonly rules = new Map<string, { rules: TBookRule[]; at: number }>();
  /** A-book positions still open: position id to broker. */
  private readonly aBook = new Map<number, string>();
  /** The last piece of work of each position, so its close follows its opening. */
  private readonly chains = new Map<number, Promise<void>>();
  private readonly running = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly options: TLiquidityOptions) {
    this.db = options.database.db;
    this.attempts = options.attempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((error, message) => console.error(message, error));
    this.provider =
      options.provider ??
      new SimulatedLiquidityProvider({
        quote: (symbol) => options.market?.lastTicks().find((t) => t.symbol === symbol),
        ...(options.sandboxRejectRate === undefined ? {} : { rejectRate: options.sandboxRejectRate }),
      });
  }

  /** Builds the service for the server: follows the engine at once and stops with the app. */
  static attach(app: FastifyInstance, options: TLiquidityOptions): LiquidityService {
    const service = new LiquidityService(options);
    service.start();
    app.addHook('onClose', () => service.stop());
    return service;
  }

  start(): void {
    if (this.unsubscribe) return;
    this.ready = this.track(
      (async () => {
        await flagInterruptedHedges(this.db);
        for (const row of await openABookPositions(this.db))
          this.aBook.set(Number(row.position_id), row.tenant_id);
      })(),
    ).catch((error: unknown) => this.log(error, 'liquidity: loading open A-book positions failed'));
    this.unsubscribe = this.options.engine.onEvents((events) => this.onEvents(events));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.idle();
  }

  /** Waits until every hedge under way is recorded (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** The book a position was routed to when it opened. */
  bookOf(positionId: number): 'A' | 'B' {
    return this.aBook.has(positionId) ? 'A' : 'B';
  }

  /** Forgets a broker's cached rules (after the back office changed them). */
  invalidateRules(tenantId: string): void {
    this.rules.delete(tenantId);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.finally(() => this.running.delete(work)).catch(() => undefined);
    return work;
  }

  /** Runs `work` after the position's earlier work; failures are logged, never thrown. */
  private enqueue(positionId: number, work: () => Promise<void>): void {
    const previous = this.chains.get(positionId) ?? this.ready;
    const next = previous
      .then(work)
      .catch((error: unknown) => this.log(error, `liquidity: hedge of position ${positionId} failed`));
    this.chains.set(positionId, next);
    void this.track(next).then(() => {
      if (this.chains.get(positionId) === next) this.chains.delete(positionId);
    });
  }

  private onEvents(events: readonly TEngineEvent[]): void {
    for (const event of events) {
      if (event.type === 'position_opened') {
        const position = event.position;
        this.enqueue(position.positionId, () => this.onOpened(position));
      } else if (event.type === 'position_closed') {
        this.enqueue(event.positionId, () => this.onClosed(event));
      }
    }
  }

  private async rulesOf(tenantId: string): Promise<TBookRule[]> {
    const cached = this.rules.get(tenantId);
    if (cached && this.now() - cached.at < RULES_TTL_MS) return cached.rules;
    const rules = await loadBookRules(this.db, tenantId);
    this.rules.set(tenantId, { rules, at: this.now() });
    return rules;
  }

  /** The book of a new position of `accountId` (real-money accounts only; demo stays B). */
  async decideBook(tenantId: string, userId: string, accountId: number): Promise<TBookDecision> {
    const account = this.options.engine.core.account(accountId);
    if (!account || account.accountType === AccountType.DEMO) return { book: 'B', ruleId: null };
    const rules = (await this.rulesOf(tenantId)).filter((r) => r.enabled);
    if (rules.length === 0) return { book: 'B', ruleId: null };
    const needsGroup = rules.some((r) => r.kind === 'group');
    const groupId = needsGroup ? await accountGroupOrDefault(this.db, tenantId, accountId) : null;
    const records = new Map<number, TTradeRecord>();
    const windows = windowsNeeded(rules);
    if (windows.length > 0) {
      const usd = new UsdConverter(this.options.market);
      for (const days of windows)
        records.set(
          days,
          await tradeRecord(this.db, { tenantId, userId, since: this.now() - days * DAY_MS, usd }),
        );
    }
    return resolveBook(rules, { userId, groupId, records });
  }

  private async onOpened(position: TPositionView): Promise<void> {
    const owner = this.options.engine.ownerOf(position.accountId);
    if (!owner) return;
    const decision = await this.decideBook(owner.tenantId, owner.userId, position.accountId);
    if (decision.book !== 'A') return;
    this.aBook.set(position.positionId, owner.tenantId);
    const id = newId();
    await insertHedge(this.db, {
      id,
      tenant_id: owner.tenantId,
      account_id: position.accountId,
      position_id: position.positionId,
      user_id: owner.userId,
      purpose: 'open',
      symbol: position.symbol,
      side: position.side,
      volume: position.volume,
      requested_price: position.openPrice,
      fill_price: null,
      status: 'pending',
      latency_ms: null,
      error: null,
      provider: this.provider.name,
      provider_order_id: null,
      rule_id: decision.ruleId,
    });
    await this.execute(id, (clientOrderId) =>
      this.provider.sendOrder({
        clientOrderId,
        symbol: position.symbol,
        side: position.side,
        volume: position.volume,
        requestedPrice: position.openPrice,
      }),
    );
  }

  private async onClosed(event: Extract<TEngineEvent, { type: 'position_closed' }>): Promise<void> {
    const tenantId = this.aBook.get(event.positionId);
    if (tenantId === undefined) return;
    if (event.remainingVolume === 0) this.aBook.delete(event.positionId);
    const opening = await openingHedge(this.db, tenantId, event.positionId);
    if (!opening) return;
    if (opening.status !== 'filled' || !opening.provider_order_id) {
      // Nothing is open at the provider for this position, so there is no close to send; once the
      // position is gone the failed opening needs no dealer either (a retry would hedge nothing).
      if (event.remainingVolume === 0)
        await updateHedge(this.db, opening.id, {
          flagged: false,
          error: 'position closed before its hedge was filled',
        });
      return;
    }
    const id = newId();
    const side = event.side === 'buy' ? 'sell' : 'buy';
    await insertHedge(this.db, {
      id,
      tenant_id: tenantId,
      account_id: event.accountId,
      position_id: event.positionId,
      user_id: opening.user_id,
      purpose: 'close',
      symbol: event.symbol,
      side,
      volume: event.volume,
      requested_price: event.closePrice,
      fill_price: null,
      status: 'pending',
      latency_ms: null,
      error: null,
      provider: this.provider.name,
      provider_order_id: null,
      rule_id: opening.rule_id,
    });
    const providerOrderId = opening.provider_order_id;
    await this.execute(id, (clientOrderId) =>
      this.provider.closeOrder({
        clientOrderId,
        providerOrderId,
        symbol: event.symbol,
        side,
        volume: event.volume,
        requestedPrice: event.closePrice,
      }),
    );
  }

  /**
   * Sends one hedge order, up to `attempts` times while the provider refuses it, recording each
   * attempt; the last refusal flags it for the dealer.
   */
  private async execute(id: string, send: (clientOrderId: string) => Promise<THedgeFill>, startAttempt = 0) {
    for (let attempt = startAttempt + 1; attempt <= startAttempt + this.attempts; attempt++) {
      const started = this.now();
      try {
        // One client order id per attempt keeps the provider's duplicate check from replaying a refusal.
        const fill = await send(`${id}-${attempt}`);
        await updateHedge(this.db, id, {
          status: 'filled',
          attempts: attempt,
          fill_price: fill.price,
          latency_ms: fill.latencyMs,
          provider_order_id: fill.providerOrderId,
          error: null,
          flagged: false,
        });
        return;
      } catch (error) {
        const message =
          error instanceof LiquidityRejection ? `${error.reason}: ${error.message}` : String(error);
        const last = attempt === startAttempt + this.attempts;
        await updateHedge(this.db, id, {
          status: last ? 'failed' : 'pending',
          attempts: attempt,
          latency_ms: Math.max(0, Math.round(this.now() - started)),
          error: message.slice(0, 500),
          flagged: last,
        });
        if (!last) await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * attempt));
      }
    }
  }

  /**
   * The dealer's retry of a flagged hedge: sends it again (with the same bounded retries) and
   * answers the row as it is afterwards. Null when it is not a flagged order of this broker.
   */
  async retry(tenantId: string, id: string): Promise<THedgeRow | null> {
    const row = await hedgeById(this.db, tenantId, id);
    if (row?.status !== 'failed' || !row.flagged) return null;
    const positionId = Number(row.position_id);
    let request: (clientOrderId: string) => Promise<THedgeFill>;
    const base: Omit<THedgeRequest, 'clientOrderId'> = {
      symbol: row.symbol,
      side: row.side,
      volume: row.volume,
      requestedPrice: row.requested_price === null ? null : Number(row.requested_price),
    };
    if (row.purpose === 'open') {
      const position = this.options.engine.core.position(positionId);
      if (!position) {
        await updateHedge(this.db, id, {
          flagged: false,
          error: 'position closed before its hedge was filled',
        });
        return (await hedgeById(this.db, tenantId, id)) ?? null;
      }
      // Part of the position may have been closed meanwhile: hedge what is open now.
      base.volume = position.volume;
      request = (clientOrderId) => this.provider.sendOrder({ ...base, clientOrderId });
    } else {
      const opening = await openingHedge(this.db, tenantId, positionId);
      const providerOrderId = opening?.provider_order_id;
      if (!providerOrderId) return null;
      request = (clientOrderId) =>
        this.provider.closeOrder({ ...base, clientOrderId, providerOrderId } satisfies TCloseHedgeRequest);
    }
    await updateHedge(this.db, id, { status: 'pending', flagged: false, volume: base.volume });
    const work = this.track(
      (async () => {
        await (this.chains.get(positionId) ?? Promise.resolve());
        await this.execute(id, request, row.attempts);
      })(),
    );
    await work;
    return (await hedgeById(this.db, tenantId, id)) ?? null;
  }
}
