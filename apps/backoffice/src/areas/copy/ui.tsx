import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { useQuery } from '../../kit/useApi';
import { LEADER_STATE_LABELS, REVIEW_REASON_MAX, reviewReasonProblem, type TAdminLeader } from './format';

/** The filters of a list kept in the address (so Back and a shared link keep them). */
export function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes))
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        if (!('page' in changes) && !('open' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return { params, update };
}

export const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  allowed.find((v) => v === value);

/** A positive whole number from the address (a leader's account), or undefined. */
export const idParam = (value: string | null): number | undefined =>
  value && /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;

/**
 * The leaders tab with one leader's drawer open: among all states, searched by the account number (the
 * server matches it exactly), so the leader is listed however many leaders there are.
 */
export const leaderPath = (leaderId: number) =>
  `/copy?${new URLSearchParams({ status: 'all', q: String(leaderId), open: String(leaderId) })}`;

/** A short notice that says what just happened; it goes after 6 seconds. */
export function useNotice(): [string | null, (message: string | null) => void] {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice];
}

export function Notice({ message }: { message: string | null }) {
  return (
    <div className="cp-notice-slot" role="status" aria-live="polite">
      {message ? (
        <div className="cp-notice" data-testid="copy-notice">
          <Icon name="check" size={16} />
          <span>{message}</span>
        </div>
      ) : null}
    </div>
  );
}

/** A failed load with its reason and a retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <div className="cp-load-error" role="alert">
      <Icon name="alert" size={16} />
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('admin.kit.retry')}
      </button>
    </div>
  );
}

/** A loading placeholder of a card. */
export function Skeleton({ lines = 4 }: { lines?: number }) {
  return (
    <div className="cp-skeleton" aria-busy="true">
      {Array.from({ length: lines }, (_, n) => (
        <span key={n} className="kit-skeleton" />
      ))}
    </div>
  );
}

/** A review reason: at most 20 characters after trimming (spec 5), with a live counter. */
export function ReasonField({
  value,
  onChange,
  showProblem,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  showProblem: boolean;
  label: string;
}) {
  const { t, formatNumber } = useI18n();
  const id = useId();
  const problem = reviewReasonProblem(value);
  const length = value.trim().length;
  const visible = problem === 'tooLong' || (showProblem && problem) ? problem : null;
  return (
    <div className="field kit-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={visible ? true : undefined}
        aria-describedby={`${id}-note`}
        autoComplete="off"
        data-testid="copy-reason"
      />
      <span className="cp-reason-note" id={`${id}-note`}>
        <span className={visible ? 'field-error' : 'kit-hint'} data-testid="copy-reason-problem">
          {visible === 'required'
            ? t('admin.copy.reason.required')
            : visible === 'tooLong'
              ? t('admin.copy.reason.tooLong', { max: REVIEW_REASON_MAX })
              : t('admin.copy.reason.hint')}
        </span>
        <span
          className={`cp-counter${length > REVIEW_REASON_MAX ? ' kit-down' : ''}`}
          data-testid="copy-reason-counter"
        >
          {t('admin.copy.reason.counter', {
            count: formatNumber(length),
            max: formatNumber(REVIEW_REASON_MAX),
          })}
        </span>
      </span>
    </div>
  );
}

/** Leaders that have followers or had some (approved and suspended), for the relation and fee filters. */
export function useLeaderChoices(): { leaders: TAdminLeader[]; byId: Map<number, TAdminLeader> } {
  const approved = useQuery('admincopyleaders', { status: 'approved', page: 1, size: 100 });
  const suspended = useQuery('admincopyleaders', { status: 'suspended', page: 1, size: 100 });
  const leaders = [...(approved.data?.items ?? []), ...(suspended.data?.items ?? [])].sort((a, b) =>
    a.nick.localeCompare(b.nick),
  );
  return { leaders, byId: new Map(leaders.map((leader) => [leader.leader_id, leader])) };
}

/** A leader filter: every leader by nick and account, or all leaders. */
export function LeaderSelect({
  value,
  leaders,
  onChange,
}: {
  value: number | undefined;
  leaders: readonly TAdminLeader[];
  onChange: (leaderId: string | null) => void;
}) {
  const { t } = useI18n();
  const known = value === undefined || leaders.some((leader) => leader.leader_id === value);
  return (
    <select
      className="input cp-select"
      value={value === undefined ? '' : String(value)}
      onChange={(e) => onChange(e.target.value || null)}
      aria-label={t('admin.copy.filter.leader')}
      data-testid="copy-filter-leader"
    >
      <option value="">{t('admin.copy.filter.anyLeader')}</option>
      {leaders.map((leader) => (
        <option key={leader.leader_id} value={leader.leader_id}>
          {leader.status === 'suspended'
            ? t('admin.copy.filter.leaderSuspended', {
                nick: leader.nick,
                id: String(leader.leader_id),
                state: t(LEADER_STATE_LABELS.suspended),
              })
            : t('admin.copy.filter.leaderOption', { nick: leader.nick, id: String(leader.leader_id) })}
        </option>
      ))}
      {known ? null : <option value={String(value)}>#{value}</option>}
    </select>
  );
}

/** Asks the list again. */
export function RefreshButton({ onRefresh, refreshing }: { onRefresh: () => void; refreshing: boolean }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm cp-refresh"
      onClick={onRefresh}
      disabled={refreshing}
      aria-label={t('admin.copy.refresh')}
      title={t('admin.copy.refresh')}
    >
      <Icon name="refresh" size={14} className={refreshing ? 'bo-spin' : undefined} />
    </button>
  );
}
