/**
 * Intl formatters, made once per locale and options. Building an `Intl.NumberFormat` resolves the
 * locale each time (tens of microseconds, four times that on a slow phone), and price rows, chart
 * axes and the terminal format on every tick: a page that built one per call spent more time there
 * than in rendering (issue 21, item 14). The key is built from the options' own fields, not with
 * `JSON.stringify`, which was itself the top cost of a chart's axis labels.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The locale and each option (Intl options are flat: strings, numbers and booleans). */
function keyOf(intl: string, options: object | undefined): string {
  let key = intl;
  // for-in over the fields of a plain object: about half the time of JSON.stringify in V8.
  if (options) for (const name in options) key += `|${name}=${(options as Record<string, unknown>)[name]}`;
  return key;
}

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let format = cache.get(key);
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

export function numberFormat(intl: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(numberFormats, keyOf(intl, options), () => new Intl.NumberFormat(intl, options));
}

export function dateFormat(intl: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(dateFormats, keyOf(intl, options), () => new Intl.DateTimeFormat(intl, options));
}
