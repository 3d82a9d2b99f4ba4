import { layoutKey, type TChartLayout } from './chart-layout';

/** How the saver waits and sends: injected, so the rules below are tested without a browser. */
export interface TLayoutSaverOptions {
  /** Sends one layout; answers whether the server kept it. */
  save(layout: TChartLayout, keepalive: boolean): Promise<boolean>;
  delayMs: number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

/**
 * Saves a layout a moment after the last change: three changes in a row send one save, of the last
 * layout; a layout equal to the one the server has is not sent; saves go one at a time; a failed save
 * is tried again with the next change or flush; `flush` sends a waiting change at once (the page is
 * being left: `keepalive`).
 */
export class LayoutSaver {
  private timer: unknown = null;
  private latest: TChartLayout | null = null;
  private saved = '';
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: TLayoutSaverOptions) {}

  /** The layout the server has (read from it): nothing to save yet. */
  loaded(layout: TChartLayout) {
    this.latest = layout;
    this.saved = layoutKey(layout);
  }

  /** A change: saved `delayMs` after the last one. */
  change(layout: TChartLayout) {
    this.latest = layout;
    this.stopTimer();
    this.timer = this.options.setTimer(() => {
      this.timer = null;
      void this.send(false);
    }, this.options.delayMs);
  }

  /** Whether a change waits for its save. */
  get waiting(): boolean {
    return this.timer !== null;
  }

  /** Sends a waiting change now (the tab is hidden, left or reloaded). */
  flush(keepalive = true): Promise<void> {
    if (this.timer === null) return this.queue;
    this.stopTimer();
    return this.send(keepalive);
  }

  private stopTimer() {
    if (this.timer !== null) this.options.clearTimer(this.timer);
    this.timer = null;
  }

  private send(keepalive: boolean): Promise<void> {
    const next = this.latest;
    if (!next) return this.queue;
    const body = { kind: next.kind, panes: next.panes.map((p) => ({ ...p })), active: next.active };
    this.queue = this.queue
      .catch(() => undefined)
      .then(async () => {
        const key = layoutKey(body);
        if (key === this.saved) return;
        if (await this.options.save(body, keepalive).catch(() => false)) this.saved = key;
      });
    return this.queue;
  }
}
