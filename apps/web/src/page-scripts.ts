/**
 * The page's scripts start loading once its first contentful paint is on screen (issue 21, item 14).
 *
 * The server's HTML is the whole first screen and its stylesheet the only thing that screen waits
 * for; the scripts only hydrate it. Requested from the head, the entry (about 100 KB compressed), its
 * chunks, the route's chunks and the catalog share a slow link with the stylesheet and the font, and
 * the first paint comes after all of them (Lighthouse's mobile model counts every high-priority
 * script that finished before the paint as blocking it: FCP 2.0-2.1 s, against 0.95 s without them).
 * So the built page's script tags are taken out of its template, and a small inline script at the
 * end of the body adds them back, with the same `modulepreload` links, after that paint.
 */

export interface TPageTemplate {
  /** The built page without its module script and `modulepreload` links. */
  html: string;
  /** The entry module's address. */
  entry: string;
  /** The chunks the entry imports, as the build listed them. */
  preloads: string[];
}

const ENTRY_TAG = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const PRELOAD_TAG = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/** Takes the module script and its preloads out of the built page (Vite writes them in the head). */
export function splitTemplateScripts(built: string): TPageTemplate {
  const entry = ENTRY_TAG.exec(built)?.[1];
  if (!entry) throw new Error('the built page has no module script');
  const preloads = [...built.matchAll(PRELOAD_TAG)].map((match) => match[1] as string);
  return { html: built.replace(ENTRY_TAG, '').replace(PRELOAD_TAG, ''), entry, preloads };
}

/** Addresses are the build's own asset paths; anything else is refused rather than escaped. */
function checked(href: string): string {
  if (!/^\/[\w./-]+$/.test(href)) throw new Error(`not an asset address: ${href}`);
  return href;
}

/**
 * The inline script that loads the page's code after its first contentful paint: the entry module,
 * then `modulepreload` links for `modules` (fetched in parallel, not one import after another) and
 * `preload` links for `fetches` (the catalog). Each request costs the main thread 1-3 ms on a fast machine, so
 * they are asked for three at a time, each three in a task of its own, and none of those tasks is a
 * long one on a slow phone. It starts once the browser reports the first contentful paint (a paint
 * timing entry, which comes when the frame is on screen: an animation frame comes before its paint,
 * and the frame can take 100 ms more to reach the screen, long enough for a fast link to deliver the
 * scripts first). In a hidden tab, which paints nothing, it starts at once; without paint timing,
 * after an animation frame; and after 3 s whatever happened. Placed after the stylesheet's link, it
 * runs once the stylesheet has loaded.
 */
export function scriptLoader({
  entry,
  modules,
  fetches,
}: {
  entry: string;
  modules: readonly string[];
  fetches: readonly string[];
}): string {
  const args = [checked(entry), modules.map(checked), fetches.map(checked)].map((v) => JSON.stringify(v));
  return (
    '<script>(function(e,m,f){var d=document,h=d.head,done=0,q=[["script",e]];' +
    'm.forEach(function(u){q.push(["modulepreload",u])});f.forEach(function(u){q.push(["preload",u])});' +
    'function add(k,u){var n;if(k==="script"){n=d.createElement("script");n.type="module";n.src=u}' +
    'else{n=d.createElement("link");n.rel=k;n.href=u;if(k==="preload")n.as="fetch"}' +
    'n.crossOrigin="anonymous";h.appendChild(n)}' +
    'function step(){q.splice(0,3).forEach(function(x){add(x[0],x[1])});if(q.length)setTimeout(step,0)}' +
    'function go(){if(done)return;done=1;step()}' +
    'function later(){setTimeout(go,0)}' +
    'if(d.visibilityState==="hidden")go();' +
    'else{try{new PerformanceObserver(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();later()}}).observe({type:"paint",buffered:true})}' +
    'catch(x){requestAnimationFrame(later)}setTimeout(go,3000)}' +
    `})(${args.join(',')})</script>`
  );
}
