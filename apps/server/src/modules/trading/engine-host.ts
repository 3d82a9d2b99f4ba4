import { randomUUID } from 'node:crypto';
import type { TInstrumentSpec } from '@broker/domain/market/instruments';
import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import {
  type TAccountView,
  type TApplyResult,
  type TCommand,
  type TEngineConfig,
  type TEngineEvent,
  TradingEngine,
} from '@broker/domain/trading/engine-core';
import { compileInstrument } from '@broker/domain/trading/instrument-terms';
import { sql } from 'kysely';
import type { TDatabase } from '../../db/database';
import type { MarketService, TTick } from '../market';
import { tenantIds } from '../tenancy';
import {
  captureBatchItem,
  isFencedOff,
  loadSnapshot,
  persistBatch,
  type TAccountOwner,
  type TBatchItem,
  type TShadow,
} from './persistence';
import {
  loadTenantMarketConfig,
  protectedByGroup,
  type TGroupConfig,
  type TTenantMarketConfig,
} from './terms-sync';

/** Daily swap charge time (architecture: 22:00 UTC, the usual forex rollover). */
const ROLLOVER_HOUR_UTC = 22;

/** Most items written by one transaction; more wait for the next one. */
const MAX_BATCH = 512;

interface TWaiter {
  item: TBatchItem;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * How long an order's nonce is kept after its commit: a nonce's time stamp may be up to a minute
 * either side of the server's clock, so two minutes cover every stamp the signature check accepts.
 */
export const NONCE_KEEP_MS = 120_000;

export type TEngineListener = (events: readonly TEngineEvent[]) => void;

/**
 * The engine lease as the engine sees it (the leadership module's EngineLease, ADR 013): the epoch
 * its commits carry while this instance leads (null: it does not, and nothing is written), the
 * question asked after a failed commit, and the way to give an epoch up.
 */
export interface TEngineLease {
  readonly epoch: number | null;
  confirm(epoch: number): Promise<boolean>;
  lost(epoch: number, reason: string): void;
  onChange(listener: (epoch: number | null) => void): () => void;
}

/** Same key as the engine's own idempotency scope: per account, or engine-wide. */
export const idempotencyKey = (command: TCommand) =>
  `${'accountId' in command ? String(command.accountId) : '*'}:${command.clientKey}`;

/**
 * The trading engine in the server: the single writer (one JavaScript thread applies every command
 * and tick to the in-memory core), durable before acknowledged (a command's promise resolves only
 * after the transaction holding its effects commits), with group commit (commands that arrive
 * while a transaction is in flight are written together by the next one). If a commit fails, every
 * waiting command is refused and the engine is rebuilt from the database, so memory never keeps
 * what the database does not have.
 *
 * With a lease (ADR 013) every commit carries the lease's epoch and the database refuses it once a
 * newer epoch exists. When the lease is lost, or a commit is fenced off, the host steps down at
 * once: everything waiting is refused, new commands are refused (-9005), ticks are ignored; when
 * the lease is won again it rebuilds from the database and leads again.
 */
export class EngineHost {
  private engine: TradingEngine;
  private shadow: TShadow = { positions: new Map(), orders: new Map() };
  private readonly waiting: TWaiter[] = [];
  private flushing: Promise<void> | null = null;
  /** Set while the engine is rebuilt from the database after a failed commit. */
  private reloading: Promise<void> | null = null;
  /** Results by idempotency key, including those still being committed. */
  private readonly results = new Map<string, Promise<TApplyResult>>();
  private readonly listeners = new Set<TEngineListener>();
  private unsubscribe: (() => void) | null = null;
  private config: TEngineConfig;
  private readonly digitsBySymbol = new Map<string, number>();
  /** Owner of every account, kept in memory so trading calls need no database read. */
  private readonly owners = new Map<number, { tenantId: string; userId: string; createdAt: string }>();
  private readonly byUser = new Map<string, number[]>();
  /**
   * Order-signature nonces in use (session-scoped key to the time it may be forgotten). Each accepted
   * order's nonce is committed with it (engine_idempotency.nonce) and read back at start, so a
   * signed order replayed after a restart is still refused.
   */
  private readonly nonces = new Map<string, number>();
  /** Account-creation idempotency: client key to the account it made. */
  private readonly createdByKey = new Map<string, number>();
  /** Each account row as last committed by a group commit (SQL text), to skip unchanged rows. */
  private readonly written = new Map<number, string>();
  /** False while the lease is not held: nothing is applied or written. */
  private leading = true;
  /** Hear when this engine starts leading (rebuilt, trading) and when it stops. */
  private readonly leadingListeners = new Set<(leading: boolean) => void>();
  readonly stats = {
    batches: 0,
    items: 0,
    largestBatch: 0,
    tickEvents: 0,
    failures: 0,
    commitMs: 0,
    /** Commits the database refused because a newer epoch existed. */
    fenced: 0,
  };

  constructor(
    private readonly database: TDatabase,
    private readonly market: MarketService | null,
    config?: TEngineConfig,
    private readonly log: (error: unknown, message: string) => void = (error, message) =>
      console.error(message, error),
    /** Without one (a test's second engine on a database), commits carry no epoch. */
    private readonly lease: TEngineLease | null = null,
  ) {
    this.config = config ?? { instruments: DEFAULT_INSTRUMENTS.map((spec) => compileInstrument(spec)) };
    this.engine = new TradingEngine(this.config);
    for (const terms of this.config.instruments) this.digitsBySymbol.set(terms.symbol, terms.digits);
    this.leading = lease === null || lease.epoch !== null;
    lease?.onChange((epoch) => {
      if (epoch === null) this.stepDown();
      else void this.lead();
    });
  }

  /** Whether this engine leads (holds the lease, or runs without one). */
  get isLeading(): boolean {
    return this.leading;
  }

  /**
   * Hears `true` once this engine leads (after the rebuild that follows winning the lease) and
   * `false` when it steps down: the instance starts and stops its leader-only parts on it.
   */
  onLeadingChange(listener: (leading: boolean) => void): () => void {
    this.leadingListeners.add(listener);
    return () => this.leadingListeners.delete(listener);
  }

  private setLeading(leading: boolean) {
    if (this.leading === leading) return;
    this.leading = leading;
    for (const listener of this.leadingListeners) {
      try {
        listener(leading);
      } catch (error) {
        this.log(error, 'trading engine: a leadership listener failed');
      }
    }
  }

  /**
   * Stops writing at once: everything waiting for a commit is refused (a group already sent is
   * decided by the database: it commits only if its epoch is still current, and then it may be
   * acknowledged), new commands are refused and ticks are ignored until the lease is won again.
   */
  private stepDown() {
    if (!this.leading) return;
    this.setLeading(false);
    const refused = this.waiting.splice(0);
    const failure = new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
    for (const w of refused) w.reject(failure);
    this.log(
      null,
      `trading engine: stepped down (the lease is lost); ${refused.length} waiting items refused`,
    );
    // Memory may hold what refused commits carried: back to what is committed, for the reads.
    this.rebuild().catch((error: unknown) =>
      this.log(error, 'trading engine: reload after stepping down failed'),
    );
  }

  /** The lease is won again: rebuild from the database (which now holds every acknowledged commit), then lead. */
  private async lead() {
    await this.idle();
    const epoch = this.lease?.epoch;
    if (epoch === null || epoch === undefined) return;
    try {
      // A standby's copy of the brokers' terms may be older than the database: read them again.
      await this.loadAllMarketConfig();
      // Leading is set inside the rebuild, before the commands that waited for it go on.
      await this.rebuild(() => this.setLeading(this.lease?.epoch === epoch));
    } catch (error) {
      this.log(error, 'trading engine: rebuild after winning the lease failed');
      this.lease?.lost(epoch, 'the engine could not be rebuilt from the database');
      return;
    }
    if (this.leading) await this.afterLeading();
  }

  /**
   * What a leader does once it trades: accounts join their groups' settings, and a rollover missed
   * while no instance led (or while this one was a standby) is charged now (keyed by its date).
   */
  private async afterLeading(): Promise<void> {
    await Promise.all([...this.tenantGroups.keys()].flatMap((id) => this.syncAccountsWithGroups(id))).catch(
      (error: unknown) => this.log(error, 'trading engine: group settings sync failed'),
    );
    if (this.rolloverScheduled) {
      const now = new Date();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), ROLLOVER_HOUR_UTC);
      if (now.getTime() >= today) void this.rollover(today);
    }
  }

  /**
   * Rebuilds the engine from the database, one rebuild at a time; commands wait for it and ticks
   * are skipped meanwhile. `then` runs before any waiting command does.
   */
  private async rebuild(then?: () => void): Promise<void> {
    while (this.reloading) await this.reloading;
    const run = this.reload().then(then);
    // Commands waiting for it go on either way (a failed rebuild refuses them in its own way).
    this.reloading = run
      .catch(() => undefined)
      .finally(() => {
        this.reloading = null;
      });
    await run;
  }

  digits(symbol: string): number | undefined {
    return this.digitsBySymbol.get(symbol);
  }

  ownerOf(accountId: number) {
    return this.owners.get(accountId);
  }

  accountsOf(tenantId: string, userId: string): number[] {
    return this.byUser.get(`${tenantId}|${userId}`) ?? [];
  }

  accountForKey(clientKey: string): number | undefined {
    return this.createdByKey.get(clientKey);
  }

  /** True when the command's idempotency key was seen (its result is known or being committed). */
  knows(command: TCommand): boolean {
    return this.results.has(idempotencyKey(command));
  }

  async nextAccountId(): Promise<number> {
    const { rows } = await sql<{ id: string }>`select nextval('trading_account_ids') as id`.execute(
      this.database.db,
    );
    return Number(rows[0]?.id);
  }

  private addOwner(accountId: number, owner: { tenantId: string; userId: string; createdAt: string }) {
    this.owners.set(accountId, owner);
    const key = `${owner.tenantId}|${owner.userId}`;
    const list = this.byUser.get(key) ?? [];
    if (!list.includes(accountId)) list.push(accountId);
    this.byUser.set(key, list);
  }

  /** Loads the durable state, starts following the price feed and schedules the daily rollover. */
  async start(options: { rollover?: boolean } = {}): Promise<void> {
    await this.loadAllMarketConfig();
    // A standby (another instance leads) loads its state when it wins the lease (`lead`).
    if (this.leading) {
      await this.reload();
      // Accounts left outside a group by an earlier version join their broker's default group.
      await Promise.all([...this.tenantGroups.keys()].flatMap((id) => this.syncAccountsWithGroups(id)));
    }
    if (this.market) this.unsubscribe = this.market.onAcceptedTick((tick) => this.onTick(tick));
    if (options.rollover !== false && this.market) {
      this.rolloverScheduled = true;
      this.scheduleRollover();
    }
  }

  private readonly configListeners = new Set<(tenantId: string) => void>();

  /** Hears a broker whose saved market configuration this engine makes live (the other instances follow). */
  onMarketConfigApplied(listener: (tenantId: string) => void): () => void {
    this.configListeners.add(listener);
    return () => this.configListeners.delete(listener);
  }

  /** Reads a broker's terms again (a standby hears that the leader applied a change). */
  async refreshMarketConfig(tenantId: string): Promise<void> {
    this.useConfig(await loadTenantMarketConfig(this.database.db, tenantId));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.rolloverTimer) clearTimeout(this.rolloverTimer);
    this.rolloverTimer = null;
    await this.idle();
  }

  private rolloverTimer: ReturnType<typeof setTimeout> | null = null;
  private rolloverScheduled = false;

  /**
   * Swap is charged at 22:00 UTC each day, once: the command's key is the date, so a restart
   * never charges twice, and a server that was down at 22:00 catches up when it starts.
   */
  private scheduleRollover(now = Date.now()) {
    const day = new Date(now);
    const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), ROLLOVER_HOUR_UTC);
    if (now >= today && this.leading) void this.rollover(today);
    const next = now >= today ? today + 86_400_000 : today;
    this.rolloverTimer = setTimeout(() => {
      // Only the leader charges swap; a standby that leads later catches up (`afterLeading`).
      if (this.leading) void this.rollover(next);
      this.scheduleRollover(Date.now() + 1);
    }, next - now);
    this.rolloverTimer.unref();
  }

  async rollover(at: number) {
    const key = `rollover:${new Date(at).toISOString().slice(0, 10)}`;
    const result = await this.submit({ type: 'rollover', clientKey: key, time: at }).catch(
      (error: unknown) => {
        this.log(error, 'trading engine: rollover failed');
        return null;
      },
    );
    return result;
  }

  /** Waits until everything accepted so far is committed. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Replaces the in-memory state with what the database holds. Everything is read first and swapped
   * in one synchronous step: the calls that read the engine without waiting for a rebuild (account
   * owners, views) never see a half-built state, such as no owner for an account that exists.
   */
  private async reload() {
    const [snapshot, { rows: recent }, owners] = await Promise.all([
      loadSnapshot(this.database.db),
      sql<{ nonce: string; created_at: Date | string }>`
        select nonce, created_at from engine_idempotency
         where nonce is not null and created_at > now() - make_interval(secs => ${NONCE_KEEP_MS / 1000})
         order by created_at`.execute(this.database.db),
      this.database.db
        .selectFrom('trading_accounts')
        .select(['id', 'tenant_id', 'user_id', 'created_at'])
        .orderBy('id')
        .execute(),
    ]);
    this.written.clear();
    this.engine = TradingEngine.restore(snapshot, this.config);
    this.shadow = {
      positions: new Map(snapshot.positions.map((p) => [p.positionId, p])),
      orders: new Map(snapshot.orders.map((o) => [o.orderId, o])),
    };
    this.results.clear();
    this.createdByKey.clear();
    this.nonces.clear();
    for (const row of recent) this.nonces.set(row.nonce, new Date(row.created_at).getTime() + NONCE_KEEP_MS);
    for (const entry of snapshot.idempotency) {
      this.results.set(entry.key, Promise.resolve(entry.result));
      const created = /^(\d+):(create:.+)$/.exec(entry.key);
      if (created) this.createdByKey.set(created[2] as string, Number(created[1]));
    }
    this.owners.clear();
    this.byUser.clear();
    for (const o of owners)
      this.addOwner(Number(o.id), {
        tenantId: o.tenant_id,
        userId: o.user_id,
        createdAt: new Date(o.created_at).toISOString(),
      });
    // Quotes are not stored: take the feed's latest ones. primeQuotes prices everything without
    // firing triggers, so a half-priced book cannot stop an account out.
    if (this.market) this.engine.primeQuotes(this.market.lastTicks());
  }

  /** The in-memory core, for reads (views, quotes). Never apply commands to it directly. */
  get core(): TradingEngine {
    return this.engine;
  }

  /** A broker's groups as last loaded: the default one and each group's levels. */
  private readonly tenantGroups = new Map<string, { defaultId: string; groups: Map<string, TGroupConfig> }>();

  /**
   * The group a new account of the broker joins, with the levels it starts with. A broker whose
   * configuration is not loaded yet (created after the start, or seeded after it on a new database)
   * is loaded now, which also creates its default group: an account never starts outside a group,
   * where it would trade the catalogue's terms rather than the broker's.
   */
  async groupForNewAccount(tenantId: string): Promise<TGroupConfig> {
    if (!this.tenantGroups.has(tenantId))
      this.useConfig(await loadTenantMarketConfig(this.database.db, tenantId));
    const known = this.tenantGroups.get(tenantId);
    const group = known?.groups.get(known.defaultId);
    if (!group) throw new Error(`broker ${tenantId} has no default account group`);
    return group;
  }

  /**
   * The instrument specifications an account trades under: its group's (the broker's terms with the
   * group's overrides), or undefined for an unknown account.
   */
  specsForAccount(accountId: number): ReadonlyMap<string, TInstrumentSpec> | undefined {
    const owner = this.owners.get(accountId);
    const view = this.engine.account(accountId);
    if (!owner || !view) return undefined;
    const known = this.tenantGroups.get(owner.tenantId);
    return known?.groups.get(view.profile ?? known.defaultId)?.specs;
  }

  /** Loads every broker's configuration (at start, before the state is restored). */
  private async loadAllMarketConfig(): Promise<void> {
    for (const id of await tenantIds(this.database.db))
      this.useConfig(await loadTenantMarketConfig(this.database.db, id));
  }

  private useConfig(config: TTenantMarketConfig): void {
    const profiles = { ...(this.config.profiles ?? {}) };
    const groups = new Map<string, TGroupConfig>();
    let defaultId = '';
    for (const group of config.groups) {
      profiles[group.id] = group.terms;
      groups.set(group.id, group);
      if (group.isDefault) defaultId = group.id;
      this.engine.setProfile(group.id, group.terms);
    }
    this.config = { ...this.config, profiles };
    this.tenantGroups.set(config.tenantId, { defaultId, groups });
    this.market?.setTenantMarket(config.tenantId, {
      specs: config.specs,
      markups: config.markups,
      stopsLevels: config.stopsLevels,
    });
  }

  /**
   * Makes the broker's saved market configuration live: instrument terms of every group (new orders,
   * swaps, commissions), the portal's specs and markups, and every account's group levels. The last
   * tick of each symbol is replayed at once, so a new markup prices positions and fires triggers now,
   * not at the next tick.
   */
  async applyMarketConfig(tenantId: string): Promise<void> {
    const config = await loadTenantMarketConfig(this.database.db, tenantId);
    for (const listener of this.configListeners) listener(tenantId);
    this.useConfig(config);
    const changes = this.syncAccountsWithGroups(tenantId);
    // Only open markets: a closed market's last quote is stale, and a wider spread must not fire
    // triggers on it (the next real tick after the open does).
    if (this.market)
      for (const tick of this.market.lastTicks()) if (this.market.isOpen(tick.symbol)) this.onTick(tick);
    await Promise.all(changes);
    await this.idle();
  }

  /**
   * Brings a broker's accounts in line with its groups as loaded: an account outside any group
   * (opened before groups existed) joins the default one once it holds no trades, and every account
   * takes its group's margin-call, stop-out and negative-balance settings. Answers the submissions.
   */
  private syncAccountsWithGroups(tenantId: string): Promise<unknown>[] {
    const { defaultId, groups } = this.tenantGroups.get(tenantId) as {
      defaultId: string;
      groups: Map<string, TGroupConfig>;
    };
    const changes: Promise<unknown>[] = [];
    const stamp = randomUUID();
    for (const [accountId, owner] of this.owners) {
      if (owner.tenantId !== tenantId) continue;
      const view = this.engine.account(accountId);
      if (!view || view.closed) continue;
      // Accounts from before groups existed join the default group once they hold no trades.
      if (view.profile === null && defaultId)
        changes.push(
          this.submit({
            type: 'set_profile',
            clientKey: `group:${stamp}`,
            time: Date.now(),
            accountId,
            profile: defaultId,
          }),
        );
      const group = groups.get(view.profile ?? defaultId);
      if (!group) continue;
      const nbp = protectedByGroup(group, view.accountType);
      if (
        view.marginCallBp !== group.marginCallBp ||
        view.stopOutBp !== group.stopOutBp ||
        view.negativeBalanceProtection !== nbp
      )
        changes.push(
          this.submit({
            type: 'set_levels',
            clientKey: `levels:${stamp}`,
            time: Date.now(),
            accountId,
            marginCallBp: group.marginCallBp,
            stopOutBp: group.stopOutBp,
            negativeBalanceProtection: nbp,
          }),
        );
    }
    return changes;
  }

  /** Moves an account to another group of its broker, taking that group's levels. */
  async moveAccountToGroup(input: { tenantId: string; accountId: number; groupId: string }): Promise<void> {
    const owner = this.owners.get(input.accountId);
    const view = this.engine.account(input.accountId);
    if (owner?.tenantId !== input.tenantId || !view) throw new AppError(AppErrorCode.ACCOUNT_NOT_FOUND);
    const group = this.tenantGroups.get(input.tenantId)?.groups.get(input.groupId);
    if (!group) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if (view.profile === input.groupId) return;
    const stamp = randomUUID();
    const moved = await this.submit({
      type: 'set_profile',
      clientKey: `group:${stamp}`,
      time: Date.now(),
      accountId: input.accountId,
      profile: input.groupId,
    });
    if (!moved.ok)
      throw new AppError(
        moved.error === 'ACCOUNT_HAS_OPEN_TRADES'
          ? AppErrorCode.GROUP_HAS_OPEN_TRADES
          : AppErrorCode.INTERNAL,
      );
    const levels = await this.submit({
      type: 'set_levels',
      clientKey: `levels:${stamp}`,
      time: Date.now(),
      accountId: input.accountId,
      marginCallBp: group.marginCallBp,
      stopOutBp: group.stopOutBp,
      negativeBalanceProtection: protectedByGroup(group, view.accountType),
    });
    if (!levels.ok) throw new AppError(AppErrorCode.INTERNAL);
  }

  /**
   * What a scratch engine needs to run a bot as this one would (the strategy simulators): the
   * configuration with every group's terms, and today's raw quotes.
   */
  simulationSetup(): {
    config: TEngineConfig;
    quotes: { symbol: string; bid: number; ask: number; time: number }[];
  } {
    return { config: this.config, quotes: this.engine.rawQuotes() };
  }

  onEvents(listener: TEngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes a signature nonce for one order; false when it was taken before (also before a restart,
   * while inside its window). Expired ones are dropped from the oldest end (a Map iterates in
   * insertion order): amortised O(1) per order.
   */
  claimNonce(key: string, until: number, now = Date.now()): boolean {
    if (this.nonces.has(key)) return false;
    for (const [k, expiry] of this.nonces) {
      if (expiry >= now) break;
      this.nonces.delete(k);
    }
    this.nonces.set(key, until);
    return true;
  }

  /**
   * Opens an account unless its owner already holds `limit.perOwner` open accounts of the same kind
   * (`limit.sameKind`), or the broker `limit.perBroker` open accounts: counting and opening are one
   * synchronous step of the single writer, so parallel requests cannot all see room for one more.
   * A repeated idempotency key answers its first result whatever the count.
   */
  openAccount(
    command: Extract<TCommand, { type: 'create_account' }>,
    owner: TAccountOwner,
    limit: { perOwner: number; sameKind: (view: TAccountView) => boolean; perBroker: number | null },
  ): Promise<TApplyResult> {
    if (this.reloading) return this.reloading.then(() => this.openAccount(command, owner, limit));
    if (!this.leading) return Promise.reject(new AppError(AppErrorCode.SERVICE_UNAVAILABLE));
    // The same key sent again while (or after) its account is made: the first answer, whatever
    // account id this request was given.
    const made = this.createdByKey.get(command.clientKey);
    const first = made === undefined ? undefined : this.results.get(`${made}:${command.clientKey}`);
    if (first) return first;
    if (!this.results.has(idempotencyKey(command))) {
      const open = (id: number) => {
        const view = this.engine.account(id);
        return view !== undefined && !view.closed ? view : undefined;
      };
      const held = this.accountsOf(owner.tenantId, owner.userId).filter((id) => {
        const view = open(id);
        return view !== undefined && limit.sameKind(view);
      }).length;
      if (held >= limit.perOwner) throw new AppError(AppErrorCode.ACCOUNT_LIMIT_REACHED);
      if (limit.perBroker !== null) {
        let brokerOpen = 0;
        // Copy and strategy sub-accounts are parts of a main account, not accounts of the plan.
        for (const [id, who] of this.owners)
          if (who.tenantId === owner.tenantId && open(id)?.parentId === null) brokerOpen++;
        if (brokerOpen >= limit.perBroker)
          throw new AppError(
            AppErrorCode.PACKAGE_LIMIT_REACHED,
            { limit: 'tradingAccounts', max: limit.perBroker, used: brokerOpen },
            `package limit tradingAccounts (${limit.perBroker}) reached`,
          );
      }
    }
    return this.submit(command, owner);
  }

  /**
   * Applies a command and answers once its effects are committed. A repeated idempotency key
   * answers the first result (after its commit), without applying anything again.
   */
  submit(command: TCommand, owner?: TAccountOwner, nonce?: string): Promise<TApplyResult> {
    // While the engine is rebuilt after a failed commit, commands wait for the rebuilt engine:
    // applied to the old one, they would be committed but missing from memory.
    if (this.reloading) return this.reloading.then(() => this.submit(command, owner, nonce));
    if (!this.leading) return Promise.reject(new AppError(AppErrorCode.SERVICE_UNAVAILABLE));
    const key = idempotencyKey(command);
    const known = this.results.get(key);
    if (known) {
      // The engine answers a repeat from its own record: the first result, or a conflict when the
      // key came back with a different command.
      const again = this.engine.apply(command);
      return !again.ok && again.error === 'IDEMPOTENCY_CONFLICT' ? Promise.resolve(again) : known;
    }
    const result = this.engine.apply(command);
    if (!result.ok) return Promise.resolve(result);
    if (owner) {
      this.addOwner(owner.accountId, { ...owner, createdAt: new Date(command.time).toISOString() });
      this.createdByKey.set(command.clientKey, owner.accountId);
    }
    // What a repeat answers: the first result, without the followers' copies of a leader's trade.
    const kept = this.engine.recordedResult(command) ?? result;
    const item: TBatchItem = {
      ...captureBatchItem(this.engine, this.shadow, result.events),
      ...(owner ? { owner } : {}),
      idempotency: {
        key,
        fingerprint: this.engine.recordedFingerprint(command),
        result: storedResult(kept),
        nonce: nonce ?? null,
      },
    };
    const done = this.enqueue(item).then(() => {
      this.publish(result.events);
      return result;
    });
    this.results.set(key, done);
    done.then(
      () => {
        // once answered, keep only what a repeat answers (a leader's thousand copies need not stay)
        if (kept !== result && this.results.get(key) === done) this.results.set(key, Promise.resolve(kept));
      },
      () => this.results.delete(key),
    );
    return done;
  }

  /** Feeds one accepted tick; fired triggers, margin calls and stop-outs are written like commands. */
  onTick(tick: TTick) {
    // Ticks during a rebuild or without the lease are skipped; the next one is checked against every trigger.
    if (this.reloading || !this.leading) return;
    const events = this.engine.onTick(tick.symbol, tick.bid, tick.ask, tick.time);
    if (events.length === 0) return;
    this.stats.tickEvents += events.length;
    const item: TBatchItem = captureBatchItem(this.engine, this.shadow, events);
    this.enqueue(item).then(
      () => this.publish(events),
      () => undefined,
    );
  }

  private publish(events: readonly TEngineEvent[]) {
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch {
        // a listener's failure never reaches the engine
      }
    }
  }

  private enqueue(item: TBatchItem): Promise<void> {
    if (!this.leading) return Promise.reject(new AppError(AppErrorCode.SERVICE_UNAVAILABLE));
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      // Let the commands of this turn of the event loop join the first batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) await this.flushOnce();
    } finally {
      // In the same synchronous step as the last look at `waiting`: a command enqueued from here
      // on starts a new loop. (Cleared in a later callback, as before, a command queued in between
      // by another request's continuation waited forever.)
      this.flushing = null;
    }
  }

  /**
   * Commits one group; on failure, refuses it and everything waiting, and rebuilds the engine — or,
   * when the failure means the lease is gone (fenced off, or not confirmed), steps down instead.
   */
  private async flushOnce(): Promise<void> {
    const batch = this.waiting.splice(0, MAX_BATCH);
    const t0 = performance.now();
    const epoch = this.lease ? this.lease.epoch : undefined;
    try {
      // Without the lease nothing is sent (stepDown refused the rest already).
      if (epoch === null) throw new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
      await persistBatch(
        this.database,
        batch.map((w) => w.item),
        this.written,
        epoch,
      );
      this.stats.commitMs += performance.now() - t0;
      this.stats.batches++;
      this.stats.items += batch.length;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
      for (const w of batch) w.resolve();
    } catch (error) {
      this.stats.failures++;
      const refused = [...batch, ...this.waiting.splice(0)];
      const failure = new AppError(AppErrorCode.SERVICE_UNAVAILABLE);
      for (const w of refused) w.reject(failure);
      if (epoch === null) return;
      if (epoch !== undefined && this.lease) {
        if (isFencedOff(error)) {
          this.stats.fenced++;
          this.log(
            error,
            `trading engine: commit of ${batch.length} items refused, epoch ${epoch} is fenced off`,
          );
          this.lease.lost(epoch, 'a commit was fenced off by a newer epoch');
          return;
        }
        if (!(await this.lease.confirm(epoch))) {
          this.log(error, `trading engine: commit of ${batch.length} items failed and the lease is gone`);
          return;
        }
      }
      this.log(error, `trading engine: commit of ${batch.length} items failed; rebuilding from the database`);
      // Memory ran ahead of the database: go back to what is committed.
      this.reloading = this.reload()
        .catch((reloadError: unknown) => this.log(reloadError, 'trading engine: reload failed'))
        .finally(() => {
          this.reloading = null;
        });
      await this.reloading;
    }
  }
}

/**
 * The result kept in the database for a repeated key after a restart: what an answer is made of —
 * the outcome, the ticket and the closing events (a close answers the profit). The events that only
 * describe new state (the opened position, the placed order, ledger postings) are in their own tables,
 * and leaving them out keeps each order's share of the group commit small.
 */
function storedResult(result: TApplyResult): TApplyResult {
  if (!result.ok) return result;
  return {
    ok: true,
    ticket: result.ticket,
    events: result.events.filter((e) => e.type === 'position_closed'),
  };
}
