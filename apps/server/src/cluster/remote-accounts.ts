import type { Cluster } from './cluster';
import { SUBJECT } from './cluster';

/** One account as the leader's engine has it, for a standby's account stream. */
export interface TRemoteAccount {
  tenantId: string;
  userId: string;
  accountType: number;
  /** The account's snapshot, serialized as the stream sends it. */
  json: string;
  hasPositions: boolean;
}

export interface TRemoteAccountsAnswer {
  accounts: Record<string, TRemoteAccount | null>;
}

/**
 * The accounts a standby's account stream watches, as the leader last answered them (issue 20).
 * A standby runs no engine: it asks the leader for the owners and snapshots of the accounts its
 * clients subscribe to, again after every event of theirs and every 250 ms while prices move, and
 * pushes them exactly as the leader would.
 */
export class RemoteAccounts {
  private readonly cache = new Map<number, TRemoteAccount | null>();

  constructor(private readonly cluster: Cluster) {}

  /** Asks the leader for these accounts (null: it does not know one). */
  async load(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const answer = (await this.cluster.request(SUBJECT.engineAccounts, { ids })) as TRemoteAccountsAnswer;
    for (const id of ids) this.cache.set(id, answer.accounts[String(id)] ?? null);
  }

  get(id: number): TRemoteAccount | null | undefined {
    return this.cache.get(id);
  }

  forget(id: number): void {
    this.cache.delete(id);
  }
}
