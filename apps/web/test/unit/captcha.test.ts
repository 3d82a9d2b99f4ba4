import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits as serverZeroBits } from '../../../server/src/modules/identity/captcha';
import { leadingZeroBits, sha256Ascii, solveChallenge } from '../../src/lib/captcha';

const hex = (words: Uint32Array) => [...words].map((w) => w.toString(16).padStart(8, '0')).join('');

describe('browser proof-of-work captcha', () => {
  it('hashes like node crypto for short and multi-block inputs', () => {
    for (const text of ['', 'abc', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), `${'d'.repeat(119)}:9`]) {
      expect(hex(sha256Ascii(text)), text).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it('counts leading zero bits as the server does', () => {
    for (const text of ['x:1', 'x:2', 'y:17', 'salt:123456']) {
      const digest = createHash('sha256').update(text).digest('hex');
      expect(leadingZeroBits(sha256Ascii(text))).toBe(serverZeroBits(digest));
    }
    expect(leadingZeroBits(new Uint32Array([0, 0x0fffffff]))).toBe(36);
  });

  it('finds a nonce the server accepts', async () => {
    const salt = '9f86d081884c7d659a2feaa0c55ad015';
    const nonce = await solveChallenge(salt, 12);
    expect(
      serverZeroBits(createHash('sha256').update(`${salt}:${nonce}`).digest('hex')),
    ).toBeGreaterThanOrEqual(12);
  });
});
