import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TDb } from '../src/db/database';
import { newId } from '../src/ids';
import { ApiClient, type TTestServer } from './helpers';

/**
 * A staff member signed in to the back-office API over HTTP, for tests: one broker (the default
 * one, or the one named by `host`, sent as Hostspecific), the CSRF header on every call, and
 * calls named as the contract's path table names them.
 */
export class StaffClient<TName extends string = string> {
  readonly api: ApiClient;
  csrf = '';
  permissions: string[] = [];

  constructor(
    baseUrl: string,
    private readonly pathOf: (name: TName) => string,
    readonly host?: string,
  ) {
    this.api = new ApiClient(baseUrl);
    this.api.cookies.set('lang', 'en');
  }

  private withHost(body: Record<string, unknown>) {
    return this.host ? { ...body, Hostspecific: this.host } : body;
  }

  /** Signs in (with a one-time code when given); throws when the server refuses. */
  async signIn(username: string, password: string, otp?: string) {
    const answer = await this.api.post(
      '/api/v1/admin/auth/login',
      this.withHost({ username, password, ...(otp ? { otp } : {}) }),
    );
    if (!answer.body.success) throw new Error(`staff sign-in failed: ${answer.body.message}`);
    this.csrf = answer.body.data.csrfToken;
    this.permissions = answer.body.data.staff.permissions;
    return this;
  }

  call(name: TName, input: Record<string, unknown> = {}) {
    return this.api.post(this.pathOf(name), this.withHost(input), { 'x-csrf-token': this.csrf });
  }

  /** The answer's data, after asserting the call succeeded. */
  async data(name: TName, input: Record<string, unknown> = {}) {
    const answer = await this.call(name, input);
    expect(answer.body.success, `${name}: ${answer.body.message} ${JSON.stringify(answer.body.fields)}`).toBe(
      true,
    );
    return answer.body.data;
  }
}

/** The authenticator secret the test file's staff members get when they sign in with two-factor. */
const TOTP_SECRET = new Secret({ size: 20 }).base32;

/**
 * Signs a staff member in with two-factor on (as money permissions require): stores the test's
 * authenticator secret on them and answers with its current code.
 */
export async function signInWithTwoFactor<TName extends string>(
  server: TTestServer,
  pathOf: (name: TName) => string,
  { username, password, host }: { username: string; password: string; host?: string | undefined },
) {
  await server.app.services.database.db
    .updateTable('staff')
    // A fresh authenticator: no code of it used yet (codes are single use per account).
    .set({ totp_secret: TOTP_SECRET, totp_last_step: null })
    .where('username', '=', username)
    .execute();
  const otp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(TOTP_SECRET),
  }).generate();
  return new StaffClient(server.baseUrl, pathOf, host).signIn(username, password, otp);
}

/** A staff member with one role holding exactly `permissions`, straight in the database. */
export async function createStaffWithRole(
  db: TDb,
  options: {
    tenantId: string;
    username: string;
    passwordHash: string;
    permissions: string[];
    roleName: string;
    displayName?: string;
  },
) {
  const roleId = newId();
  const staffId = newId();
  await db
    .insertInto('roles')
    .values({
      id: roleId,
      tenant_id: options.tenantId,
      name: options.roleName,
      parent_id: null,
      permissions: options.permissions,
    })
    .execute();
  await db
    .insertInto('staff')
    .values({
      id: staffId,
      tenant_id: options.tenantId,
      username: options.username,
      password_hash: options.passwordHash,
      display_name: options.displayName ?? options.username,
      locked_until: null,
    })
    .execute();
  await db.insertInto('staff_roles').values({ staff_id: staffId, role_id: roleId }).execute();
  return { staffId, roleId };
}
