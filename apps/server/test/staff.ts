import { expect } from 'vitest';
import { ApiClient } from './helpers';

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
