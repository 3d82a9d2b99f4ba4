import { createHash, createHmac } from 'node:crypto';
import { randomHex } from './sandbox-runtime';

export type TChainNetwork = 'trc20' | 'erc20';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_PREFIX = 0x41;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

function base58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function unbase58(text: string): Buffer | null {
  let n = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return null;
    n = n * 58n + BigInt(digit);
  }
  const hex = n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** A TRON address (base58check of 0x41 and the 20-byte account): `T` and 33 more characters. */
export function tronAddress(account: Buffer): string {
  const payload = Buffer.concat([Buffer.from([TRON_PREFIX]), account.subarray(0, 20)]);
  return base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

/** The 20 account bytes of an address of the network, or null when it is not a valid one. */
export function chainAccount(network: TChainNetwork, address: string): Buffer | null {
  if (network === 'erc20')
    return /^0x[0-9a-fA-F]{40}$/.test(address) ? Buffer.from(address.slice(2), 'hex') : null;
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return null;
  const bytes = unbase58(address);
  if (bytes?.length !== 25 || bytes[0] !== TRON_PREFIX) return null;
  const payload = bytes.subarray(0, 21);
  return sha256(sha256(payload)).subarray(0, 4).equals(bytes.subarray(21)) ? payload.subarray(1) : null;
}

/** The network an address belongs to, by its form, or null. */
export const networkOf = (address: string): TChainNetwork | null =>
  chainAccount('trc20', address) ? 'trc20' : chainAccount('erc20', address) ? 'erc20' : null;

/** An address as the watcher compares it (Ethereum addresses are case-insensitive). */
export const canonicalAddress = (network: TChainNetwork, address: string) =>
  network === 'erc20' ? address.toLowerCase() : address;

/**
 * A user's deposit address on a network: the same for every deposit of that user (like an exchange's
 * per-user address), derived by HMAC from the sandbox secret, so nobody can compute another's.
 */
export function depositAddress(
  secret: string,
  input: { tenantId: string; userId: string; network: TChainNetwork },
): string {
  const key = createHmac('sha256', secret).update('sandbox-chain-addresses').digest();
  const account = createHmac('sha256', key)
    .update(`${input.tenantId}:${input.userId}:${input.network}`)
    .digest()
    .subarray(0, 20);
  return input.network === 'trc20' ? tronAddress(account) : `0x${account.toString('hex')}`;
}

/** A transaction hash as each chain writes it (TRON without `0x`). */
export const newTxHash = (network: TChainNetwork) =>
  network === 'trc20' ? randomHex(32) : `0x${randomHex(32)}`;

export const isTxHash = (network: TChainNetwork, hash: string) =>
  network === 'trc20' ? /^[0-9a-f]{64}$/.test(hash) : /^0x[0-9a-f]{64}$/.test(hash);
