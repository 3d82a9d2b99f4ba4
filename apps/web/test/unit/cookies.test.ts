import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCookie, removeCookie, writeCookie } from '../../src/lib/cookies';

/** A document whose cookie string counts its reads and applies writes as a browser would (by name). */
function fakeDocument(initial: Record<string, string>) {
  const jar = new Map(Object.entries(initial));
  const doc = {
    reads: 0,
    get cookie() {
      doc.reads += 1;
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (attributes.some((a) => a.trim() === 'Max-Age=0')) jar.delete(name);
      else jar.set(name, pair.slice(at + 1));
    },
    /** A cookie the server or another tab sets (not through this module). */
    outside(name: string, value: string) {
      jar.set(name, value);
    },
  };
  return doc;
}

describe('readCookie', () => {
  let doc: ReturnType<typeof fakeDocument>;
  beforeEach(() => {
    doc = fakeDocument({ a: '1', csrf: 'tok%20en', country: '156' });
    (globalThis as { document?: unknown }).document = doc;
  });
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  it('reads document.cookie once for the reads of one run of code, and decodes values', () => {
    expect(readCookie('csrf')).toBe('tok en');
    expect(readCookie('country')).toBe('156');
    expect(readCookie('missing')).toBeUndefined();
    expect(doc.reads).toBe(1);
  });

  it('reads again after the microtask checkpoint and sees cookies set meanwhile', async () => {
    expect(readCookie('late')).toBeUndefined();
    doc.outside('late', 'yes');
    await Promise.resolve();
    expect(readCookie('late')).toBe('yes');
    expect(doc.reads).toBe(2);
  });

  it('sees its own writes and removals at once, in the same run', () => {
    expect(readCookie('a')).toBe('1');
    writeCookie('a', 'two words', 60);
    expect(readCookie('a')).toBe('two words');
    removeCookie('a');
    expect(readCookie('a')).toBeUndefined();
  });

  it('reads a Cookie header when one is given: first of a name, "=" in values, bad escapes kept', () => {
    const header = 'x=1; y=a=b; x=2; bad=%E0%A4%A; empty=';
    expect(readCookie('x', header)).toBe('1');
    expect(readCookie('y', header)).toBe('a=b');
    expect(readCookie('bad', header)).toBe('%E0%A4%A');
    expect(readCookie('empty', header)).toBe('');
    expect(readCookie('x', '')).toBeUndefined();
    expect(doc.reads).toBe(0);
  });
});
