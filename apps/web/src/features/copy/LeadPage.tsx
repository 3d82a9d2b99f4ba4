import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Figure } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { Pager } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { TextField } from '../../components/TextField';
import { callRoute } from '../../lib/api';
import { dateText } from '../../lib/date-text';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { moneyText, toInputText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall, useLoad } from '../../lib/use-call';
import {
  LEADER_ACCOUNT_TYPES,
  type TDashboard,
  type TLeaderAccount,
  type TMainAccount,
  useMainAccounts,
} from './copy-api';
import { BIO_MAX, checkLeaderDraft, type TLeaderDraft, trimZeros } from './copy-form';
import { CopyHeader, problemText } from './parts';

const PAGE_SIZE = 20;
const STATUS_TONE = {
  pending: 'waiting',
  approved: 'good',
  rejected: 'stopped',
  suspended: 'stopped',
} as const;

/**
 * The leader dashboard (issue 18): apply to lead with a main account, then per leader account its
 * review state, followers, copied money, fees earned and terms, the followers and the fee
 * settlements.
 */
export function Component() {
  const { t } = useI18n();
  const call = useCall();
  const [page, setPage] = useState(1);
  const dashboard = useLoad<TDashboard>(`dashboard:${page}`, (signal) =>
    call('followdashboard', { page, size: PAGE_SIZE }, signal),
  );
  const accounts = useMainAccounts();
  const [applying, setApplying] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const leaders = dashboard.load.status === 'ready' ? dashboard.load.data.leaders : [];
  const candidates =
    accounts.load.status === 'ready'
      ? accounts.load.data.filter(
          (a) =>
            LEADER_ACCOUNT_TYPES.includes(a.account_type) &&
            !leaders.some((l) => l.leader_id === a.account_id),
        )
      : [];

  return (
    <div className="ui-page" data-testid="copy-lead-page">
      <CopyHeader title={t('copy.lead.title')} subtitle={t('copy.lead.subtitle')} />
      {notice && (
        <div className="alert alert-info cp-notice" role="status" data-testid="lead-notice">
          {notice}
        </div>
      )}
      {dashboard.load.status === 'loading' && <Skeleton rows={2} height={160} testId="lead-loading" />}
      {dashboard.load.status === 'failed' && (
        <LoadError
          message={dashboard.load.message}
          onRetry={() => void dashboard.reload(false)}
          testId="lead-error"
        />
      )}
      {dashboard.load.status === 'ready' && (
        <>
          {(leaders.length === 0 || applying) && (
            <ApplyForm
              candidates={candidates}
              loading={accounts.load.status === 'loading'}
              intro={leaders.length === 0}
              onCancel={leaders.length > 0 ? () => setApplying(false) : undefined}
              onApplied={(leader) => {
                setApplying(false);
                setNotice(
                  t(leader.status === 'approved' ? 'copy.lead.appliedApproved' : 'copy.lead.appliedPending'),
                );
                void dashboard.reload();
              }}
            />
          )}
          {leaders.length > 0 && !applying && candidates.length > 0 && (
            <button
              type="button"
              className="btn btn-secondary cp-self-start"
              onClick={() => setApplying(true)}
              data-testid="lead-apply-another"
            >
              <Icon name="plus" size={16} />
              {t('copy.lead.applyAnother')}
            </button>
          )}
          {leaders.map((leader) => (
            <LeaderCard
              key={leader.leader_id}
              leader={leader}
              onSaved={(message) => {
                setNotice(message);
                void dashboard.reload();
              }}
            />
          ))}
          {leaders.length > 0 && <Followers data={dashboard.load.data} multiple={leaders.length > 1} />}
          {leaders.length > 0 && (
            <Settlements
              data={dashboard.load.data}
              page={page}
              onPage={setPage}
              multiple={leaders.length > 1}
            />
          )}
        </>
      )}
    </div>
  );
}

function ApplyForm({
  candidates,
  loading,
  intro,
  onCancel,
  onApplied,
}: {
  candidates: TMainAccount[];
  loading: boolean;
  intro: boolean;
  onCancel?(): void;
  onApplied(leader: TLeaderAccount): void;
}) {
  const { t, lang, intl } = useI18n();
  const [accountId, setAccountId] = useState<number | null>(null);
  const account = candidates.find((a) => a.account_id === accountId) ?? candidates[0] ?? null;
  const [draft, setDraft] = useState<TLeaderDraft>({
    feePercent: toInputText('10', intl),
    minCopyAmount: '100',
    positionsDelayMinutes: '30',
    bio: '',
  });
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checked = checkLeaderDraft(draft, intl);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!checked.ok || !account || busy) return;
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followapply',
      { account_id: account.account_id, ...checked.request },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      onApplied(answer.Data);
      return;
    }
    setError(failureText(answer, t));
  };

  return (
    <section className="card ui-section" aria-labelledby="cp-apply-title" data-testid="lead-apply">
      <h2 id="cp-apply-title">{t('copy.lead.applyTitle')}</h2>
      {intro && <p className="cp-muted">{t('copy.lead.applyText')}</p>}
      {loading && <Skeleton rows={2} height={44} />}
      {!loading && !account && (
        <div className="cp-empty-inline" data-testid="lead-no-account">
          <p>{t('copy.lead.noAccount')}</p>
          <Link to={paths.personalCenter(lang, 'account/create')} className="btn btn-primary">
            {t('copy.follow.openAccount')}
          </Link>
        </div>
      )}
      {account && (
        <form onSubmit={submit} noValidate className="cp-form">
          <div className="field ui-field">
            <label className="field-label" htmlFor="cp-apply-account">
              {t('copy.lead.account')}
            </label>
            <select
              id="cp-apply-account"
              className="input ui-select"
              value={account.account_id}
              onChange={(event) => setAccountId(Number(event.target.value))}
              data-testid="apply-account"
            >
              {candidates.map((a) => (
                <option key={a.account_id} value={a.account_id}>
                  {t('copy.follow.accountOption', {
                    id: a.account_id,
                    type: t(`accounts.type.${a.account_type}`),
                    balance: moneyText(intl, a.balance, a.currency),
                  })}
                </option>
              ))}
            </select>
          </div>
          <TermsFields
            draft={draft}
            onChange={(change) => {
              setDraft((current) => ({ ...current, ...change }));
              setTouched(true);
              setError(null);
            }}
            problems={checked.ok || !touched ? {} : checked.problems}
            currency={account.currency}
            feeNote={null}
          />
          {error && (
            <div className="alert alert-error" role="alert" data-testid="apply-error">
              {error}
            </div>
          )}
          <div className="ui-actions">
            {onCancel && (
              <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
                {t('copy.action.cancel')}
              </button>
            )}
            <button type="submit" className="btn btn-primary" disabled={busy} data-testid="apply-submit">
              {busy && <span className="spinner ui-spinner" />}
              {t('copy.lead.applySubmit')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** The fee, the minimum copy amount, the positions delay and the bio. */
function TermsFields({
  draft,
  onChange,
  problems,
  currency,
  feeNote,
}: {
  draft: TLeaderDraft;
  onChange(change: Partial<TLeaderDraft>): void;
  problems: Partial<Record<keyof TLeaderDraft, { key: string; values?: Record<string, string | number> }>>;
  currency: string;
  feeNote: string | null;
}) {
  const { t } = useI18n();
  const bioId = useId();
  return (
    <>
      <div className="cp-controls">
        <TextField
          name="feePercent"
          label={t('copy.lead.fee')}
          value={draft.feePercent}
          onChange={(feePercent) => onChange({ feePercent })}
          suffix="%"
          hint={feeNote ?? t('copy.lead.feeHint')}
          problem={problemText(t, problems.feePercent)}
          testId="terms-fee"
        />
        <TextField
          name="minCopyAmount"
          label={t('copy.leader.minAmount')}
          value={draft.minCopyAmount}
          onChange={(minCopyAmount) => onChange({ minCopyAmount })}
          suffix={currency}
          problem={problemText(t, problems.minCopyAmount)}
          testId="terms-min"
        />
        <TextField
          name="positionsDelayMinutes"
          label={t('copy.lead.delay')}
          value={draft.positionsDelayMinutes}
          onChange={(positionsDelayMinutes) => onChange({ positionsDelayMinutes })}
          inputMode="numeric"
          suffix={t('copy.unit.minutes')}
          hint={t('copy.lead.delayHint')}
          problem={problemText(t, problems.positionsDelayMinutes)}
          testId="terms-delay"
        />
      </div>
      <div className="field ui-field">
        <label className="field-label" htmlFor={bioId}>
          {t('copy.lead.bio')}
        </label>
        <textarea
          id={bioId}
          className="input cp-textarea"
          rows={3}
          maxLength={BIO_MAX}
          value={draft.bio}
          onChange={(event) => onChange({ bio: event.target.value })}
          aria-describedby={`${bioId}-count`}
          data-testid="terms-bio"
        />
        <span className="ui-hint" id={`${bioId}-count`}>
          {t('copy.lead.bioCount', { count: [...draft.bio].length, max: BIO_MAX })}
        </span>
        {problems.bio && <span className="field-error">{problemText(t, problems.bio)}</span>}
      </div>
    </>
  );
}

function LeaderCard({ leader, onSaved }: { leader: TLeaderAccount; onSaved(message: string): void }) {
  const { t, lang, intl } = useI18n();
  const [draft, setDraft] = useState<TLeaderDraft>(() => ({
    feePercent: toInputText(trimZeros(leader.feePercent), intl),
    minCopyAmount: toInputText(leader.minCopyAmount, intl),
    positionsDelayMinutes: String(leader.positionsDelayMinutes),
    bio: leader.bio,
  }));
  const [paused, setPaused] = useState(leader.followersPaused);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checked = checkLeaderDraft(draft, intl);
  const editable = leader.status === 'approved' || leader.status === 'pending';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!checked.ok || busy) return;
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followleadersettings',
      { leader_id: leader.leader_id, followersPaused: paused, ...checked.request },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      setTouched(false);
      onSaved(t('copy.lead.saved', { id: leader.leader_id }));
      return;
    }
    setError(failureText(answer, t));
  };

  return (
    <section
      className="card ui-section"
      data-testid="lead-card"
      data-leader={leader.leader_id}
      data-status={leader.status}
    >
      <div className="cp-copy-head">
        <div className="cp-copy-title">
          <h2>{t('copy.lead.accountTitle', { id: leader.leader_id })}</h2>
          <span className="cp-muted cp-small">
            {t('copy.lead.applied', { date: dateText(intl, leader.appliedAt) })}
          </span>
        </div>
        <StatusBadge tone={STATUS_TONE[leader.status]} testId="lead-status" state={leader.status}>
          {t(`copy.leaderState.${leader.status}`)}
        </StatusBadge>
      </div>
      {leader.reason && (
        <p className="cp-warning" data-testid="lead-reason">
          {t('copy.lead.reason', { reason: leader.reason })}
        </p>
      )}
      {leader.status === 'pending' && <p className="cp-muted">{t('copy.lead.pendingText')}</p>}
      <dl className="ui-figures">
        <Figure label={t('copy.stat.followers')} testId="lead-followers">
          {new Intl.NumberFormat(intl).format(leader.followers)}
        </Figure>
        <Figure label={t('copy.stat.copiedAssets')} testId="lead-assets">
          {moneyText(intl, leader.copiedAssets, leader.currency)}
        </Figure>
        <Figure label={t('copy.lead.earned')} testId="lead-earned">
          {moneyText(intl, leader.earned, leader.currency)}
        </Figure>
        <Figure label={t('copy.stat.fee')}>{percentText(intl, leader.feePercent)}</Figure>
      </dl>
      {leader.status === 'approved' && (
        <Link to={paths.copyLeader(lang, leader.leader_id)} className="cp-link" data-testid="lead-public">
          {t('copy.lead.publicPage')}
          <Icon name="chevronRight" size={14} />
        </Link>
      )}
      {editable && (
        <details className="cp-details">
          <summary data-testid="lead-settings">{t('copy.lead.settings')}</summary>
          <form onSubmit={save} noValidate className="cp-form">
            <label className="ui-check">
              <input
                type="checkbox"
                checked={paused}
                onChange={(event) => {
                  setPaused(event.target.checked);
                  setError(null);
                }}
                data-testid="lead-pause"
              />
              <span>
                <strong>{t('copy.lead.pauseNew')}</strong>
                <span className="ui-hint">{t('copy.lead.pauseNewHint')}</span>
              </span>
            </label>
            <TermsFields
              draft={draft}
              onChange={(change) => {
                setDraft((current) => ({ ...current, ...change }));
                setTouched(true);
                setError(null);
              }}
              problems={checked.ok || !touched ? {} : checked.problems}
              currency={leader.currency}
              feeNote={t('copy.lead.feeNewOnly')}
            />
            {error && (
              <div className="alert alert-error" role="alert" data-testid="lead-save-error">
                {error}
              </div>
            )}
            <div className="ui-actions">
              <button type="submit" className="btn btn-primary" disabled={busy} data-testid="lead-save">
                {busy && <span className="spinner ui-spinner" />}
                {t('copy.action.save')}
              </button>
            </div>
          </form>
        </details>
      )}
    </section>
  );
}

function Followers({ data, multiple }: { data: TDashboard; multiple: boolean }) {
  const { t, intl } = useI18n();
  return (
    <section className="card ui-section" aria-labelledby="cp-followers" data-testid="lead-followers-table">
      <h2 id="cp-followers">{t('copy.lead.followers')}</h2>
      {data.followers.length === 0 ? (
        <p className="cp-muted">{t('copy.lead.noFollowers')}</p>
      ) : (
        <div className="ui-table-wrap">
          <table className="ui-table ui-table-stack">
            <thead>
              <tr>
                <th scope="col">{t('copy.col.follower')}</th>
                {multiple && <th scope="col">{t('copy.col.leaderAccount')}</th>}
                <th scope="col">{t('copy.mine.mode')}</th>
                <th scope="col" className="num">
                  {t('copy.mine.equity')}
                </th>
                <th scope="col">{t('copy.col.status')}</th>
                <th scope="col">{t('copy.col.since')}</th>
              </tr>
            </thead>
            <tbody>
              {data.followers.map((f) => (
                <tr key={f.copy_account_id} data-testid="lead-follower">
                  <td data-label={t('copy.col.follower')}>{f.follower}</td>
                  {multiple && <td data-label={t('copy.col.leaderAccount')}>#{f.leader_id}</td>}
                  <td data-label={t('copy.mine.mode')}>{t(`copy.mode.${f.mode}`)}</td>
                  <td className="num" data-label={t('copy.mine.equity')}>
                    {moneyText(intl, f.equity, f.currency)}
                  </td>
                  <td data-label={t('copy.col.status')}>{t(`copy.state.${f.status}`)}</td>
                  <td data-label={t('copy.col.since')}>{dateText(intl, f.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Settlements({
  data,
  page,
  onPage,
  multiple,
}: {
  data: TDashboard;
  page: number;
  onPage(page: number): void;
  multiple: boolean;
}) {
  const { t, intl } = useI18n();
  return (
    <section className="card ui-section" aria-labelledby="cp-settlements" data-testid="lead-settlements">
      <h2 id="cp-settlements">{t('copy.lead.settlements')}</h2>
      <p className="ui-hint">{t('copy.lead.settlementsHint')}</p>
      {data.settlements.length === 0 ? (
        <p className="cp-muted">{t('copy.lead.noSettlements')}</p>
      ) : (
        <div className="ui-table-wrap">
          <table className="ui-table ui-table-stack">
            <thead>
              <tr>
                <th scope="col">{t('copy.col.date')}</th>
                <th scope="col">{t('copy.col.follower')}</th>
                {multiple && <th scope="col">{t('copy.col.leaderAccount')}</th>}
                <th scope="col">{t('copy.col.kind')}</th>
                <th scope="col" className="num">
                  {t('copy.col.profit')}
                </th>
                <th scope="col" className="num">
                  {t('copy.col.mark')}
                </th>
                <th scope="col" className="num">
                  {t('copy.col.fee')}
                </th>
                <th scope="col" className="num">
                  {t('copy.col.credited')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.settlements.map((s) => (
                <tr key={s.id} data-testid="lead-settlement">
                  <td data-label={t('copy.col.date')}>{dateText(intl, s.createdAt, true)}</td>
                  <td data-label={t('copy.col.follower')}>{s.follower}</td>
                  {multiple && <td data-label={t('copy.col.leaderAccount')}>#{s.leader_id}</td>}
                  <td data-label={t('copy.col.kind')}>{t(`copy.settlement.${s.kind}`)}</td>
                  <td className="num" data-label={t('copy.col.profit')}>
                    {moneyText(intl, s.profit, s.currency)}
                  </td>
                  <td className="num" data-label={t('copy.col.mark')}>
                    {moneyText(intl, s.markBefore, s.currency)} → {moneyText(intl, s.markAfter, s.currency)}
                  </td>
                  <td className="num" data-label={t('copy.col.fee')}>
                    {moneyText(intl, s.fee, s.currency)}
                  </td>
                  <td className="num" data-label={t('copy.col.credited')}>
                    {moneyText(intl, s.credited, s.leaderCurrency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.total > PAGE_SIZE && (
        <Pager name="settlements" page={page} size={PAGE_SIZE} total={data.total} onPage={onPage} />
      )}
    </section>
  );
}
