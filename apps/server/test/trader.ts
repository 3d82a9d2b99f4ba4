import {
  createCipheriv,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { orderSigningMessage } from '../src/modules/trading/order-signature';
import { ApiClient, type TTestServer } from './helpers';

/** A signed-in trader with a trade token: the calls a trading client makes, for tests and benchmarks. */
export class Trader {
  readonly api: ApiClient;
  userId = '';
  cipherKey = '';
  tradeToken = '';

  constructor(baseUrl: string) {
    this.api = new ApiClient(baseUrl);
    this.api.cookies.set('lang', 'en');
  }

  static async signIn(baseUrl: string, email = 'demo@example.com', password = 'Demo2026!') {
    const trader = new Trader(baseUrl);
    const login = await trader.api.post('/api/v1/usercenter/login', { email, password });
    if (!login.body.success) throw new Error(`sign-in failed: ${login.body.message}`);
    trader.userId = login.body.data.user.userId;
    trader.cipherKey = login.body.data.cipherKey;
    await trader.renewTradeToken();
    return trader;
  }

  /**
   * A second trader of the default broker, registered directly in the database (for tests about
   * privacy, not registration), signed in.
   */
  static async signInStranger(server: TTestServer) {
    const email = `stranger.${randomUUID()}@example.com`;
    const { hashPassword } = await import('../src/modules/identity/passwords');
    const db = server.app.services.database.db;
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('users')
      .values({
        id: randomUUID(),
        tenant_id: tenant.id,
        email,
        password_hash: await hashPassword('Stranger2026!'),
        display_name: 'Stranger',
        country_code: null,
        locked_until: null,
      })
      .execute();
    return Trader.signIn(server.baseUrl, email, 'Stranger2026!');
  }

  /** The same signed-in trader calling another address (another instance of a cluster). */
  at(baseUrl: string): Trader {
    const copy = new Trader(baseUrl);
    Object.assign(copy, { userId: this.userId, cipherKey: this.cipherKey, tradeToken: this.tradeToken });
    for (const [name, value] of this.api.cookies) copy.api.cookies.set(name, value);
    return copy;
  }

  get headers(): Record<string, string> {
    return { 'x-csrf-token': this.api.cookies.get('csrf') ?? '', tradetoken: this.tradeToken };
  }

  async renewTradeToken() {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(this.cipherKey, 'base64'), iv);
    const data = Buffer.concat([
      cipher.update(`${this.userId}trade`, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const answer = await this.api.post(
      '/api/v1/account/jwt',
      { cipher_text: data.toString('base64'), iv_key: iv.toString('base64') },
      { 'x-csrf-token': this.api.cookies.get('csrf') ?? '' },
    );
    this.tradeToken = answer.body.data.accessToken;
  }

  call(path: string, body: Record<string, unknown> = {}) {
    return this.api.post(path, body, this.headers);
  }

  async createAccount(accountType = 1, tradeType = 2, leverage = 100): Promise<number> {
    const answer = await this.call('/api/v1/account/create', {
      account_type: accountType,
      trade_type: tradeType,
      leverage,
      idempotencyKey: randomUUID(),
    });
    if (!answer.body.success) throw new Error(`account not created: ${answer.body.message}`);
    return answer.body.data.account_id;
  }

  private signingKey: { source: string; key: KeyObject } | null = null;

  /** Signs an opening order as the portal does (spec 7.9). */
  sign(input: { volume: string; side: string; accountId: number; leverage: number; symbol: string }) {
    const nonce = `${Date.now()}-${randomBytes(8).toString('hex')}`;
    // The key object is made once per cipher key: importing a raw key on every order cost more than
    // the HMAC itself (this client also drives the order benchmark).
    if (this.signingKey?.source !== this.cipherKey)
      this.signingKey = {
        source: this.cipherKey,
        key: createSecretKey(Buffer.from(this.cipherKey, 'base64')),
      };
    const signature = createHmac('sha256', this.signingKey.key)
      .update(
        orderSigningMessage({
          openLot: input.volume,
          side: input.side,
          accountId: input.accountId,
          leverage: input.leverage,
          symbol: input.symbol,
          nonce,
        }),
      )
      .digest('hex');
    return { nonce, signature };
  }

  async send(
    accountId: number,
    order: {
      symbol: string;
      side: 'buy' | 'sell';
      type?: 'market' | 'limit' | 'stop' | 'stop_limit';
      volume: string;
      price?: string;
      limit_price?: string;
      take_profit?: string | null;
      stop_loss?: string | null;
      trailing_stop?: number | null;
      idempotencyKey?: string;
    },
    leverage = 100,
  ) {
    const signed = this.sign({
      volume: order.volume,
      side: order.side,
      accountId,
      leverage,
      symbol: order.symbol,
    });
    return this.call('/api/v1/order/send', {
      account_id: accountId,
      type: 'market',
      idempotencyKey: randomUUID(),
      ...order,
      ...signed,
    });
  }
}
