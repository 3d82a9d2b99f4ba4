import { useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Drawer, DrawerSection, Facts } from '../../kit/Drawer';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation } from '../../kit/useApi';
import { useSession, useStaff } from '../../session';
import {
  ACCOUNT_TYPE_LABELS,
  holdParts,
  LEADER_STATE_LABELS,
  LEADER_STATE_TONES,
  leaderActions,
  RISK_BAND_TONES,
  reviewerName,
  reviewReasonProblem,
  riskBand,
  type TAdminLeader,
  type TLeaderAction,
  TRADE_TYPE_LABELS,
  tone,
  useCopyFormat,
} from './format';
import { ReasonField } from './ui';

/**
 * One leader or application: where it stands (the reviewer's reason), its statistics computed from the
 * account's history, the terms and followers, and the decisions the staff member may take: approve or
 * reject an application (copy.review), suspend or reinstate a leader (copy.suspend).
 */
export function LeaderDrawer({
  leader,
  onClose,
  onChanged,
}: {
  leader: TAdminLeader;
  onClose: () => void;
  onChanged: (answer: TAdminLeader, message: string) => void;
}) {
  const { t } = useI18n();
  const format = useCopyFormat();
  const { can } = useSession();
  const [deciding, setDeciding] = useState<TLeaderAction | null>(null);
  const actions = leaderActions(leader.status, can);
  const stats = leader.stats;
  const hold = holdParts(stats.avgHoldMinutes);
  const band = riskBand(stats.riskScore);

  return (
    <Drawer
      testId="leader-drawer"
      onClose={onClose}
      title={
        <>
          <span>{leader.nick}</span>
          <span
            className={`kit-pill ${LEADER_STATE_TONES[leader.status]}`}
            data-testid="leader-drawer-status"
            data-status={leader.status}
          >
            {t(LEADER_STATE_LABELS[leader.status])}
          </span>
        </>
      }
      subtitle={
        <>
          <span className="num">#{leader.leader_id}</span>
          <span>{leader.email ?? '—'}</span>
          <span>{t('admin.copy.leader.appliedOn', { time: format.dateTime(leader.appliedAt) })}</span>
        </>
      }
      footer={
        actions.length > 0
          ? actions.map((action) => (
              <button
                key={action}
                type="button"
                className={`btn ${action === 'approve' || action === 'reinstate' ? 'btn-primary' : 'btn-secondary'}`}
                onClick={() => setDeciding(action)}
                data-testid={`leader-${action}`}
              >
                {t(ACTION_TEXT[action].button)}
              </button>
            ))
          : null
      }
    >
      <StateBox leader={leader} />

      <DrawerSection title={t('admin.copy.leader.returns')}>
        <dl className="cp-returns" data-testid="leader-returns">
          {(
            [
              ['admin.copy.stats.return7d', stats.return7d],
              ['admin.copy.stats.return30d', stats.return30d],
              ['admin.copy.stats.return90d', stats.return90d],
              ['admin.copy.stats.returnAll', stats.returnAll],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt>{t(label)}</dt>
              <dd className={`num ${tone(value) ?? ''}`}>{format.signedPercent(value)}</dd>
            </div>
          ))}
        </dl>
      </DrawerSection>

      <DrawerSection title={t('admin.copy.leader.statistics')} testId="leader-statistics">
        <Facts
          items={[
            [t('admin.copy.stats.maxDrawdown'), format.percent(stats.maxDrawdown)],
            [t('admin.copy.stats.winRate'), format.percent(stats.winRate)],
            [
              t('admin.copy.stats.profitFactor'),
              stats.profitFactor === null ? '—' : format.plain(stats.profitFactor),
            ],
            [
              t('admin.copy.stats.avgHold'),
              stats.totalTrades === 0
                ? '—'
                : hold.days > 0
                  ? t('admin.copy.stats.holdDays', { days: hold.days, hours: hold.hours })
                  : t('admin.copy.stats.holdHours', { hours: hold.hours, minutes: hold.minutes }),
            ],
            [t('admin.copy.stats.tradingDays'), format.count(stats.tradingDays)],
            [t('admin.copy.stats.totalTrades'), format.count(stats.totalTrades)],
            [
              t('admin.copy.stats.riskScore'),
              <span key="risk" className="cp-risk-meter" data-testid="leader-risk">
                <span className={`kit-pill ${RISK_BAND_TONES[band]}`}>
                  {t('admin.copy.stats.riskValue', { score: stats.riskScore })}
                </span>
                <span className="cp-muted">{t(RISK_BAND_TEXT[band])}</span>
              </span>,
              true,
            ],
          ]}
        />
      </DrawerSection>

      <DrawerSection title={t('admin.copy.leader.terms')}>
        <Facts
          items={[
            [
              t('admin.copy.field.account'),
              <span key="a" className="num">
                #{leader.leader_id}
              </span>,
            ],
            [
              t('admin.copy.field.typeMode'),
              `${ACCOUNT_TYPE_LABELS[leader.accountType] ? t(ACCOUNT_TYPE_LABELS[leader.accountType] ?? '') : leader.accountType} · ${
                TRADE_TYPE_LABELS[leader.tradeType]
                  ? t(TRADE_TYPE_LABELS[leader.tradeType] ?? '')
                  : leader.tradeType
              }`,
            ],
            [t('admin.copy.field.equity'), format.money(leader.equity, leader.currency)],
            [t('admin.copy.field.fee'), format.percent(leader.feePercent)],
            [t('admin.copy.field.minCopy'), format.money(leader.minCopyAmount, leader.currency)],
            [
              t('admin.copy.field.newFollowers'),
              leader.followersPaused
                ? t('admin.copy.leader.followersClosed')
                : t('admin.copy.leader.followersOpen'),
            ],
            [t('admin.copy.field.followers'), format.count(leader.followers)],
            [t('admin.copy.field.copiedAssets'), format.money(leader.copiedAssets, leader.currency)],
            [t('admin.copy.field.earned'), format.money(leader.earned, leader.currency)],
          ]}
        />
        <div className="kit-actions cp-links">
          <Link className="btn btn-secondary btn-sm" to={`/copy/relations?leader=${leader.leader_id}`}>
            <Icon name="users" size={14} />
            {t('admin.copy.leader.relations')}
          </Link>
          <Link className="btn btn-secondary btn-sm" to={`/copy/settlements?leader=${leader.leader_id}`}>
            <Icon name="wallet" size={14} />
            {t('admin.copy.leader.settlements')}
          </Link>
          <Link className="btn btn-secondary btn-sm" to={`/users/${encodeURIComponent(leader.userId)}`}>
            <Icon name="user" size={14} />
            {t('admin.copy.leader.customer')}
          </Link>
        </div>
      </DrawerSection>

      {deciding ? (
        <DecisionDialog
          action={deciding}
          leader={leader}
          onClose={() => setDeciding(null)}
          onDone={(answer) => {
            setDeciding(null);
            onChanged(answer, t(ACTION_TEXT[deciding].done, { nick: answer.nick }));
          }}
        />
      ) : null}
    </Drawer>
  );
}

const RISK_BAND_TEXT = {
  low: 'admin.copy.stats.riskLow',
  medium: 'admin.copy.stats.riskMedium',
  high: 'admin.copy.stats.riskHigh',
} as const;

/** Where the leader stands: waiting since, or the reviewer's decision with its reason. */
function StateBox({ leader }: { leader: TAdminLeader }) {
  const { t } = useI18n();
  const format = useCopyFormat();
  const staff = useStaff();
  const reviewer = reviewerName(leader.reviewedBy, staff);
  const reviewed =
    leader.reviewedAt === null
      ? null
      : reviewer === null
        ? t('admin.copy.leader.reviewedAt', { time: format.dateTime(leader.reviewedAt) })
        : reviewer === 'you'
          ? t('admin.copy.leader.reviewedByYou', { time: format.dateTime(leader.reviewedAt) })
          : t('admin.copy.leader.reviewedBy', { time: format.dateTime(leader.reviewedAt), name: reviewer });
  return (
    <section className={`cp-state cp-state-${leader.status}`} data-testid="leader-state">
      <strong>{t(STATE_TEXT[leader.status])}</strong>
      {leader.reason ? (
        <span className="cp-state-reason" data-testid="leader-reason">
          {t('admin.copy.leader.reason', { reason: leader.reason })}
        </span>
      ) : null}
      {reviewed ? <span className="cp-muted">{reviewed}</span> : null}
    </section>
  );
}

const STATE_TEXT = {
  pending: 'admin.copy.leader.state.pending',
  approved: 'admin.copy.leader.state.approved',
  rejected: 'admin.copy.leader.state.rejected',
  suspended: 'admin.copy.leader.state.suspended',
} as const;

/** The words of each decision: its button, its dialog and what the notice says after it. */
const ACTION_TEXT: Record<TLeaderAction, { button: string; title: string; text: string; done: string }> = {
  approve: {
    button: 'admin.copy.approve.button',
    title: 'admin.copy.approve.title',
    text: 'admin.copy.approve.text',
    done: 'admin.copy.approve.done',
  },
  reject: {
    button: 'admin.copy.reject.button',
    title: 'admin.copy.reject.title',
    text: 'admin.copy.reject.text',
    done: 'admin.copy.reject.done',
  },
  suspend: {
    button: 'admin.copy.suspend.button',
    title: 'admin.copy.suspend.title',
    text: 'admin.copy.suspend.text',
    done: 'admin.copy.suspend.done',
  },
  reinstate: {
    button: 'admin.copy.reinstate.button',
    title: 'admin.copy.reinstate.title',
    text: 'admin.copy.reinstate.text',
    done: 'admin.copy.reinstate.done',
  },
};

/**
 * Asks before a decision. A rejection and a suspension need a reason of at most 20 characters (checked
 * as the server checks it; nothing is sent until it fits); a suspension and a reinstatement say what
 * happens to the followers.
 */
function DecisionDialog({
  action,
  leader,
  onClose,
  onDone,
}: {
  action: TLeaderAction;
  leader: TAdminLeader;
  onClose: () => void;
  onDone: (answer: TAdminLeader) => void;
}) {
  const { t } = useI18n();
  const review = useMutation('admincopyreview');
  const suspend = useMutation('admincopysuspend');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const needsReason = action === 'reject' || action === 'suspend';
  const mutation = action === 'approve' || action === 'reject' ? review : suspend;
  const values = { nick: leader.nick, count: leader.followers };
  return (
    <ConfirmDialog
      title={t(ACTION_TEXT[action].title, values)}
      message={t(ACTION_TEXT[action].text, values)}
      confirmLabel={t(ACTION_TEXT[action].button)}
      danger={needsReason}
      pending={mutation.pending}
      error={mutation.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        setTouched(true);
        if (needsReason && reviewReasonProblem(reason)) return;
        const id = leader.leader_id;
        const answer =
          action === 'approve'
            ? await review.run({ leader_id: id, approve: true })
            : action === 'reject'
              ? await review.run({ leader_id: id, approve: false, reason: reason.trim() })
              : action === 'suspend'
                ? await suspend.run({ leader_id: id, suspend: true, reason: reason.trim() })
                : await suspend.run({ leader_id: id, suspend: false });
        if (answer) onDone(answer);
      }}
    >
      {action === 'suspend' || action === 'reinstate' ? (
        <ul className="cp-consequences" data-testid={`${action}-consequences`}>
          {(action === 'suspend' ? SUSPEND_CONSEQUENCES : REINSTATE_CONSEQUENCES).map((key) => (
            <li key={key}>{t(key, values)}</li>
          ))}
        </ul>
      ) : null}
      {needsReason ? (
        <ReasonField
          value={reason}
          onChange={setReason}
          showProblem={touched}
          label={t(action === 'reject' ? 'admin.copy.reject.reason' : 'admin.copy.suspend.reason')}
        />
      ) : null}
    </ConfirmDialog>
  );
}

const SUSPEND_CONSEQUENCES = [
  'admin.copy.suspend.noCopies',
  'admin.copy.suspend.noFollowers',
  'admin.copy.suspend.openCopies',
  'admin.copy.suspend.notified',
] as const;

const REINSTATE_CONSEQUENCES = ['admin.copy.reinstate.copies', 'admin.copy.reinstate.notified'] as const;
