import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { TRouteCatalogue, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { AppError, AppErrorCode, type TAppErrorCode } from '@broker/domain/result-codes';
import { AccountType, type TAccountType, type TTradeType } from '@broker/domain/trading/calculations';
import {
  DEMO_INITIAL_BALANCE_MINOR,
  type TAccountView,
  type TApplyResult,
  type TCommand,
  type TOrderView,
  type TPositionView,
} from '@broker/domain/trading/engine-core';
import type { TTradingErrorCode } from '@broker/domain/trading/errors';
import type { TPendingType } from '@broker/domain/trading/orders';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { TDb } from '../../db/database';
import type { TCallContext } from '../../http/context';
import { recordAudit } from '../audit/audit';
import { assertWithinLimit } from '../backoffice/audit/packages';
import type { EngineHost } from './engine-host';
import { protectedByGroup } from './terms-sync';
import { currencySymbol, fromScaled, lotsToUnits, money, toScaled, unitsToLots } from './units';

/** A route's input after validation (defaults filled, numbers coerced). */
type TRouteInput<N extends TRouteName> = z.output<TRouteCatalogue[N]['input']>;

/** A page of an account's history between two times (ms since the epoch). */
export interface THistoryQuery {
  accountId: number;
  from: number;
  to: number;
  symbol?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** Engine rejections as the client's stable codes (spec 8 texts where the spec names them). */
/** Order-signing keys by session cipher key (base64), made once per session rather than per order. */
const signingKeys = new Map<string, KeyObject>();
function signingKey(cipherKey: string): KeyObject {
  let key = signingKeys.get(cipherKey);
  if (!key) {
    if (signingKeys.size >= 10_000) signingKeys.clear();
    key = createSecretKey(Buffer.from(cipherKey, 'base64'));
    signingKeys.set(cipherKey, key);
  }
  return key;
}

const ERROR_CODES: Record<TTradingErrorCode, TAppErrorCode> = {
  INSUFFICIENT_MARGIN: AppErrorCode.INSUFFICIENT_MARGIN,
  MARGIN_LEVEL_TOO_LOW: AppErrorCode.MARGIN_LEVEL_TOO_LOW,
  INSUFFICIENT_FUNDS: AppErrorCode.INSUFFICIENT_FUNDS,
  DEPOSIT_CAP_EXCEEDED: AppErrorCode.DEPOSIT_CAP_EXCEEDED,
  ORDER_ALREADY_CLOSED: AppErrorCode.ORDER_ALREADY_DONE,
  ORDER_NOT_FOUND: AppErrorCode.ORDER_NOT_FOUND,
  POSITION_NOT_FOUND: AppErrorCode.ORDER_NOT_FOUND,
  ACCOUNT_NOT_FOUND: AppErrorCode.ACCOUNT_NOT_FOUND,
  ACCOUNT_EXISTS: AppErrorCode.INTERNAL,
  ACCOUNT_HAS_OPEN_TRADES: AppErrorCode.GROUP_HAS_OPEN_TRADES,
  ACCOUNT_CLOSED: AppErrorCode.ACCOUNT_CLOSED,
  ACCOUNT_RESTRICTED: AppErrorCode.ACCOUNT_RESTRICTED,
  SYMBOL_UNKNOWN: AppErrorCode.SYMBOL_DISABLED,
  SYMBOL_DISABLED: AppErrorCode.SYMBOL_DISABLED,
  SYMBOL_CLOSE_ONLY: AppErrorCode.CANNOT_CLOSE_OR_SHORT,
  SHORT_NOT_ALLOWED: AppErrorCode.CANNOT_CLOSE_OR_SHORT,
  MARKET_CLOSED: AppErrorCode.TRADING_TIME_ENDED,
  NO_PRICE: AppErrorCode.NO_PRICE,
  INVALID_VOLUME: AppErrorCode.INVALID_VOLUME,
  INVALID_PRICE: AppErrorCode.INVALID_PRICE,
  INVALID_STOPS: AppErrorCode.INVALID_STOPS,
  INVALID_AMOUNT: AppErrorCode.VALIDATION_FAILED,
  INVALID_CLOSE_REASON: AppErrorCode.VALIDATION_FAILED,
  IDEMPOTENCY_CONFLICT: AppErrorCode.IDEMPOTENCY_CONFLICT,
};

/** Engine errors that share a spec code but deserve their own message. */
const MESSAGE_KEYS: Partial<Record<TTradingErrorCode, string>> = {
  SYMBOL_CLOSE_ONLY: 'errors.-3002.closeOnly',
  SHORT_NOT_ALLOWED: 'errors.-3002.noShort',
};

/**
 * A history filter's symbol as a LIKE pattern: the symbol or its beginning, any case ("btc" finds
 * BTCUSDT), with LIKE's own wildcards taken literally.
 */
function symbolPrefix(symbol: string): string {
  return `${symbol
    .trim()
    .toUpperCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function unwrap(result: TApplyResult) {
  if (!result.ok)
    throw new AppError(
      ERROR_CODES[result.error] ?? AppErrorCode.INTERNAL,
      undefined,
      undefined,
      undefined,
      MESSAGE_KEYS[result.error],
    );
  return result;
}

/** Leverage a trader can choose; the symbol's own maximum still caps each position. */
export const LEVERAGES = [1, 10, 20, 50, 100, 200, 300, 400, 500] as const;
const DEFAULT_LEVERAGE = 100;
/** Accounts of one type a trader may hold: demo and real up to 5, experience one per trade type. */
const ACCOUNT_LIMITS: Record<1 | 2 | 3, number> = { 1: 5, 2: 5, 3: 1 };
const NONCE_WINDOW_MS = 60_000;

const PENDING: Record<string, TPendingType> = {
  'buy:limit': 'buy_limit',
  'sell:limit': 'sell_limit',
  'buy:stop': 'buy_stop',
  'sell:stop': 'sell_stop',
  'buy:stop_limit': 'buy_stop_limit',
  'sell:stop_limit': 'sell_stop_limit',
};

/**
 * Trading calls: accounts, orders, positions and history. Every call checks that the account
 * belongs to the signed-in trader of this broker; order calls carry an idempotency key, and
 * opening orders a signature over open_lot, side, account_id, leverage, symbol_id and a nonce
 * (spec 7.9) keyed by the session's cipher key.
 */
export class TradingService {
  private readonly nonces = new Map<string, number>();

  constructor(private readonly host: EngineHost) {}

  private get engine() {
    return this.host.core;
  }

  /** Makes the broker's saved market configuration live (see terms-sync.ts). */
  async applyMarketConfig(tenantId: string): Promise<void> {
    await this.host.applyMarketConfig(tenantId);
  }

  /** Moves an account to another group of its broker; refused while it has open trades. */
  async moveAccountToGroup(input: { tenantId: string; accountId: number; groupId: string }): Promise<void> {
    await this.host.moveAccountToGroup(input);
  }

  private userOf(ctx: TCallContext) {
    const session = ctx.userSession;
    if (!session) throw new AppError(AppErrorCode.TOKEN_INVALID);
    return session;
  }

  /** The account if it is the caller's, else "account not found" (never "forbidden": no probing). */
  private ownAccount(ctx: TCallContext, accountId: number): TAccountView {
    const session = this.userOf(ctx);
    const owner = this.host.ownerOf(accountId);
    const view = this.engine.account(accountId);
    if (!owner || !view || owner.userId !== session.subjectId || owner.tenantId !== ctx.tenant.id)
      throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
    return view;
  }

  private digitsOf(symbol: string): number {
    const digits = this.host.digits(symbol);
    if (digits === undefined) throw new AppError(AppErrorCode.SYMBOL_DISABLED);
    return digits;
  }

  private price(symbol: string, text: string | null | undefined, field: string): number | null {
    if (text === null || text === undefined || text === '') return null;
    return toScaled(text, this.digitsOf(symbol), field);
  }

  private entry(view: TAccountView) {
    const owner = this.host.ownerOf(view.accountId);
    return {
      account_id: view.accountId,
      account_type: view.accountType,
      trade_type: view.tradeType,
      is_abnormal: 0,
      equity: money(view.totalEquity),
      balance: money(view.balance),
      currency: view.currency,
      currency_symbol: currencySymbol(view.currency),
      leverage: view.leverage,
      created_at: owner?.createdAt ?? new Date(0).toISOString(),
    };
  }

  private info(view: TAccountView): TRouteOutput<'info'> {
    return {
      account_id: view.accountId,
      account_type: view.accountType,
      trade_type: view.tradeType,
      currency: view.currency,
      currency_symbol: currencySymbol(view.currency),
      leverage: view.leverage,
      balance: money(view.balance),
      equity: money(view.equity),
      total_equity: money(view.totalEquity),
      freeMargin: money(view.usableMargin),
      margin: money(view.margin),
      profit: money(view.accountProfit),
      floating_profit: money(view.totalProfit),
      init_money: money(view.initMoney),
      total_in_amount: money(view.totalInAmount),
      total_out_amount: money(view.totalOutAmount),
      follow_equity: money(view.followEquity),
      strategy_equity: money(view.strategyEquity),
      margin_level: fromScaled(view.marginLevelBp, 2),
      margin_call_level: fromScaled(view.marginCallBp, 2),
      stop_out_level: fromScaled(view.stopOutBp, 2),
      margin_call: view.marginCall,
      restrictions: {
        noOpen: view.restrictions.noOpen,
        noClose: view.restrictions.noClose,
        noTakeProfit: view.restrictions.noTakeProfit,
        noStopLoss: view.restrictions.noStopLoss,
        noWithdraw: view.restrictions.noWithdrawal,
      },
      is_abnormal: 0,
    };
  }

  /** A position as the trading calls show it (prices and money as decimal strings). */
  position(p: TPositionView): TRouteOutput<'positions'>[number] {
    const digits = this.digitsOf(p.symbol);
    const quote = this.engine.quote(p.symbol);
    const current = quote ? (p.side === 'buy' ? quote.bid : quote.ask) : p.openPrice;
    const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
    return {
      order_id: p.positionId,
      account_id: p.accountId,
      symbol: p.symbol,
      side: p.side,
      volume: unitsToLots(p.volume),
      open_price: fromScaled(p.openPrice, digits),
      current_price: fromScaled(current, digits),
      open_time: p.openTime,
      take_profit: px(p.takeProfit),
      stop_loss: px(p.stopLoss),
      margin: money(p.margin),
      swap: money(p.swap),
      commission: money(p.commission),
      profit: money(p.profit),
      digits,
    };
  }

  /** A pending order as the trading calls show it. */
  order(o: TOrderView): TRouteOutput<'pendingorders'>[number] {
    const digits = this.digitsOf(o.symbol);
    const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
    return {
      order_id: o.orderId,
      account_id: o.accountId,
      symbol: o.symbol,
      type: o.type,
      volume: unitsToLots(o.volume),
      price: fromScaled(o.price, digits),
      limit_price: px(o.limitPrice),
      activated: o.activated,
      take_profit: px(o.takeProfit),
      stop_loss: px(o.stopLoss),
      time: o.time,
      digits,
    };
  }

  /** Accounts of the trader: the demo (first type-1 account) first, then by creation. */
  listAccounts(ctx: TCallContext) {
    const session = this.userOf(ctx);
    return this.host
      .accountsOf(ctx.tenant.id, session.subjectId)
      .map((id) => this.engine.account(id))
      .filter((v): v is TAccountView => v !== undefined && !v.closed)
      .sort((a, b) => Number(a.accountType !== 1) - Number(b.accountType !== 1) || a.accountId - b.accountId)
      .map((v) => this.entry(v));
  }

  categories(ctx: TCallContext): TRouteOutput<'accountcategory'> {
    const session = this.userOf(ctx);
    const mine = this.host
      .accountsOf(ctx.tenant.id, session.subjectId)
      .map((id) => this.engine.account(id))
      .filter((v): v is TAccountView => v !== undefined && !v.closed);
    const remaining = (type: 1 | 2 | 3) =>
      Object.fromEntries(
        [1, 2].map((tradeType) => {
          const held = mine.filter(
            (a) => a.accountType === type && (type !== 3 || a.tradeType === tradeType),
          ).length;
          return [String(tradeType), Math.max(0, ACCOUNT_LIMITS[type] - held)];
        }),
      );
    return [
      { type: 1 as const, currency: 'USD', initial: DEMO_INITIAL_BALANCE_MINOR },
      { type: 2 as const, currency: 'USD', initial: 0 },
      { type: 3 as const, currency: 'USC', initial: 0 },
    ].map((c) => ({
      account_type: c.type,
      trade_types: [1, 2],
      currency: c.currency,
      currency_symbol: currencySymbol(c.currency),
      initial_balance: money(c.initial),
      leverages: [...LEVERAGES],
      default_leverage: DEFAULT_LEVERAGE,
      remaining: remaining(c.type),
    }));
  }

  async createAccount(ctx: TCallContext, input: TRouteInput<'accountcreate'>) {
    const session = this.userOf(ctx);
    if (!(LEVERAGES as readonly number[]).includes(input.leverage))
      throw AppError.invalid({ leverage: 'leverageNotAllowed' });
    const held = this.host
      .accountsOf(ctx.tenant.id, session.subjectId)
      .map((id) => this.engine.account(id))
      .filter(
        (v) =>
          v &&
          !v.closed &&
          v.accountType === input.account_type &&
          (input.account_type !== AccountType.EXPERIENCE || v.tradeType === input.trade_type),
      ).length;
    const key = `create:${ctx.tenant.id}:${session.subjectId}:${input.idempotencyKey}`;
    const existing = this.host.accountForKey(key);
    if (existing !== undefined) return this.entry(this.ownAccount(ctx, existing));
    if (held >= ACCOUNT_LIMITS[input.account_type]) throw new AppError(AppErrorCode.ACCOUNT_LIMIT_REACHED);
    await assertWithinLimit(ctx.services.database.db, ctx.tenant.id, 'tradingAccounts');
    const accountId = await this.host.nextAccountId();
    const group = await this.host.groupForNewAccount(ctx.tenant.id);
    const result = unwrap(
      await this.host.submit(
        {
          type: 'create_account',
          clientKey: key,
          time: Date.now(),
          accountId,
          accountType: input.account_type as TAccountType,
          tradeType: input.trade_type as TTradeType,
          currency: input.account_type === AccountType.EXPERIENCE ? 'USC' : 'USD',
          leverage: input.leverage,
          initialBalance: input.account_type === AccountType.DEMO ? DEMO_INITIAL_BALANCE_MINOR : 0,
          profile: group.id,
          marginCallBp: group.marginCallBp,
          stopOutBp: group.stopOutBp,
          negativeBalanceProtection: protectedByGroup(group, input.account_type),
        },
        { accountId, tenantId: ctx.tenant.id, userId: session.subjectId },
      ),
    );
    void result;
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: 'user',
      actorId: session.subjectId,
      action: 'trading.account.create',
      target: String(accountId),
      ip: ctx.ip,
      details: { accountType: input.account_type, tradeType: input.trade_type, leverage: input.leverage },
    });
    return this.entry(this.ownAccount(ctx, accountId));
  }

  accountInfo(ctx: TCallContext, accountId: number) {
    return this.info(this.ownAccount(ctx, accountId));
  }

  /** Demo reset: close every position, cancel every order, and bring the balance back to 100,000. */
  async resetDemo(ctx: TCallContext, input: TRouteInput<'demoreset'>) {
    const view = this.ownAccount(ctx, input.account_id);
    if (view.accountType !== AccountType.DEMO) throw new AppError(AppErrorCode.FORBIDDEN);
    await this.resetDemoAccount(view.accountId, input.idempotencyKey);
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: 'user',
      actorId: ctx.userSession?.subjectId ?? null,
      action: 'trading.demo.reset',
      target: String(view.accountId),
      ip: ctx.ip,
    });
    return this.info(this.ownAccount(ctx, view.accountId));
  }

  /**
   * Closes every position, cancels every order and brings the balance back to 100,000; each step
   * keyed by `idempotencyKey`, so a retry finishes what is left. The caller checks owner and type.
   */
  async resetDemoAccount(accountId: number, idempotencyKey: string): Promise<void> {
    const base = `reset:${idempotencyKey}`;
    const now = Date.now();
    unwrap(await this.host.submit({ type: 'close_all', clientKey: `${base}:close`, time: now, accountId }));
    for (const order of this.engine.ordersOf(accountId))
      unwrap(
        await this.host.submit({
          type: 'cancel_order',
          clientKey: `${base}:cancel:${order.orderId}`,
          time: now,
          accountId,
          orderId: order.orderId,
        }),
      );
    const after = this.engine.account(accountId) as TAccountView;
    const delta = DEMO_INITIAL_BALANCE_MINOR - after.balance;
    if (delta !== 0)
      unwrap(
        await this.host.submit({
          type: 'adjust_balance',
          clientKey: `${base}:balance`,
          time: now,
          accountId,
          amount: delta,
        }),
      );
  }

  /** Applies an engine command after its durable commit; a refusal becomes its AppError. */
  async apply(command: TCommand) {
    return unwrap(await this.host.submit(command));
  }

  positions(ctx: TCallContext, accountId: number) {
    this.ownAccount(ctx, accountId);
    return this.engine.positionsOf(accountId).map((p) => this.position(p));
  }

  pendingOrders(ctx: TCallContext, accountId: number) {
    this.ownAccount(ctx, accountId);
    return this.engine.ordersOf(accountId).map((o) => this.order(o));
  }

  /**
   * An account's figures, positions and pending orders exactly as `info`, `positions` and
   * `pendingorders` answer them (the account stream's snapshot); undefined for an unknown account.
   * The caller checks the owner.
   */
  accountSnapshot(accountId: number) {
    const view = this.engine.account(accountId);
    if (!view) return undefined;
    return {
      info: this.info(view),
      positions: this.engine.positionsOf(accountId).map((p) => this.position(p)),
      orders: this.engine.ordersOf(accountId).map((o) => this.order(o)),
    };
  }

  /** Spec 7.9: HMAC-SHA256 under the session's cipher key; nonces are single use within 60 s. */
  private checkSignature(ctx: TCallContext, view: TAccountView, input: TRouteInput<'ordersend'>) {
    const session = this.userOf(ctx);
    const key = session.cipherKey;
    if (!key) throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
    const message = orderSigningMessage({
      openLot: input.volume,
      side: input.side,
      accountId: view.accountId,
      leverage: view.leverage,
      symbol: input.symbol.toUpperCase(),
      nonce: input.nonce,
    });
    const expected = createHmac('sha256', signingKey(key)).update(message).digest();
    const given = Buffer.from(input.signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
    const stamp = Number(input.nonce.slice(0, 13));
    const now = Date.now();
    if (Math.abs(now - stamp) > NONCE_WINDOW_MS) throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
    const nonceKey = `${session.tokenHash.slice(0, 16)}:${input.nonce}`;
    if (this.nonces.has(nonceKey)) throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
    // Drop expired nonces from the oldest end (a Map iterates in insertion order): amortised O(1),
    // where sweeping the whole map on every order cost more than the rest of the check.
    for (const [k, until] of this.nonces) {
      if (until >= now) break;
      this.nonces.delete(k);
    }
    this.nonces.set(nonceKey, stamp + NONCE_WINDOW_MS);
  }

  async sendOrder(ctx: TCallContext, input: TRouteInput<'ordersend'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const volume = lotsToUnits(input.volume);
    const symbol = input.symbol.toUpperCase();
    const takeProfit = this.price(symbol, input.take_profit, 'take_profit');
    const stopLoss = this.price(symbol, input.stop_loss, 'stop_loss');
    const now = Date.now();
    let command: TCommand;
    if (input.type === 'market') {
      command = {
        type: 'open_market',
        clientKey: input.idempotencyKey,
        time: now,
        accountId: view.accountId,
        symbol,
        side: input.side,
        volume,
        takeProfit,
        stopLoss,
      };
    } else {
      const price = this.price(symbol, input.price, 'price');
      if (price === null) throw AppError.invalid({ price: 'required' });
      const limitPrice =
        input.type === 'stop_limit' ? this.price(symbol, input.limit_price, 'limit_price') : null;
      if (input.type === 'stop_limit' && limitPrice === null)
        throw AppError.invalid({ limit_price: 'required' });
      command = {
        type: 'place_pending',
        clientKey: input.idempotencyKey,
        time: now,
        accountId: view.accountId,
        symbol,
        orderType: PENDING[`${input.side}:${input.type}`] as TPendingType,
        volume,
        price,
        limitPrice,
        takeProfit,
        stopLoss,
      };
    }
    // A retried request (same key) is answered from the first result without a new signature check.
    if (!this.host.knows(command)) this.checkSignature(ctx, view, input);
    const result = unwrap(await this.host.submit(command));
    return {
      ticket: result.ticket ?? 0,
      kind: input.type === 'market' ? ('position' as const) : ('order' as const),
    };
  }

  async modifyOrder(ctx: TCallContext, input: TRouteInput<'ordermodify'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const order = this.engine.order(input.order_id);
    if (!order || order.accountId !== view.accountId)
      throw await this.notHeld(ctx.services.database.db, view.accountId, input.order_id, 'order');
    const price = this.price(order.symbol, input.price, 'price') as number;
    unwrap(
      await this.host.submit({
        type: 'modify_order',
        clientKey: input.idempotencyKey,
        time: Date.now(),
        accountId: view.accountId,
        orderId: input.order_id,
        price,
        limitPrice: this.price(order.symbol, input.limit_price, 'limit_price'),
        takeProfit: this.price(order.symbol, input.take_profit, 'take_profit'),
        stopLoss: this.price(order.symbol, input.stop_loss, 'stop_loss'),
      }),
    );
    return { ok: true as const };
  }

  async cancelOrder(ctx: TCallContext, input: TRouteInput<'ordercancel'>) {
    const view = this.ownAccount(ctx, input.account_id);
    await this.applyOnTicket(ctx.services.database.db, 'order', {
      type: 'cancel_order',
      clientKey: input.idempotencyKey,
      time: Date.now(),
      accountId: view.accountId,
      orderId: input.order_id,
    });
    return { ok: true as const };
  }

  /**
   * Applies a command on one order or position of an account. The engine only knows live ones: a
   * gone ticket answers -3001 when the account's history has it, -3005 when it never was the
   * account's (the engine alone would say -3001 for any past ticket, anyone's).
   */
  async applyOnTicket(
    db: TDb,
    kind: 'order' | 'position',
    command: Extract<TCommand, { type: 'cancel_order' | 'close_position' }>,
  ) {
    const result = await this.host.submit(command);
    if (
      !result.ok &&
      (result.error === 'ORDER_NOT_FOUND' ||
        result.error === 'POSITION_NOT_FOUND' ||
        result.error === 'ORDER_ALREADY_CLOSED')
    )
      throw await this.notHeld(
        db,
        command.accountId,
        command.type === 'cancel_order' ? command.orderId : command.positionId,
        kind,
      );
    return unwrap(result);
  }

  /**
   * The answer for an order or position the engine does not hold: -3001 when the account's history
   * has it (filled, cancelled or closed), -3005 when it never existed for this account.
   */
  private async notHeld(
    db: TDb,
    accountId: number,
    id: number,
    kind: 'order' | 'position',
  ): Promise<AppError> {
    const found =
      kind === 'order'
        ? await db
            .selectFrom('order_history')
            .select('id')
            .where('id', '=', id)
            .where('account_id', '=', accountId)
            .executeTakeFirst()
        : await db
            .selectFrom('deals')
            .select('id')
            .where('position_id', '=', id)
            .where('account_id', '=', accountId)
            .executeTakeFirst();
    return new AppError(found ? AppErrorCode.ORDER_ALREADY_DONE : AppErrorCode.ORDER_NOT_FOUND);
  }

  async modifyPosition(ctx: TCallContext, input: TRouteInput<'positionmodify'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const position = this.engine.position(input.order_id);
    if (!position || position.accountId !== view.accountId)
      throw await this.notHeld(ctx.services.database.db, view.accountId, input.order_id, 'position');
    unwrap(
      await this.host.submit({
        type: 'modify_position',
        clientKey: input.idempotencyKey,
        time: Date.now(),
        accountId: view.accountId,
        positionId: input.order_id,
        takeProfit: this.price(position.symbol, input.take_profit, 'take_profit'),
        stopLoss: this.price(position.symbol, input.stop_loss, 'stop_loss'),
      }),
    );
    return { ok: true as const };
  }

  private closedSummary(result: TApplyResult) {
    if (!result.ok) return { closed: 0, profit: money(0) };
    let closed = 0;
    let profit = 0;
    for (const event of result.events)
      if (event.type === 'position_closed') {
        closed++;
        profit += event.profit;
      }
    return { closed, profit: money(profit) };
  }

  async closePosition(ctx: TCallContext, input: TRouteInput<'positionclose'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const result = await this.applyOnTicket(ctx.services.database.db, 'position', {
      type: 'close_position',
      clientKey: input.idempotencyKey,
      time: Date.now(),
      accountId: view.accountId,
      positionId: input.order_id,
      ...(input.volume ? { volume: lotsToUnits(input.volume) } : {}),
    });
    return this.closedSummary(result);
  }

  async closeAll(ctx: TCallContext, input: TRouteInput<'closeall'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const result = unwrap(
      await this.host.submit({
        type: 'close_all',
        clientKey: input.idempotencyKey,
        time: Date.now(),
        accountId: view.accountId,
        ...(input.symbol ? { symbol: input.symbol.toUpperCase() } : {}),
      }),
    );
    return this.closedSummary(result);
  }

  marginPreview(ctx: TCallContext, input: TRouteInput<'ordermargin'>) {
    const view = this.ownAccount(ctx, input.account_id);
    const symbol = input.symbol.toUpperCase();
    const digits = this.digitsOf(symbol);
    const preview = this.engine.previewOpen(view.accountId, symbol, input.side, lotsToUnits(input.volume));
    if ('error' in preview) throw new AppError(ERROR_CODES[preview.error] ?? AppErrorCode.INTERNAL);
    return {
      margin: money(preview.margin),
      commission: money(preview.commission),
      usable_margin: money(view.usableMargin),
      currency: view.currency,
      price: fromScaled(preview.price, digits),
    };
  }

  private range(input: { from?: number | undefined; to?: number | undefined }) {
    const to = input.to ?? Date.now();
    const from = input.from ?? to - 30 * 86_400_000;
    return { from, to };
  }

  async deals(ctx: TCallContext, input: TRouteInput<'dealhistory'>) {
    this.ownAccount(ctx, input.account_id);
    return this.dealPage(ctx.services.database.db, {
      accountId: input.account_id,
      ...this.range(input),
      symbol: input.symbol,
      page: input.page,
      size: input.size,
    });
  }

  /** One page of an account's closed positions (one row per close), newest first. */
  async dealPage(db: TDb, query: THistoryQuery): Promise<TRouteOutput<'dealhistory'>> {
    const { accountId, from, to, page = 1, size = 20 } = query;
    let rowsQuery = db
      .selectFrom('deals')
      .where('account_id', '=', accountId)
      .where('close_time', '>=', from)
      .where('close_time', '<=', to);
    if (query.symbol) rowsQuery = rowsQuery.where('symbol', 'like', symbolPrefix(query.symbol));
    const [{ total }, rows] = await Promise.all([
      rowsQuery.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
      rowsQuery
        .selectAll()
        .orderBy('close_time', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute(),
    ]);
    return {
      items: rows.map((r) => {
        const digits = this.host.digits(r.symbol) ?? 5;
        return {
          id: Number(r.id),
          position_id: Number(r.position_id),
          symbol: r.symbol,
          side: r.side as 'buy' | 'sell',
          volume: unitsToLots(r.volume),
          open_price: fromScaled(Number(r.open_price), digits),
          close_price: fromScaled(Number(r.close_price), digits),
          open_time: Number(r.open_time),
          close_time: Number(r.close_time),
          hold_seconds: Math.max(0, Math.round((Number(r.close_time) - Number(r.open_time)) / 1000)),
          profit: money(Number(r.profit)),
          swap: money(Number(r.swap)),
          commission: money(Number(r.commission)),
          close_reason: r.reason,
        };
      }),
      total: Number(total),
      page,
      size,
    };
  }

  async finishedOrders(ctx: TCallContext, input: TRouteInput<'orderhistory'>) {
    this.ownAccount(ctx, input.account_id);
    return this.finishedOrderPage(ctx.services.database.db, {
      accountId: input.account_id,
      ...this.range(input),
      symbol: input.symbol,
      page: input.page,
      size: input.size,
    });
  }

  /** One page of an account's filled and cancelled pending orders, newest first. */
  async finishedOrderPage(db: TDb, query: THistoryQuery): Promise<TRouteOutput<'orderhistory'>> {
    const { accountId, from, to, page = 1, size = 20 } = query;
    let rowsQuery = db
      .selectFrom('order_history')
      .where('account_id', '=', accountId)
      .where('done_time', '>=', from)
      .where('done_time', '<=', to);
    if (query.symbol) rowsQuery = rowsQuery.where('symbol', 'like', symbolPrefix(query.symbol));
    const [{ total }, rows] = await Promise.all([
      rowsQuery.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
      rowsQuery
        .selectAll()
        .orderBy('done_time', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute(),
    ]);
    return {
      items: rows.map((r) => {
        const digits = this.host.digits(r.symbol) ?? 5;
        const px = (v: string | number | null) => (v === null ? null : fromScaled(Number(v), digits));
        return {
          order_id: Number(r.id),
          symbol: r.symbol,
          type: r.order_type,
          volume: unitsToLots(r.volume),
          price: fromScaled(Number(r.price), digits),
          limit_price: px(r.limit_price),
          take_profit: px(r.take_profit),
          stop_loss: px(r.stop_loss),
          placed_time: Number(r.placed_time),
          done_time: Number(r.done_time),
          status: r.status,
          cancel_reason: r.cancel_reason,
          position_id: r.position_id === null ? null : Number(r.position_id),
          fill_price: px(r.fill_price),
        };
      }),
      total: Number(total),
      page,
      size,
    };
  }
}

/** The text signed by an opening order (spec 7.9); the portal builds the same. */
export function orderSigningMessage(o: {
  openLot: string;
  side: string;
  accountId: number;
  leverage: number;
  symbol: string;
  nonce: string;
}): string {
  return `${o.openLot}|${o.side}|${o.accountId}|${o.leverage}|${o.symbol}|${o.nonce}`;
}
