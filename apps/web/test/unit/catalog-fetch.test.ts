import { describe, expect, it } from 'vitest';
import { catalogRetryMs, fetchCatalog } from '../../src/lib/i18n';

/** Answers in turn: an Error is thrown (network), a number is an HTTP status, an object the catalog. */
function server(answers: (Error | number | Record<string, string>)[]) {
  const asked: string[] = [];
  const load = async (url: string) => {
    asked.push(url);
    const next = answers.shift();
    if (next === undefined) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    if (typeof next === 'number') return new Response('', { status: next });
    return new Response(JSON.stringify(next), { status: 200 });
  };
  return { load, asked };
}

describe('the catalog file in the browser', () => {
  it('keeps trying through network failures, with growing pauses, until it arrives', async () => {
    const waits: number[] = [];
    const { load, asked } = server([new Error('offline'), 503, new Error('reset'), { 'a.b': 'A' }]);
    const catalog = await fetchCatalog('/assets/catalog-en-x.json', {
      load,
      wait: async (ms) => {
        waits.push(ms);
      },
      gone: () => {
        throw new Error('not gone');
      },
    });
    expect(catalog).toEqual({ 'a.b': 'A' });
    expect(asked).toHaveLength(4);
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it('reloads the page once when the file is gone (a new deployment), and keeps trying', async () => {
    let reloads = 0;
    const { load } = server([404, 404, { ok: 'yes' }]);
    const catalog = await fetchCatalog('/assets/catalog-en-old.json', {
      load,
      wait: async () => undefined,
      gone: () => {
        reloads++;
      },
    });
    expect(reloads).toBe(1);
    expect(catalog).toEqual({ ok: 'yes' });
  });

  it('waits at most 30 s between attempts', () => {
    expect(catalogRetryMs(1)).toBe(500);
    expect(catalogRetryMs(7)).toBe(30_000);
    expect(catalogRetryMs(40)).toBe(30_000);
  });
});
