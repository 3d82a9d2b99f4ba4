import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJWK, jwtVerify } from 'jose';

/** One message a browser's push service received: its headers and the decrypted payload. */
export interface TReceivedPush {
  path: string;
  ttl: string | undefined;
  urgency: string | undefined;
  /** The VAPID token's claims, after checking its signature with the key it names. */
  vapid: { aud: string; sub: string; exp: number };
  payload: string;
  receivedAt: number;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * A local stand-in for a browser vendor's push service (RFC 8030) over HTTPS with a certificate made
 * for the test, plus the browser side of one subscription: its P-256 key pair and auth secret. What
 * the server sends is decrypted as a browser would (RFC 8291, aes128gcm) and its VAPID token checked
 * (RFC 8292), so the test sees exactly what the browser would show.
 */
export class TestPushService {
  readonly received: TReceivedPush[] = [];
  /** The PEM certificate the server under test must trust (PUSH_CA_FILE). */
  readonly caFile: string;
  private readonly server: Server;
  private readonly browserKeys = createECDH('prime256v1');
  private readonly authSecret = randomBytes(16);
  private waiters: (() => void)[] = [];
  port = 0;

  constructor() {
    const dir = mkdtempSync(join(tmpdir(), 'push-service-'));
    const key = join(dir, 'key.pem');
    this.caFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        this.caFile,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    this.browserKeys.generateKeys();
    this.server = createServer(
      { key: readFileSync(key), cert: readFileSync(this.caFile) },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          this.accept(request.url ?? '', request.headers, Buffer.concat(chunks))
            .then(() => response.writeHead(201).end())
            .catch(() => response.writeHead(400).end());
        });
      },
    );
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The subscription as the browser's PushSubscription.toJSON() gives it (for `pushinsert`). */
  subscription(name = 'browser-1') {
    return {
      endpoint: `https://127.0.0.1:${this.port}/push/${name}`,
      keys: {
        p256dh: this.browserKeys.getPublicKey().toString('base64url'),
        auth: this.authSecret.toString('base64url'),
      },
    };
  }

  /** Resolves once a message has arrived for which `match` holds (checked on each arrival). */
  async next(match: (push: TReceivedPush) => boolean, timeoutMs = 10_000): Promise<TReceivedPush> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching push message arrived');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async accept(path: string, headers: Record<string, string | string[] | undefined>, body: Buffer) {
    if (headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
    // Authorization: vapid t=<JWT>, k=<the server's public key>
    const authorization = String(headers.authorization ?? '');
    const token = /t=([^,\s]+)/.exec(authorization)?.[1] ?? '';
    const serverKey = Buffer.from(/k=([^,\s]+)/.exec(authorization)?.[1] ?? '', 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: serverKey.subarray(1, 33).toString('base64url'),
      y: serverKey.subarray(33, 65).toString('base64url'),
    };
    const { payload: claims } = await jwtVerify(token, await importJWK(jwk, 'ES256'));
    this.received.push({
      path,
      ttl: headers.ttl as string | undefined,
      urgency: headers.urgency as string | undefined,
      vapid: claims as TReceivedPush['vapid'],
      payload: this.decrypt(body),
      receivedAt: Date.now(),
    });
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** RFC 8291: the browser's side of the aes128gcm content encoding. */
  private decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20] as number;
    const senderKey = body.subarray(21, 21 + idLength);
    const content = body.subarray(21 + idLength);
    const shared = this.browserKeys.computeSecret(senderKey);
    const info = Buffer.concat([
      Buffer.from('WebPush: info\0'),
      this.browserKeys.getPublicKey(),
      senderKey,
      Buffer.from([1]),
    ]);
    const ikm = hmac(hmac(this.authSecret, shared), info);
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(content.subarray(content.length - 16));
    const padded = Buffer.concat([
      decipher.update(content.subarray(0, content.length - 16)),
      decipher.final(),
    ]);
    // The last record ends with the delimiter 0x02, then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    return padded.subarray(0, end).toString('utf8');
  }
}
