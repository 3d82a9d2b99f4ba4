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
 * head, with timers and animation frames run by hand.
 */
function runLoader(html: string) {
  const appended: { tag: string; rel?: string; as?: string; href?: string; src?: string; type?: string }[] =
    [];
  const timers: { fn: () => void; ms: number }[] = [];
  const frames: (() => void)[] = [];
  const document = {
    head: { appendChild: (node: (typeof appended)[number]) => appended.push(node) },
    createElement: (tag: string) => ({ tag }),
  };
  const code = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] as string;
  runInNewContext(code, {
    document,
    setTimeout: (fn: () => void, ms = 0) => timers.push({ fn, ms }),
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
  });
  /** Runs the timers of `ms` set so far (not the ones they set). */
  const fire = (ms: number) => {
    const due = timers.filter((t) => t.ms === ms);
    for (const timer of due) timers.splice(timers.indexOf(timer), 1);
    for (const timer of due) timer.fn();
  };
  return { appended, timers, frames, fire };
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

  it('adds nothing before a frame, then the entry, the preloads and the catalog, three per task, once', () => {
    const html = scriptLoader({
      entry: '/assets/index-AB12.js',
      modules: ['/assets/i18n-CD34.js', '/assets/api-EF56.js', '/assets/TradePage-XY.js'],
      fetches: ['/assets/catalog-en-1.json'],
    });
    const run = runLoader(html);
    expect(run.appended).toEqual([]);
    // The frame, then a task after its paint: the first three requests.
    run.frames.shift()?.();
    expect(run.appended).toEqual([]);
    run.fire(0);
    expect(run.appended).toHaveLength(3);
    // The fallback timer finds the work started and adds nothing.
    run.fire(100);
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

  it('loads the code after 100 ms in a tab that paints no frame', () => {
    const run = runLoader(scriptLoader({ entry: '/assets/index-AB12.js', modules: [], fetches: [] }));
    expect(run.frames).toHaveLength(1);
    run.fire(100);
    expect(run.appended.map((n) => n.src)).toEqual(['/assets/index-AB12.js']);
    run.frames.shift()?.();
    run.fire(0);
    expect(run.appended).toHaveLength(1);
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
