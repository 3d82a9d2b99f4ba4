import type { TTranslate } from '@broker/i18n/translator';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { changeClass, decimalsOf, formatDecimal } from '../../lib/market-format';
import { formatAmount } from '../../lib/money';
import { useShell } from '../../lib/store';
import { riskBand, type TProblem } from './copy-form';

/** A percentage from the server ("12.34" percent points) in the reader's locale; "—" when unknown. */
export function percentText(intl: string, value: string | null, { sign = false } = {}): string {
  if (value === null || !/^-?\d+(\.\d+)?$/.test(value)) return '—';
  const digits = Math.min(decimalsOf(value), 2);
  return new Intl.NumberFormat(intl, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    ...(sign ? { signDisplay: 'exceptZero' as const } : {}),
  }).format(`${value}E-2` as `${number}`);
}

/** Money with its currency; `sign` shows + on a gain. */
export const moneyText = (intl: string, value: string, currency: string, sign = false) =>
  formatAmount(intl, value, currency, { sign });

/** A day or a moment from the server as a date in the reader's language. */
export function dateText(intl: string, iso: string, withTime = false): string {
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(intl, {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
    ...(iso.length === 10 ? { timeZone: 'UTC' } : {}),
  }).format(date);
}

/** A figure whose colour follows its sign (rise, fall), with the sign written out for who cannot see colour. */
export function Signed({
  value,
  children,
  testId,
}: {
  value: string | null;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={`num cp-signed ${value ? changeClass(value) : ''}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** A field problem's text. */
export const problemText = (t: TTranslate, problem: TProblem | undefined) =>
  problem ? t(`copy.problem.${problem.key}`, problem.values ?? {}) : null;

/** The risk score 1-10 as a badge coloured by band, with the band's word. */
export function RiskBadge({ score, testId }: { score: number; testId?: string }) {
  const { t } = useI18n();
  const band = riskBand(score);
  return (
    <span
      className="cp-risk"
      role="img"
      data-band={band}
      data-testid={testId}
      title={t('copy.risk.help')}
      aria-label={t('copy.risk.label', { score, band: t(`copy.risk.${band}`) })}
    >
      <span className="cp-risk-score num" aria-hidden="true">
        {score}
      </span>
      <span aria-hidden="true">{t(`copy.risk.${band}`)}</span>
    </span>
  );
}

/** A state word with an icon and a tone: good (green), stopped (red), waiting (amber). */
export function StateBadge({
  tone,
  children,
  testId,
  state,
}: {
  tone: 'good' | 'stopped' | 'waiting' | 'neutral';
  children: ReactNode;
  testId?: string;
  state?: string;
}) {
  const icon =
    tone === 'good' ? 'check' : tone === 'stopped' ? 'close' : tone === 'waiting' ? 'clock' : 'alert';
  return (
    <span className="cp-state" data-tone={tone} data-testid={testId} data-state={state}>
      <Icon name={icon} size={14} />
      {children}
    </span>
  );
}

/** A term and its value in a figures grid. */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="cp-figure">
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
    <div className="card cp-inline-error" role="alert" data-testid={testId}>
      <Icon name="alert" size={18} />
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Placeholder blocks while a page's first read runs. */
export function Skeleton({
  rows = 3,
  testId,
  height = 64,
}: {
  rows?: number;
  testId?: string;
  height?: number;
}) {
  return (
    <div className="cp-skeleton" aria-busy="true" data-testid={testId}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height }} />
      ))}
    </div>
  );
}

/** A text or number field with its label, hint and problem (announced, and tied to the input). */
export function TextField({
  label,
  value,
  onChange,
  hint,
  problem,
  suffix,
  inputMode = 'decimal',
  name,
  placeholder,
  testId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string | null;
  problem?: string | null;
  suffix?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  name: string;
  placeholder?: string;
  testId?: string;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field cp-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="cp-input-wrap">
        <input
          id={id}
          name={name}
          className="input"
          value={value}
          inputMode={inputMode}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
        {suffix && (
          <span className="cp-suffix" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
      {hint && (
        <span className="cp-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problem && (
        <span className="field-error" id={`${id}-error`} data-testid={testId ? `${testId}-error` : undefined}>
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * A modal dialog (native: focus is trapped and returns to the opener, Escape closes unless an action
 * runs). Rendered only while open.
 */
export function Dialog({
  title,
  children,
  footer,
  busy = false,
  onClose,
  testId,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  busy?: boolean;
  onClose(): void;
  testId: string;
  wide?: boolean;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="cp-dialog"
      data-wide={wide ? 'true' : undefined}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <div className="cp-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm cp-dialog-close"
          onClick={onClose}
          disabled={busy}
          aria-label={t('common.close')}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      <div className="cp-dialog-body">{children}</div>
      {footer && <div className="cp-dialog-actions">{footer}</div>}
    </dialog>
  );
}

/**
 * A line chart of a curve (the return index, or a simulated balance): one SVG path scaled to the
 * points, a dashed line at the first value, the first and last day and the range beside it. The
 * values are parsed only to place the points; every figure shown is the server's string.
 */
export function CurveChart({
  points,
  label,
  height = 180,
  compact = false,
  testId,
}: {
  points: { day: string; value: string }[];
  label: string;
  height?: number;
  compact?: boolean;
  testId?: string;
}) {
  const { t, intl } = useI18n();
  if (points.length < 2)
    return (
      <p className="cp-muted cp-curve-empty" data-testid={testId}>
        {t('copy.curve.empty')}
      </p>
    );
  const values = points.map((p) => Number(p.value));
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const width = 600;
  const pad = 6;
  const x = (i: number) => pad + (i * (width - 2 * pad)) / (points.length - 1);
  const y = (v: number) => pad + ((max - v) * (height - 2 * pad)) / span;
  const path = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const first = points[0] as { day: string; value: string };
  const last = points[points.length - 1] as { day: string; value: string };
  const rising = (values[values.length - 1] as number) >= (values[0] as number);
  const baseline = y(values[0] as number);
  const area = `${path} L${x(points.length - 1).toFixed(1)},${height - pad} L${pad},${height - pad} Z`;
  const minText = points[values.indexOf(min)]?.value ?? '';
  const maxText = points[values.indexOf(max)]?.value ?? '';
  const summary = t('copy.curve.summary', {
    from: dateText(intl, first.day),
    to: dateText(intl, last.day),
    start: formatDecimal(intl, first.value),
    end: formatDecimal(intl, last.value),
  });
  return (
    <figure className="cp-curve" data-compact={compact ? 'true' : undefined} data-testid={testId}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}. ${summary}`}
        className="cp-curve-svg"
        data-trend={rising ? 'up' : 'down'}
      >
        <path d={area} className="cp-curve-area" />
        <line x1={pad} x2={width - pad} y1={baseline} y2={baseline} className="cp-curve-base" />
        <path d={path} className="cp-curve-line" vectorEffect="non-scaling-stroke" />
      </svg>
      {!compact && (
        <figcaption className="cp-curve-caption">
          <span>{dateText(intl, first.day)}</span>
          <span className="num">
            {t('copy.curve.range', { min: formatDecimal(intl, minText), max: formatDecimal(intl, maxText) })}
          </span>
          <span>{dateText(intl, last.day)}</span>
        </figcaption>
      )}
    </figure>
  );
}

/** Initials of a nick on a coloured disc, or the avatar picture. */
export function Avatar({ nick, src, size = 44 }: { nick: string; src: string | null; size?: number }) {
  const initials = [...nick.trim()].slice(0, 2).join('').toUpperCase() || '?';
  if (src) return <img className="cp-avatar" src={src} alt="" width={size} height={size} />;
  return (
    <span className="cp-avatar" style={{ width: size, height: size }} aria-hidden="true">
      {initials}
    </span>
  );
}

/** The title row of the copy-trading pages, with the ways to the trader's copies and to leading. */
export function CopyHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const { pathname } = useLocation();
  const current = (href: string) => (pathname === href ? ('page' as const) : undefined);
  return (
    <div className="cp-head">
      <div className="cp-head-text">
        <h1>{title}</h1>
        {subtitle && <p>{subtitle}</p>}
      </div>
      <nav className="cp-head-links" aria-label={t('copy.nav.label')}>
        <Link
          to={paths.copyTrading(lang)}
          className="btn btn-secondary btn-sm"
          aria-current={current(paths.copyTrading(lang))}
          data-testid="nav-leaders"
        >
          <Icon name="search" size={16} />
          {t('copy.nav.leaders')}
        </Link>
        {user && (
          <Link
            to={paths.myCopies(lang)}
            className="btn btn-secondary btn-sm"
            aria-current={current(paths.myCopies(lang))}
            data-testid="nav-mine"
          >
            <Icon name="copy" size={16} />
            {t('copy.nav.mine')}
          </Link>
        )}
        <Link
          to={paths.leadDashboard(lang)}
          className="btn btn-secondary btn-sm"
          aria-current={current(paths.leadDashboard(lang))}
          data-testid="nav-lead"
        >
          <Icon name="trophy" size={16} />
          {t('copy.nav.lead')}
        </Link>
      </nav>
    </div>
  );
}
