import { useEffect, useMemo } from 'react';
import { useI18n } from '../../i18n';
import { exactDecimalFormat } from '../../lib/exact-decimal';

/**
 * Formats the decimal strings the server sends without turning them into floats: Intl formats a
 * numeric string exactly.
 */
export function useRiskFormat() {
  const { intl } = useI18n();
  return useMemo(() => {
    const usd = new Intl.NumberFormat(intl, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const plain = new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const signed = new Intl.NumberFormat(intl, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'exceptZero',
    });
    const whole = new Intl.NumberFormat(intl);
    const time = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'medium' });
    const clock = new Intl.DateTimeFormat(intl, { timeStyle: 'medium' });
    const asNumber = (text: string) => text as unknown as number;
    return {
      /** A price as the server sends it (the symbol's digits), with the language's separators. */
      price: exactDecimalFormat(intl),
      usd: (text: string) => usd.format(asNumber(text)),
      money: (text: string) => plain.format(asNumber(text)),
      lots: (text: string) => signed.format(asNumber(text)),
      plainLots: (text: string) => plain.format(asNumber(text)),
      percent: (text: string) => `${plain.format(asNumber(text))} %`,
      count: (n: number) => whole.format(n),
      time: (value: string | number) => time.format(new Date(value)),
      clock: (value: number) => clock.format(new Date(value)),
    };
  }, [intl]);
}

/** Sign of a decimal string: the tone of a figure (up for gains, down for losses). */
export function tone(text: string): string | undefined {
  if (/^-/.test(text) && /[1-9]/.test(text)) return 'kit-down';
  if (/[1-9]/.test(text)) return 'kit-up';
  return undefined;
}

/** Calls `reload` every `ms` while the page is visible (live figures without a stream). */
export function usePolling(reload: () => void, ms: number, enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, ms);
    return () => clearInterval(timer);
  }, [reload, ms, enabled]);
}

/** Numeric sort value of a decimal string (sorting only; display keeps the string). */
export const sortNumber = (text: string | null) => (text === null ? null : Number(text));

/** "62.5" (percent, up to 2 decimals) to basis points (6250), or null when it is not a percentage. */
export function percentToBp(text: string): number | null {
  const match = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Basis points as a percentage for an input ("62.5" for 6250, "100" for 10000). */
export function bpToPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(Math.abs(bp % 100))
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
