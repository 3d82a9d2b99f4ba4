/**
 * Intl formatters, made once per locale and options. Building an `Intl.NumberFormat` resolves the
 * locale each time (tens of microseconds, four times that on a slow phone), and price rows, chart
 * axes and the terminal format on every tick: a page that built one per call spent more time there
 * than in rendering (issue 21, item 14).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(intl: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = options ? `${intl}|${JSON.stringify(options)}` : intl;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intl, options);
    numberFormats.set(key, format);
  }
  return format;
}

export function dateFormat(intl: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = options ? `${intl}|${JSON.stringify(options)}` : intl;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intl, options);
    dateFormats.set(key, format);
  }
  return format;
}
