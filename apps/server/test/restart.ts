import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNDING_PATHS } from '@broker/contracts/funding-paths';
import type { TApplyResult, TCommand } from '@broker/domain/trading/engine-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type TConfig } from '../src/config';
import { seed } from '../src/seed';
import { freshDatabaseUrl, TEST_ADMIN_PASSWORD, type TTestServer } from './helpers';
import type { Trader } from './trader';

/**
 * A test file's servers that can be stopped and started again on the same database: PGlite on disk
 * in the file's data folder (not in memory), or the PostgreSQL database DATABASE_URL names. `boot()`
 * starts one (seeded, listening on a free port); the database and folder go when the file ends.
 */
export function restartableServers(label: string): { boot(): Promise<TTestServer>; config(): TConfig } {
  let config: TConfig;
  let dataDir: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await freshDatabaseUrl();
    drop = database.drop;
    dataDir = mkdtempSync(join(tmpdir(), `${label}-`));
    config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url === 'memory://' ? '' : database.url,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      MAIL_CATCHER_PORT: '0',
      OIDC_SANDBOX_PORT: '0',
      CAPTCHA_DIFFICULTY: '4',
      SEED_MONEY_TWO_FACTOR: 'false',
      FEED: 'off',
    });
  });
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    /** The servers' configuration (known once the file's beforeAll ran): their database and folder. */
    config: () => config,
    async boot() {
      const app = await buildApp(config);
      await seed(config, app.services.database, app.services);
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      return { app, config, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
    },
  };
}

/** A copy or strategy sub-account under the trader's main account, funded by a transfer, through the portal's routes. */
export async function fundedSubAccount(
  trader: Trader,
  input: { main: number; purpose: 'copy' | 'strategy'; amount: string; key: string },
): Promise<number> {
  const made = await trader.call(FUNDING_PATHS.subaccountcreate, {
    account_id: input.main,
    purpose: input.purpose,
    idempotencyKey: `${input.purpose}-account-${input.key}`,
  });
  expect(made.body.success, made.body.message).toBe(true);
  const account = made.body.data.account_id as number;
  const moved = await trader.call(FUNDING_PATHS.transfer, {
    type: input.purpose === 'copy' ? 'transfer_follow_out' : 'transfer_strategy_out',
    account_id: input.main,
    sub_account_id: account,
    amount: input.amount,
    idempotencyKey: `fund-${input.key}`,
  });
  expect(moved.body.success, moved.body.message).toBe(true);
  return account;
}

export type TCommandBody = TCommand extends infer C
  ? C extends TCommand
    ? Omit<C, 'clientKey' | 'time'>
    : never
  : never;

/** Applies an engine command on the server and waits for its commit; it must be accepted. */
export async function submitCommand(
  server: TTestServer,
  clientKey: string,
  body: TCommandBody,
): Promise<TApplyResult & { ok: true }> {
  const result = await server.app.services.engine.submit({
    ...body,
    clientKey,
    time: Date.now(),
  } as TCommand);
  if (!result.ok) throw new Error(`${body.type} refused: ${result.error}`);
  return result;
}
