import { useI18n } from '../../i18n';
import { ReasonField as KitReasonField } from '../../kit/ReasonField';
import { useQuery } from '../../kit/useApi';
import { LEADER_STATE_LABELS, REVIEW_REASON_MAX, reviewReasonProblem, type TAdminLeader } from './format';

/** A positive whole number from the address (a leader's account), or undefined. */
export const idParam = (value: string | null): number | undefined =>
  value && /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;

/**
 * The leaders tab with one leader's drawer open: among all states, searched by the account number (the
 * server matches it exactly), so the leader is listed however many leaders there are.
 */
export const leaderPath = (leaderId: number) =>
  `/copy?${new URLSearchParams({ status: 'all', q: String(leaderId), open: String(leaderId) })}`;

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
  const { t } = useI18n();
  return (
    <KitReasonField
      value={value}
      onChange={onChange}
      showProblem={showProblem}
      problem={reviewReasonProblem(value)}
      max={REVIEW_REASON_MAX}
      label={label}
      words={{
        required: t('admin.copy.reason.required'),
        tooLong: t('admin.copy.reason.tooLong', { max: REVIEW_REASON_MAX }),
        hint: t('admin.copy.reason.hint'),
        counter: (count, max) => t('admin.copy.reason.counter', { count, max }),
      }}
      testIds={{ input: 'copy-reason', problem: 'copy-reason-problem', counter: 'copy-reason-counter' }}
    />
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
