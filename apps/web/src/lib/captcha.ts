import type { TUnwrapped } from '@broker/contracts/envelope';
import { callRoute } from './api';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const W = new Uint32Array(64);

/**
 * SHA-256 of an ASCII string as eight 32-bit words. Written out here rather than through
 * crypto.subtle: the proof of work needs tens of thousands of hashes, subtle.digest is async per
 * hash (far slower for short inputs) and missing on plain-HTTP origins.
 */
export function sha256Ascii(text: string): Uint32Array {
  const length = text.length;
  const blocks = Math.ceil((length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  for (let i = 0; i < length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  bytes[length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 4, length * 8);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15] as number;
      const w2 = W[i - 2] as number;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
    }
    let a = h[0] as number;
    let b = h[1] as number;
    let c = h[2] as number;
    let d = h[3] as number;
    let e = h[4] as number;
    let f = h[5] as number;
    let g = h[6] as number;
    let hh = h[7] as number;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + (K[i] as number) + (W[i] as number)) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0] as number) + a;
    h[1] = (h[1] as number) + b;
    h[2] = (h[2] as number) + c;
    h[3] = (h[3] as number) + d;
    h[4] = (h[4] as number) + e;
    h[5] = (h[5] as number) + f;
    h[6] = (h[6] as number) + g;
    h[7] = (h[7] as number) + hh;
  }
  return h;
}

/** Leading zero bits of a digest given as 32-bit words (the server counts them on the hex form). */
export function leadingZeroBits(words: Uint32Array): number {
  let bits = 0;
  for (const word of words) {
    if (word !== 0) return bits + Math.clz32(word);
    bits += 32;
  }
  return bits;
}

/**
 * Finds the decimal nonce whose sha256(salt + ":" + nonce) starts with `difficulty` zero bits, in
 * slices of a few milliseconds so the page keeps answering while it works.
 */
export async function solveChallenge(
  salt: string,
  difficulty: number,
  { sliceMs = 12, signal }: { sliceMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const prefix = `${salt}:`;
  let nonce = 0;
  for (;;) {
    const until = performance.now() + sliceMs;
    do {
      for (let i = 0; i < 256; i++, nonce++) {
        if (leadingZeroBits(sha256Ascii(prefix + nonce)) >= difficulty) return String(nonce);
      }
    } while (performance.now() < until);
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

export type TCaptchaSolution = { id: string; nonce: string };

/** Asks the server for a proof-of-work challenge and solves it; a failed call is passed on as is. */
export async function solveCaptcha(
  lang: string,
): Promise<{ solution: TCaptchaSolution } | { failure: TUnwrapped<unknown> }> {
  const answer = await callRoute('captcha', {}, lang);
  if (!answer.succeed || !answer.Data) return { failure: answer };
  const nonce = await solveChallenge(answer.Data.salt, answer.Data.difficulty);
  return { solution: { id: answer.Data.id, nonce } };
}
