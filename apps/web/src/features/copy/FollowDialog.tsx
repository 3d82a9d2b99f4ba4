import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { CurveChart } from '../../components/CurveChart';
import { Dialog } from '../../components/Dialog';
import { Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { Skeleton } from '../../components/LoadStates';
import { SelectField } from '../../components/SelectField';
import { TextField } from '../../components/TextField';
import { callRoute } from '../../lib/api';
import { dateText } from '../../lib/date-text';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { moneyText, newIntentKey } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall } from '../../lib/use-call';
import { type TLeaderProfile, type TMainAccount, type TWhatIf, useMainAccounts } from './copy-api';
import { checkFollowDraft, EMPTY_DRAFT, type TFollowDraft, type TFollowRequest } from './copy-form';
import { problemText } from './parts';
import { SettingsFields } from './SettingsFields';

/** How long the inputs rest before the what-if is asked again. */
const WHAT_IF_DEBOUNCE_MS = 450;

/**
 * The follow dialog (issue 18): the main account that funds the copy (of the leader's account type and
 * mode), the mode and its value, the amount and the risk controls, with the what-if of the last 90
 * days asked again as the inputs change. Submitting opens the copy account with a key kept for the
 * retries of the same submission, so a lost answer never opens two copies.
 */
export function FollowDialog({
  leader,
  onClose,
  onFollowed,
}: {
  leader: TLeaderProfile;
  onClose(): void;
  onFollowed(): void;
}) {
  const { t, lang, intl } = useI18n();
  const navigate = useNavigate();
  const accounts = useMainAccounts();
  const eligible =
    accounts.load.status === 'ready'
      ? accounts.load.data.filter(
          (a) =>
            a.account_type === leader.accountType &&
            a.trade_type === leader.tradeType &&
            // A leader cannot copy its own account.
            a.account_id !== leader.leader_id,
        )
      : [];
  const [accountId, setAccountId] = useState<number | null>(null);
  const account = eligible.find((a) => a.account_id === accountId) ?? eligible[0] ?? null;
  const [draft, setDraft] = useState<TFollowDraft>(EMPTY_DRAFT);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  const checked = checkFollowDraft(draft, { intl, minCopyAmount: leader.minCopyAmount });
  const problems = checked.ok ? {} : checked.problems;
  const whatIf = useWhatIf(leader.leader_id, checked.ok ? checked.request : null);
  const change = (next: Partial<TFollowDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setTouched(true);
    setError(null);
    setFieldErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!checked.ok || !account || busy) return;
    const request = checked.request;
    const intent = JSON.stringify([account.account_id, request]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followstart',
      {
        account_id: account.account_id,
        leader_id: leader.leader_id,
        mode: request.mode,
        value: request.value,
        amount: request.amount,
        controls: request.controls,
        copyExisting: request.copyExisting,
        idempotencyKey: attempt.current.key,
      },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      onFollowed();
      navigate(`${paths.myCopies(lang)}?started=${answer.Data.copy_account_id}`);
      return;
    }
    // A refusal is final for this key; a lost answer (code 0) is retried with the same key.
    if (answer.code !== 0) attempt.current = null;
    setFieldErrors(answer.fields ?? {});
    setError(failureText(answer, t));
  };

  const amountProblem =
    fieldErrors.amount ?? (touched && draft.amount !== '' ? problemText(t, problems.amount) : null);
  const noAccount = accounts.load.status === 'ready' && eligible.length === 0;

  return (
    <Dialog
      title={t('copy.follow.title', { nick: leader.nick })}
      onClose={onClose}
      busy={busy}
      testId="follow-dialog"
      wide
    >
      {accounts.load.status === 'loading' && <Skeleton rows={3} height={48} />}
      {accounts.load.status === 'failed' && (
        <div className="alert alert-error" role="alert">
          {accounts.load.message}
        </div>
      )}
      {noAccount && <NoEligibleAccount leader={leader} />}
      {account && (
        <form className="cp-follow" onSubmit={submit} noValidate data-testid="follow-form">
          <div className="cp-follow-inputs">
            <AccountChoice accounts={eligible} value={account.account_id} onChange={setAccountId} />
            <TextField
              name="amount"
              label={t('copy.follow.amount')}
              value={draft.amount}
              onChange={(amount) => change({ amount })}
              suffix={account.currency}
              hint={t('copy.follow.amountHint', {
                min: moneyText(intl, leader.minCopyAmount, leader.currency),
                balance: moneyText(intl, account.balance, account.currency),
              })}
              problem={amountProblem}
              testId="follow-amount"
            />
            <SettingsFields
              draft={draft}
              onChange={change}
              problems={problems}
              currency={account.currency}
              showProblems={touched}
              withCopyExisting
            />
          </div>
          <aside className="cp-follow-side">
            <WhatIfPanel
              state={whatIf}
              currency={account.currency}
              stopLoss={checked.ok && checked.request.controls.stopLossPercent != null}
            />
            <p className="ui-hint">
              {t('copy.follow.feeNote', { fee: percentText(intl, leader.feePercent) })}
            </p>
            {error && (
              <div className="alert alert-error" role="alert" data-testid="follow-error">
                {error}
              </div>
            )}
            <div className="ui-actions">
              <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
                {t('copy.action.cancel')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy} data-testid="follow-submit">
                {busy ? <span className="spinner ui-spinner" /> : <Icon name="copy" size={16} />}
                {t('copy.follow.submit')}
              </button>
            </div>
          </aside>
        </form>
      )}
    </Dialog>
  );
}

function AccountChoice({
  accounts,
  value,
  onChange,
}: {
  accounts: TMainAccount[];
  value: number;
  onChange(id: number): void;
}) {
  const { t, intl } = useI18n();
  return (
    <SelectField
      label={t('copy.follow.account')}
      value={value}
      onChange={onChange}
      options={accounts.map((account) => ({
        value: account.account_id,
        label: t('copy.follow.accountOption', {
          id: account.account_id,
          type: t(`accounts.type.${account.account_type}`),
          balance: moneyText(intl, account.balance, account.currency),
        }),
      }))}
      testId="follow-account"
    />
  );
}

function NoEligibleAccount({ leader }: { leader: TLeaderProfile }) {
  const { t, lang } = useI18n();
  return (
    <div className="empty-state cp-empty-inline" data-testid="follow-no-account">
      <p>
        {t('copy.follow.noAccount', {
          type: t(`accounts.type.${leader.accountType}`),
          mode: t(`accounts.mode.${leader.tradeType === 1 ? 1 : 2}`),
        })}
      </p>
      <Link
        className="btn btn-primary"
        to={`${paths.personalCenter(lang, 'account/create')}?type=${leader.accountType}`}
      >
        {t('copy.follow.openAccount')}
      </Link>
    </div>
  );
}

type TWhatIfState =
  | { status: 'idle' }
  | { status: 'loading'; last: TWhatIf | null }
  | { status: 'ready'; data: TWhatIf }
  | { status: 'failed'; message: string };

/** The what-if of the current inputs, asked once they rest; only the newest answer is kept. */
function useWhatIf(leaderId: number, request: TFollowRequest | null): TWhatIfState {
  const call = useCall();
  const [state, setState] = useState<TWhatIfState>({ status: 'idle' });
  const key = request
    ? JSON.stringify([request.mode, request.value, request.amount, request.controls])
    : null;
  const requestRef = useRef(request);
  requestRef.current = request;
  useEffect(() => {
    const current = requestRef.current;
    if (key === null || !current) {
      setState({ status: 'idle' });
      return;
    }
    setState((previous) => ({
      status: 'loading',
      last:
        previous.status === 'ready' ? previous.data : previous.status === 'loading' ? previous.last : null,
    }));
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const answer = await call(
        'followwhatif',
        {
          leader_id: leaderId,
          mode: current.mode,
          value: current.value,
          amount: current.amount,
          controls: current.controls,
        },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      setState(
        'ok' in answer
          ? { status: 'ready', data: answer.data }
          : { status: 'failed', message: answer.message },
      );
    }, WHAT_IF_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, leaderId, call]);
  return state;
}

/** What the settings would have given over the last 90 days. */
function WhatIfPanel({
  state,
  currency,
  stopLoss,
}: {
  state: TWhatIfState;
  currency: string;
  stopLoss: boolean;
}) {
  const { t, intl } = useI18n();
  const data = state.status === 'ready' ? state.data : state.status === 'loading' ? state.last : null;
  return (
    <section
      className="cp-whatif"
      aria-labelledby="cp-whatif-title"
      aria-busy={state.status === 'loading'}
      data-testid="whatif"
      data-state={state.status}
    >
      <h3 id="cp-whatif-title">{t('copy.whatif.title')}</h3>
      {state.status === 'idle' && <p className="cp-muted">{t('copy.whatif.idle')}</p>}
      {state.status === 'failed' && (
        <p className="cp-danger" role="alert" data-testid="whatif-error">
          {state.message}
        </p>
      )}
      {state.status === 'loading' && !data && <Skeleton rows={2} height={40} />}
      {data && (
        <div className="cp-whatif-body" data-stale={state.status === 'loading' ? 'true' : undefined}>
          <p className="cp-whatif-lead">
            <Signed value={data.returnPercent} testId="whatif-return">
              <span className="cp-big">{percentText(intl, data.returnPercent, { sign: true })}</span>
            </Signed>
            <span className="cp-muted cp-small">{t('copy.whatif.window', { days: data.days })}</span>
          </p>
          <dl className="ui-figures cp-figures-tight">
            <div className="ui-figure">
              <dt>{t('copy.whatif.profit')}</dt>
              <dd>
                <Signed value={data.profit} testId="whatif-profit">
                  {moneyText(intl, data.profit, currency, true)}
                </Signed>
              </dd>
            </div>
            <div className="ui-figure">
              <dt>{t('copy.whatif.fees')}</dt>
              <dd className="num" data-testid="whatif-fees">
                {moneyText(intl, data.fees, currency)}
              </dd>
            </div>
            <div className="ui-figure">
              <dt>{t('copy.stat.maxDrawdown')}</dt>
              <dd className="num">{percentText(intl, data.maxDrawdown)}</dd>
            </div>
            <div className="ui-figure">
              <dt>{t('copy.whatif.copied')}</dt>
              <dd className="num" data-testid="whatif-copied">
                {t('copy.whatif.copiedOf', { copied: data.copied, total: data.leaderTrades })}
              </dd>
            </div>
          </dl>
          {data.skipped.length > 0 && (
            <div className="cp-skips">
              <span className="cp-small cp-muted">{t('copy.whatif.skipped')}</span>
              <ul data-testid="whatif-skipped">
                {data.skipped.map((skip) => (
                  <li key={skip.reason}>
                    {t(`copy.skip.${skip.reason}`)} <span className="num">× {skip.count}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className={data.stoppedAt ? 'cp-warning' : 'cp-muted cp-small'} data-testid="whatif-stop">
            {data.stoppedAt
              ? t('copy.whatif.stopped', { date: dateText(intl, data.stoppedAt) })
              : t(stopLoss ? 'copy.whatif.notStopped' : 'copy.whatif.noStopLoss')}
          </p>
          <CurveChart
            points={data.curve}
            label={t('copy.whatif.curve')}
            height={90}
            compact
            testId="whatif-curve"
          />
          {data.leaderTrades === 0 && <p className="cp-muted cp-small">{t('copy.whatif.noTrades')}</p>}
        </div>
      )}
    </section>
  );
}
