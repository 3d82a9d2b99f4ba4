import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import type { TConfig } from '../../../config';
import { ReplayFeed } from './replay';
import { SimulatorFeed } from './simulator';
import type { TPriceFeedAdapter } from './types';

/** The price source chosen by configuration. */
export function createFeed(config: TConfig): TPriceFeedAdapter {
  if (config.FEED === 'replay') {
    if (!config.FEED_REPLAY_FILE) throw new Error('FEED=replay needs FEED_REPLAY_FILE');
    return new ReplayFeed(config.FEED_REPLAY_FILE, { loop: true });
  }
  const simulator = new SimulatorFeed(DEFAULT_INSTRUMENTS, {
    seed: config.FEED_SEED,
    spikeRate: config.FEED_SPIKE_RATE,
  });
  if (config.FEED === 'off') {
    // Quotes and history still answer; no live ticks arrive.
    simulator.start = () => undefined;
  }
  return simulator;
}
