import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { scriptLoader, splitTemplateScripts } from '../../src/page-scripts';

const BUILT = `<!doctype html>
<html>
  <head>
    <script>try{new Intl.NumberFormat('en')}catch(e){}</script>
    <!--app-head-->
    <script type="module" crossorigin src="/assets/index-AB12.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/i18n-CD34.js">
    <link rel="modulepreload" crossorigin href="/assets/api-EF56.js">
    <link rel="stylesheet" crossorigin href="/assets/index-GH78.css">
  </head>
  <body><div id="root"><!--app-html--></div><!--app-boot--></body>
</html>`;

/**
 * Runs the loader's inline script against a minimal document that records what is appended to the
 * head, with timers, animation frames and paint timing entries delivered by hand.
 */
function runLoader(html: string, { hidden = false, paintTiming = true } = {}) {
  const appended: { tag: string; rel?: string; as?: string; href?: string; src?: string; type?: string }[] =
    [];
  const timers: { fn: () => void; ms: number }[] = [];
  const frames: (() => void)[] = [];
  const observers: { callback: (list: unknown, observer: unknown) => void; live: boolean }[] = [];
  const document = {
    visibilityState: hidden ? 'hidden' : 'visible',
    head: { appendChild: (node: (typeof appended)[number]) => appended.push(node) },
    createElement: (tag: string) => ({ tag }),
  };
  class PerformanceObserver {
    private readonly entry: (typeof observers)[number];
    constructor(callback: (list: unknown, observer: unknown) => void) {
      this.entry = { callback, live: false };
      observers.push(this.entry);
    }
    observe(options: { type: string; buffered: boolean }) {
      if (options.type !== 'paint' || !options.buffered) throw new Error('unexpected options');
      this.entry.live = true;
    }
    disconnect() {
      this.entry.live = false;
    }
  }
  const code = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] as string;
  runInNewContext(code, {
    document,
    setTimeout: (fn: () => void, ms = 0) => timers.push({ fn, ms }),
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    ...(paintTiming ? { PerformanceObserver } : {}),
  });
  /** Runs the timers of `ms` set so far (not the ones they set). */
  const fire = (ms: number) => {
    const due = timers.filter((t) => t.ms === ms);
    for (const timer of due) timers.splice(timers.indexOf(timer), 1);
    for (const timer of due) timer.fn();
  };
  /** The browser reports paint timing entries of these names. */
  const paint = (...names: string[]) => {
    for (const observer of observers.filter((o) => o.live)) {
      const list = { getEntriesByName: (name: string) => names.filter((n) => n === name) };
      observer.callback(list, { disconnect: () => (observer.live = false) });
    }
  };
  return { appended, timers, frames, fire, paint };
}

describe('page scripts after the first frame', () => {
  it('takes the entry and its preloads out of the built page', () => {
    const page = splitTemplateScripts(BUILT);
    expect(page.entry).toBe('/assets/index-AB12.js');
    expect(page.preloads).toEqual(['/assets/i18n-CD34.js', '/assets/api-EF56.js']);
    expect(page.html).not.toContain('type="module"');
    expect(page.html).not.toContain('modulepreload');
    // The rest of the page is untouched: the stylesheet, the inline script, the placeholders.
    expect(page.html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-GH78.css">');
    expect(page.html).toContain("<script>try{new Intl.NumberFormat('en')}catch(e){}</script>");
    expect(page.html).toContain('<!--app-html-->');
    expect(() => splitTemplateScripts('<html><head></head></html>')).toThrow(/no module script/);
  });

  it('adds nothing before the first contentful paint, then the entry, the preloads and the catalog, three per task, once', () => {
    const html = scriptLoader({
      entry: '/assets/index-AB12.js',
      modules: ['/assets/i18n-CD34.js', '/assets/api-EF56.js', '/assets/TradePage-XY.js'],
      fetches: ['/assets/catalog-en-1.json'],
    });
    const run = runLoader(html);
    expect(run.appended).toEqual([]);
    // A first paint of the background only is not the one it waits for.
    run.paint('first-paint');
    run.fire(0);
    expect(run.appended).toEqual([]);
    // The first contentful paint, then a task: the first three requests.
    run.paint('first-contentful-paint');
    expect(run.appended).toEqual([]);
    run.fire(0);
    expect(run.appended).toHaveLength(3);
    // The safety timer finds the work started and adds nothing.
    run.fire(3000);
    expect(run.appended).toHaveLength(3);
    // The next task: the rest.
    run.fire(0);
    expect(run.appended.map((n) => [n.tag, n.rel ?? n.type, n.href ?? n.src, n.as])).toEqual([
      ['script', 'module', '/assets/index-AB12.js', undefined],
      ['link', 'modulepreload', '/assets/i18n-CD34.js', undefined],
      ['link', 'modulepreload', '/assets/api-EF56.js', undefined],
      ['link', 'modulepreload', '/assets/TradePage-XY.js', undefined],
      ['link', 'preload', '/assets/catalog-en-1.json', 'fetch'],
    ]);
    expect(run.timers).toHaveLength(0);
  });

  it('loads the code at once in a hidden tab, after a frame without paint timing, after 3 s at the latest', () => {
    const only = scriptLoader({ entry: '/assets/index-AB12.js', modules: [], fetches: [] });
    const hidden = runLoader(only, { hidden: true });
    expect(hidden.appended.map((n) => n.src)).toEqual(['/assets/index-AB12.js']);
    expect(hidden.timers).toHaveLength(0);

    const old = runLoader(only, { paintTiming: false });
    expect(old.appended).toEqual([]);
    old.frames.shift()?.();
    old.fire(0);
    expect(old.appended).toHaveLength(1);

    const stuck = runLoader(only);
    stuck.fire(3000);
    expect(stuck.appended).toHaveLength(1);
    stuck.paint('first-contentful-paint');
    stuck.fire(0);
    expect(stuck.appended).toHaveLength(1);
  });

  it('refuses an address that is not an asset path instead of writing it into the script', () => {
    expect(() => scriptLoader({ entry: '/assets/a.js"</script>', modules: [], fetches: [] })).toThrow(
      /not an asset address/,
    );
    expect(() =>
      scriptLoader({ entry: '/assets/a.js', modules: ['javascript:alert(1)'], fetches: [] }),
    ).toThrow(/not an asset address/);
  });
});
