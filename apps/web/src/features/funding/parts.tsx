import type { TTranslate } from '@broker/i18n/translator';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import type { TMethods, TMovement } from './funding-api';

/** Tone of a state: done (green, a tick), stopped (red, a cross) or under way (a clock). */
export type TTone = 'done' | 'stopped' | 'waiting';

const DONE = new Set(['completed']);
const STOPPED = new Set(['failed', 'rejected', 'expired']);
export const toneOf = (status: string): TTone =>
  DONE.has(status) ? 'done' : STOPPED.has(status) ? 'stopped' : 'waiting';

/** The translated name of a deposit, withdrawal or movement state. */
export function stateText(t: TTranslate, kind: 'deposit' | 'withdrawal' | TMovement['kind'], status: string) {
  const family = kind === 'withdrawal' ? 'withdrawalState' : 'depositState';
  const key = `funding.${family}.${status}`;
  const text = t(key);
  return text === key ? status : text;
}

/** A state with a colour and, for readers who do not see colour, an icon and its words. */
export function StateBadge({
  kind,
  status,
  testId,
}: {
  kind: 'deposit' | 'withdrawal' | TMovement['kind'];
  status: string;
  testId?: string;
}) {
  const { t } = useI18n();
  const tone = toneOf(status);
  return (
    <span className="fu-state" data-tone={tone} data-status={status} data-testid={testId}>
      <Icon name={tone === 'done' ? 'check' : tone === 'stopped' ? 'close' : 'clock'} size={14} />
      {stateText(t, kind, status)}
    </span>
  );
}

/** "Instant", "about 30 minutes", "about 2 hours", "about 3 days". */
export function expectedText(t: TTranslate, minutes: number): string {
  if (minutes <= 0) return t('funding.eta.instant');
  if (minutes < 60) return t('funding.eta.minutes', { count: minutes });
  if (minutes < 24 * 60) return t('funding.eta.hours', { count: Math.ceil(minutes / 60) });
  return t('funding.eta.days', { count: Math.ceil(minutes / 1440) });
}

/** A fee as "2.5% + 0.30 USD", "0.30 USD", "1%" or "No fee", in the reader's number format. */
export function feeText(
  t: TTranslate,
  intl: string,
  fee: { feeBp: number; feeFixed: string },
  currency: string,
): string {
  const fixed = /[1-9]/.test(fee.feeFixed);
  const percent =
    fee.feeBp > 0
      ? new Intl.NumberFormat(intl, { style: 'percent', maximumFractionDigits: 2 }).format(fee.feeBp / 10_000)
      : '';
  const fixedText = fixed
    ? `${new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(fee.feeFixed as `${number}`)} ${currency}`
    : '';
  if (percent && fixedText) return t('funding.fee.both', { percent, fixed: fixedText });
  return percent || fixedText || t('funding.fee.none');
}

/** The translated name of a funding method ("Bank card", "USDT (TRC-20)"). */
export const methodName = (t: TTranslate, method: string) => t(`funding.method.${method}`);

/**
 * What a trader without approved identity verification sees instead of a deposit or withdrawal form
 * (spec 6): why, in their state's words, and the way to the verification page.
 */
export function KycGate({ kyc, action }: { kyc: TMethods['kyc']; action: 'deposit' | 'withdrawal' }) {
  const { t, lang } = useI18n();
  return (
    <section className="card fu-gate" data-testid="kyc-gate" data-kyc={kyc} aria-labelledby="fu-gate-title">
      <div className="empty-state-icon">
        <Icon name="shield" size={26} />
      </div>
      <div className="fu-gate-text">
        <h2 id="fu-gate-title">
          {t(action === 'deposit' ? 'funding.gate.depositTitle' : 'funding.gate.withdrawalTitle')}
        </h2>
        <p>{t(`funding.gate.${kyc === 'approved' ? 'none' : kyc}`)}</p>
      </div>
      {kyc !== 'pending' ? (
        <Link to={paths.settings(lang, 'verification')} className="btn btn-primary" data-testid="kyc-gate-go">
          {t(kyc === 'rejected' ? 'funding.gate.resubmit' : 'funding.gate.verify')}
        </Link>
      ) : (
        <Link
          to={paths.settings(lang, 'verification')}
          className="btn btn-secondary"
          data-testid="kyc-gate-go"
        >
          {t('funding.gate.status')}
        </Link>
      )}
    </section>
  );
}

/** A value to copy (an address, a reference, an IBAN) with its button and a spoken "Copied". */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2500);
    } catch {
      // No clipboard (an insecure origin): the value stays selectable.
      setCopied(false);
    }
  };
  return (
    <div className="fu-copy">
      <dt>{label}</dt>
      <dd>
        <code className="fu-copy-value" data-testid={testId}>
          {value}
        </code>
        <button
          type="button"
          className="btn btn-secondary btn-sm fu-copy-button"
          onClick={() => void copy()}
          aria-label={t('funding.copy.label', { what: label })}
          data-testid={`${testId}-copy`}
        >
          <Icon name={copied ? 'check' : 'doc'} size={14} />
          <span aria-hidden="true">{copied ? t('funding.copy.done') : t('funding.copy.button')}</span>
        </button>
        <span className="sr-only" role="status">
          {copied ? t('funding.copy.done') : ''}
        </span>
      </dd>
    </div>
  );
}

/** A figure of a summary list: a term and its value. */
export function Row({
  label,
  children,
  strong,
  testId,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div className="fu-row" data-strong={strong ? 'true' : undefined}>
      <dt>{label}</dt>
      <dd className="num" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The inline failure of a read with a retry button. */
export function LoadError({
  message,
  onRetry,
  testId,
}: {
  message: string;
  onRetry(): void;
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <div className="card st-inline-error" role="alert" data-testid={testId}>
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Placeholder blocks while a page's first read runs. */
export function Skeleton({ rows = 3, testId }: { rows?: number; testId?: string }) {
  return (
    <div className="fu-skeleton" aria-busy="true" data-testid={testId}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}

/** The title row of a funding page, as every personal-centre section has it. */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle: string;
  actions?: ReactNode;
}) {
  return (
    <div className="pc-head">
      <div>
        <h1>{title}</h1>
        <p>{subtitle}</p>
      </div>
      {actions && <div className="pc-head-actions">{actions}</div>}
    </div>
  );
}
