import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TConfig } from './config';
import type { TDatabase } from './db/database';
import { newId, strongPassword } from './ids';
import { DEFAULT_ACCESS_SETTINGS, ensureAccessSettings, ensureAdministrator } from './modules/access';
import { ensureDemoTrader, ensureWebClient, SANDBOX_CLIENT_ID } from './modules/identity';
import { ensureInstruments } from './modules/market';
import { ensureDefaultTenant } from './modules/tenancy';

export const ADMIN_USERNAME = 'admin';
export const DEMO_TRADER = {
  email: 'demo@example.com',
  /** +1 202-555-0123, a number reserved for fiction. */
  phone: '+12025550123',
  password: 'Demo2026!',
  name: 'Demo Trader',
};

export interface TSeedResult {
  adminUsername: string;
  /** Known when it was generated on this machine or given by ADMIN_PASSWORD. */
  adminPassword: string | null;
  demoTrader: typeof DEMO_TRADER | null;
}

/**
 * The first start creates the default broker, its administrator (strong random password, kept in
 * DATA_DIR/initial-admin-password so later starts can print it again) and the demo trader.
 */
export async function seed(
  config: TConfig,
  database: TDatabase,
  extras: { oidcSandbox?: { issuer: string; clientSecret: string } | null } = {},
): Promise<TSeedResult> {
  const tenant = await ensureDefaultTenant({ db: database.db, name: 'Northstar Markets' });
  await ensureInstruments({ db: database.db, tenantId: tenant.id });
  await ensureWebClient({ db: database.db, tenantId: tenant.id });
  if (extras.oidcSandbox) {
    // The sandbox's issuer and secret change with every start: the provider row follows them.
    await database.db
      .insertInto('oidc_providers')
      .values({
        id: newId(),
        tenant_id: tenant.id,
        slug: 'sandbox',
        name: 'Sandbox ID',
        issuer: extras.oidcSandbox.issuer,
        client_id: SANDBOX_CLIENT_ID,
        client_secret: extras.oidcSandbox.clientSecret,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'slug']).doUpdateSet({
          issuer: extras.oidcSandbox?.issuer as string,
          client_secret: extras.oidcSandbox?.clientSecret as string,
          enabled: true,
        }),
      )
      .execute();
  } else {
    // Demo mode off: a sandbox row left by an earlier demo start must not offer "Sandbox ID".
    await database.db
      .updateTable('oidc_providers')
      .set({ enabled: false })
      .where('tenant_id', '=', tenant.id)
      .where('slug', '=', 'sandbox')
      .where('client_id', '=', SANDBOX_CLIENT_ID)
      .execute();
  }
  const passwordFile = join(resolve(config.DATA_DIR), 'initial-admin-password');
  let password =
    config.ADMIN_PASSWORD ?? (existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : null);
  const generated = password === null;
  password ??= strongPassword(20);
  // Staff who can move money sign in with two-factor: the first administrator holds every
  // permission, so their first sign-in sets it up (SEED_MONEY_TWO_FACTOR=false skips that, for tests).
  await ensureAccessSettings({
    db: database.db,
    tenantId: tenant.id,
    settings: { ...DEFAULT_ACCESS_SETTINGS, moneyTwoFactor: config.SEED_MONEY_TWO_FACTOR },
  });
  const created = await ensureAdministrator({
    db: database.db,
    tenantId: tenant.id,
    username: ADMIN_USERNAME,
    password,
  });
  if (created && generated) {
    mkdirSync(resolve(config.DATA_DIR), { recursive: true });
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const knownPassword = created || !generated ? password : null;
  let demoTrader: typeof DEMO_TRADER | null = null;
  if (config.SEED_DEMO) {
    await ensureDemoTrader({ db: database.db, tenantId: tenant.id, ...DEMO_TRADER });
    demoTrader = DEMO_TRADER;
  }
  return { adminUsername: ADMIN_USERNAME, adminPassword: knownPassword, demoTrader };
}
