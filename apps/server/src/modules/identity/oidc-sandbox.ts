import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';

export const SANDBOX_CLIENT_ID = 'broker-portal';

/**
 * A real OpenID Connect provider (panva's oidc-provider) run beside the server in development and
 * tests, so third-party sign-in works without the internet. Its sign-in page accepts any login
 * and password (the provider's development interactions); the login becomes the subject, and an
 * email claim `<login>@sandbox.test` (or the login itself when it is an email) is verified.
 * Redirect addresses are registered as the server computes them, since its port is known late.
 */
export class OidcSandbox {
  readonly clientSecret = randomBytes(24).toString('base64url');
  private readonly redirectUris = new Set<string>();
  private server: Server | null = null;
  private issuerUrl = '';

  get issuer(): string {
    return this.issuerUrl;
  }

  /** Allows a redirect address for the portal client (called before each sign-in starts). */
  allowRedirect(uri: string) {
    this.redirectUris.add(uri);
  }

  async start(port: number, host = '127.0.0.1'): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    const address = server.address() as AddressInfo;
    this.issuerUrl = `http://${host}:${address.port}`;
    const sandbox = this;
    const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();

    /** In-memory storage for the provider's models; the client comes from the sandbox itself. */
    class SandboxAdapter implements Adapter {
      private readonly store: Map<string, { payload: AdapterPayload; expiresAt: number }>;
      constructor(private readonly model: string) {
        this.store = stores.get(model) ?? new Map();
        stores.set(model, this.store);
      }
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      }
      async find(id: string) {
        if (this.model === 'Client') {
          if (id !== SANDBOX_CLIENT_ID) return undefined;
          return {
            client_id: SANDBOX_CLIENT_ID,
            client_secret: sandbox.clientSecret,
            redirect_uris: [...sandbox.redirectUris],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          } as AdapterPayload;
        }
        const entry = this.store.get(id);
        if (!entry || entry.expiresAt < Date.now()) return undefined;
        return entry.payload;
      }
      async findByUserCode(userCode: string) {
        for (const { payload } of this.store.values()) if (payload.userCode === userCode) return payload;
        return undefined;
      }
      async findByUid(uid: string) {
        for (const { payload } of this.store.values()) if (payload.uid === uid) return payload;
        return undefined;
      }
      async consume(id: string) {
        const entry = this.store.get(id);
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      }
      async destroy(id: string) {
        this.store.delete(id);
      }
      async revokeByGrantId(grantId: string) {
        for (const [key, { payload }] of this.store) if (payload.grantId === grantId) this.store.delete(key);
      }
    }

    const provider = new Provider(this.issuerUrl, {
      adapter: SandboxAdapter,
      clients: [],
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: [randomBytes(24).toString('base64url')] },
      // A signing key of its own for this run (ID tokens are RS256).
      jwks: {
        keys: [
          {
            ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
              format: 'jwk',
            }) as object),
            kid: 'sandbox',
            use: 'sig',
            alg: 'RS256',
          } as never,
        ],
      },
      features: { devInteractions: { enabled: true } },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          email: sub.includes('@') ? sub.toLowerCase() : `${sub.toLowerCase()}@sandbox.test`,
          email_verified: true,
          name: sub.split('@')[0],
        }),
      }),
      ttl: {
        AuthorizationCode: 120,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        IdToken: 600,
        AccessToken: 600,
      },
    });
    // The provider warns about its development interactions; in this sandbox they are the point.
    provider.on('server_error', () => undefined);
    const callback = provider.callback();
    server.on('request', callback);
    this.server = server;
    return this.issuerUrl;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
