import { ALERT_LIMITS } from '@broker/contracts/alert-paths';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import type { TTick } from '../market';
import { AlertIndex, type TDirection } from './alert-index';
import { directionOf, type TAlertRow } from './terms';

/** What the watcher needs of the market: its accepted ticks and each broker's markup. */
export interface TAlertMarket {
  onAcceptedTick(listener: (tick: TTick) => void): () => void;
  /** The broker's spread markup in points: its bid is the feed's less half of it. */
  markupOf(symbol: string, tenantId?: string): number;
}

export interface TAlertWatcherPorts {
  db: TDb;
  market: TAlertMarket;
  /** Tells the trader (terminal, Web Push, email); called once per firing the database accepted. */
  deliver(row: TAlertRow, bid: number): Promise<void>;
  log: { warn(details: object, message: string): void };
}

interface TWatched {
  tenantId: string;
  symbol: string;
  direction: TDirection;
  level: number;
  oneShot: boolean;
  /** `watch`: fires at its level; `rearm`: a repeating alert that fired, waiting for the bid to cross back. */
  phase: 'watch' | 'rearm';
}

const EXPIRY_SWEEP_MS = 5_000;

/**
 * Evaluates every active alert on every accepted tick. The alerts are kept in an `AlertIndex` per
 * broker and symbol, so a tick costs O(log n + fired); the bid is the broker's (the feed's less half
 * its markup), as the trader sees it. A firing is claimed in the database by one conditional update
 * (`where state = 'active' and armed`), so however many server instances watch, it is delivered
 * once. A repeating alert then waits, in the index's other heap, for the bid to cross back before it
 * is armed again. Expired alerts are swept every 5 s. At start the index is rebuilt from the database.
 */
export class PriceAlertWatcher {
  private readonly index = new AlertIndex();
  private readonly watched = new Map<string, TWatched>();
  /** The brokers that watch each symbol: a tick prices only those. */
  private readonly tenantsBySymbol = new Map<string, Set<string>>();
  private readonly stoppers: (() => void)[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly chains = new Map<string, Promise<void>>();
  /** Ticks evaluated and alerts fired (claimed in the database) since start. */
  readonly counts = { ticks: 0, fired: 0 };

  constructor(private readonly ports: TAlertWatcherPorts) {}

  /** Loads the active alerts and starts watching ticks and expiries. */
  async start(): Promise<void> {
    // Started again (this instance leads the engine again, ADR 014): what it watched before may have
    // changed on another instance meanwhile, so it starts from the database alone.
    for (const id of [...this.watched.keys()]) this.untrack(id);
    const rows = await this.ports.db
      .selectFrom('price_alerts')
      .selectAll()
      .where('state', '=', 'active')
      .execute();
    for (const row of rows) this.track(row);
    this.stoppers.push(this.ports.market.onAcceptedTick((tick) => this.onTick(tick)));
    const sweep = setInterval(() => this.keep(this.sweepExpired()), EXPIRY_SWEEP_MS);
    sweep.unref?.();
    this.stoppers.push(() => clearInterval(sweep));
  }

  /** Stops watching and waits for firings under way (their deliveries included). */
  async stop(): Promise<void> {
    for (const stop of this.stoppers.splice(0)) stop();
    await Promise.allSettled([...this.pending]);
  }

  get size(): number {
    return this.watched.size;
  }

  /** Watches an alert as stored (an active one; any other is forgotten). */
  track(row: TAlertRow): void {
    if (row.state !== 'active') {
      this.untrack(row.id);
      return;
    }
    const direction = directionOf(row.condition);
    const watched: TWatched = {
      tenantId: row.tenant_id,
      symbol: row.symbol,
      direction,
      level: Number(row.trigger_price),
      oneShot: row.one_shot,
      phase: row.armed ? 'watch' : 'rearm',
    };
    this.watched.set(row.id, watched);
    const tenants = this.tenantsBySymbol.get(row.symbol) ?? new Set<string>();
    tenants.add(row.tenant_id);
    this.tenantsBySymbol.set(row.symbol, tenants);
    this.place(row.id, watched);
  }

  untrack(id: string): void {
    this.watched.delete(id);
    this.index.remove(id);
  }

  /** Puts the alert in the index: at its level, or (re-arming) one point back across it. */
  private place(id: string, watched: TWatched) {
    const key = `${watched.tenantId}|${watched.symbol}`;
    if (watched.phase === 'watch') {
      this.index.add({ id, key, direction: watched.direction, level: watched.level });
      return;
    }
    const back = watched.direction === 'up' ? 'down' : 'up';
    this.index.add({ id, key, direction: back, level: watched.level + (back === 'down' ? -1 : 1) });
  }

  /** One accepted tick: the alerts of its symbol the broker's bid reached fire (or re-arm). */
  onTick(tick: TTick): void {
    const tenants = this.tenantsBySymbol.get(tick.symbol);
    if (!tenants) return;
    this.counts.ticks++;
    for (const tenantId of tenants) {
      const bid = tick.bid - Math.floor(this.ports.market.markupOf(tick.symbol, tenantId) / 2);
      for (const entry of this.index.reached(`${tenantId}|${tick.symbol}`, bid)) {
        const watched = this.watched.get(entry.id);
        if (!watched) continue;
        if (watched.phase === 'rearm') {
          watched.phase = 'watch';
          this.place(entry.id, watched);
          this.queue(entry.id, () => this.rearm(entry.id));
          continue;
        }
        if (watched.oneShot) this.watched.delete(entry.id);
        else {
          watched.phase = 'rearm';
          this.place(entry.id, watched);
        }
        this.queue(entry.id, () => this.fire(entry.id, bid));
      }
    }
  }

  /**
   * Runs an alert's database steps one after another: a re-arm sent while its firing is still being
   * recorded must find that firing done, or the alert would stay disarmed.
   */
  private queue(id: string, step: () => Promise<void>) {
    const next = (this.chains.get(id) ?? Promise.resolve()).then(step);
    this.chains.set(id, next);
    this.keep(
      next.finally(() => {
        if (this.chains.get(id) === next) this.chains.delete(id);
      }),
    );
  }

  private keep(work: Promise<void>) {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /**
   * Claims the firing: only an active, armed, unexpired alert (and a repeating one not within its
   * cooldown) is updated, so a second instance or a late tick finds nothing to deliver.
   */
  private async fire(id: string, bid: number): Promise<void> {
    try {
      const cooldown = `${ALERT_LIMITS.repeatCooldownMs / 1000} seconds`;
      const row = await this.ports.db
        .updateTable('price_alerts')
        .set({
          state: sql`case when one_shot then 'fired' else 'active' end`,
          armed: sql<boolean>`one_shot`,
          fired_at: sql`now()`,
          fired_price: bid,
          fire_count: sql`fire_count + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('state', '=', 'active')
        .where('armed', '=', true)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .where((eb) =>
          eb.or([
            eb('one_shot', '=', true),
            eb('fired_at', 'is', null),
            eb('fired_at', '<', sql<Date>`now() - ${cooldown}::interval`),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
      if (!row) return;
      this.counts.fired++;
      await this.ports.deliver(row, bid);
    } catch (error) {
      this.ports.log.warn({ err: error, alert: id }, 'price alert: firing not recorded or delivered');
    }
  }

  /** A repeating alert's bid crossed back: it may fire again. */
  private async rearm(id: string): Promise<void> {
    try {
      await this.ports.db
        .updateTable('price_alerts')
        .set({ armed: true, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('state', '=', 'active')
        .where('armed', '=', false)
        .execute();
    } catch (error) {
      this.ports.log.warn({ err: error, alert: id }, 'price alert: re-arming not recorded');
    }
  }

  /** Marks the alerts whose expiry passed and stops watching them. */
  async sweepExpired(): Promise<void> {
    try {
      const expired = await this.ports.db
        .updateTable('price_alerts')
        .set({ state: 'expired', updated_at: sql`now()` })
        .where('state', '=', 'active')
        .where('expires_at', '<=', sql<Date>`now()`)
        .returning('id')
        .execute();
      for (const { id } of expired) this.untrack(id);
    } catch (error) {
      this.ports.log.warn({ err: error }, 'price alert: expiry sweep failed');
    }
  }
}
