import { type FormEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { CloseOrKeep } from '../../components/CloseOrKeep';
import { ConfirmActions, Dialog } from '../../components/Dialog';
import { Figure, Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { StatusBadge } from '../../components/StatusBadge';
import { TextField } from '../../components/TextField';
import { callRoute } from '../../lib/api';
import { dateText } from '../../lib/date-text';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { minorOf, moneyText, newIntentKey, parseAmountInput } from '../../lib/money';
import { useCall, useLoad } from '../../lib/use-call';
import type { TCopy, TMine } from './copy-api';
import { checkFollowDraft, draftFromCopy, MODE_UNIT, type TFollowDraft, trimZeros } from './copy-form';
import { ParityReport } from './ParityReport';
import { CopyHeader, problemText } from './parts';
import { SettingsFields } from './SettingsFields';

type TAction =
  | { kind: 'stop'; copy: TCopy }
  | { kind: 'funds'; copy: TCopy; direction: 'add' | 'withdraw' }
  | { kind: 'edit'; copy: TCopy };

/**
 * My copies (issue 18): one card per leader followed with the money, profit, fees and high-water mark,
 * pause and resume, stop (closing or keeping the copies), money in and out, the settings, and the
 * parity report that says why the copy's result differs from the leader's.
 */
export function Component() {
  const { t, lang } = useI18n();
  const call = useCall();
  const [params, setParams] = useSearchParams();
  // Kept here as well as in the address: the box shows its new state at once, not after the navigation.
  const [includeStopped, setIncludeStopped] = useState(() => params.get('stopped') === '1');
  const mine = useLoad<TMine>(`mine:${includeStopped}`, (signal) =>
    call('followmine', { includeStopped }, signal),
  );
  const [action, setAction] = useState<TAction | null>(null);
  const [notice, setNotice] = useState<string | null>(() =>
    params.get('started') ? t('copy.mine.started') : null,
  );
  const [rowBusy, setRowBusy] = useState<number | null>(null);
  const [rowError, setRowError] = useState<{ id: number; message: string } | null>(null);

  const toggle = async (copy: TCopy) => {
    setRowBusy(copy.copy_account_id);
    setRowError(null);
    const answer = await call(copy.status === 'paused' ? 'followresume' : 'followpause', {
      copy_account_id: copy.copy_account_id,
    });
    setRowBusy(null);
    if ('ok' in answer) {
      setNotice(
        t(copy.status === 'paused' ? 'copy.mine.resumed' : 'copy.mine.paused', { nick: copy.leaderNick }),
      );
      void mine.reload();
    } else setRowError({ id: copy.copy_account_id, message: answer.message });
  };

  const done = (message: string) => {
    setAction(null);
    setNotice(message);
    void mine.reload();
  };

  return (
    <div className="ui-page" data-testid="copy-mine-page">
      <CopyHeader title={t('copy.mine.title')} subtitle={t('copy.mine.subtitle')} />
      {notice && (
        <div className="alert alert-info cp-notice" role="status" data-testid="mine-notice">
          <span>{notice}</span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setNotice(null);
              if (params.has('started')) setParams({}, { replace: true });
            }}
            aria-label={t('common.close')}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      <div className="cp-toolbar">
        {mine.load.status === 'ready' && (
          <span className="cp-muted" data-testid="mine-count">
            {t('copy.mine.following', { count: mine.load.data.followed, limit: mine.load.data.limit })}
          </span>
        )}
        <label className="ui-check cp-toggle-inline">
          <input
            type="checkbox"
            checked={includeStopped}
            onChange={(event) => {
              setIncludeStopped(event.target.checked);
              setParams(event.target.checked ? { stopped: '1' } : {}, { replace: true });
            }}
            data-testid="mine-include-stopped"
          />
          <span>{t('copy.mine.includeStopped')}</span>
        </label>
      </div>
      {mine.load.status === 'loading' && <Skeleton rows={2} height={200} testId="mine-loading" />}
      {mine.load.status === 'failed' && (
        <LoadError message={mine.load.message} onRetry={() => void mine.reload(false)} testId="mine-error" />
      )}
      {mine.load.status === 'ready' && mine.load.data.items.length === 0 && (
        <div className="card empty-state ui-empty" data-testid="mine-empty">
          <div className="empty-state-icon">
            <Icon name="copy" size={26} />
          </div>
          <h2>{t('copy.mine.emptyTitle')}</h2>
          <p>{t('copy.mine.emptyText')}</p>
          <Link to={paths.copyTrading(lang)} className="btn btn-primary">
            {t('copy.mine.find')}
          </Link>
        </div>
      )}
      {mine.load.status === 'ready' && mine.load.data.items.length > 0 && (
        <ul className="cp-copies">
          {mine.load.data.items.map((copy) => (
            <CopyCard
              key={copy.copy_account_id}
              copy={copy}
              busy={rowBusy === copy.copy_account_id}
              error={rowError?.id === copy.copy_account_id ? rowError.message : null}
              onToggle={() => void toggle(copy)}
              onAction={setAction}
            />
          ))}
        </ul>
      )}
      {action?.kind === 'stop' && (
        <StopDialog copy={action.copy} onClose={() => setAction(null)} onDone={done} />
      )}
      {action?.kind === 'funds' && (
        <FundsDialog
          copy={action.copy}
          initial={action.direction}
          onClose={() => setAction(null)}
          onDone={done}
        />
      )}
      {action?.kind === 'edit' && (
        <EditDialog copy={action.copy} onClose={() => setAction(null)} onDone={done} />
      )}
    </div>
  );
}

const STATE_TONE = { active: 'good', paused: 'waiting', stopped: 'stopped' } as const;

function modeValueText(t: ReturnType<typeof useI18n>['t'], intl: string, copy: TCopy): string {
  const unit = MODE_UNIT[copy.mode];
  const mode = t(`copy.mode.${copy.mode}`);
  if (unit === null) return mode;
  const value =
    unit === 'money'
      ? moneyText(intl, copy.value, copy.currency)
      : unit === 'lots'
        ? `${formatDecimal(intl, copy.value, 2)} ${t('copy.unit.lots')}`
        : `${formatDecimal(intl, trimZeros(copy.value))}×`;
  return `${mode} · ${value}`;
}

function CopyCard({
  copy,
  busy,
  error,
  onToggle,
  onAction,
}: {
  copy: TCopy;
  busy: boolean;
  error: string | null;
  onToggle(): void;
  onAction(action: TAction): void;
}) {
  const { t, lang, intl } = useI18n();
  const [parity, setParity] = useState(false);
  const live = copy.status !== 'stopped';
  return (
    <li
      className="card cp-copy"
      data-testid="copy-card"
      data-copy={copy.copy_account_id}
      data-status={copy.status}
    >
      <div className="cp-copy-head">
        <div className="cp-copy-title">
          <h2>
            <Link to={paths.copyLeader(lang, copy.leader_id)} data-testid="copy-leader">
              {copy.leaderNick}
            </Link>
          </h2>
          <span className="cp-muted cp-small">
            {t('copy.mine.account', { id: copy.copy_account_id })} ·{' '}
            {t('copy.mine.since', { date: dateText(intl, copy.createdAt) })}
          </span>
        </div>
        <StatusBadge tone={STATE_TONE[copy.status]} testId="copy-status" state={copy.status}>
          {t(`copy.state.${copy.status}`)}
        </StatusBadge>
      </div>
      {copy.stopReason && (
        <p className="cp-muted cp-small" data-testid="copy-stop-reason">
          {t(`copy.stopReason.${copy.stopReason}`)}
        </p>
      )}
      <dl className="ui-figures cp-figures-copy">
        <Figure label={t('copy.mine.mode')} testId="copy-mode">
          {modeValueText(t, intl, copy)}
        </Figure>
        <Figure label={t('copy.mine.allocated')} testId="copy-allocated">
          {moneyText(intl, copy.allocated, copy.currency)}
        </Figure>
        <Figure label={t('copy.mine.equity')} testId="copy-equity">
          {moneyText(intl, copy.equity, copy.currency)}
        </Figure>
        <Figure label={t('copy.mine.profit')}>
          <Signed value={copy.profit} testId="copy-profit">
            {moneyText(intl, copy.profit, copy.currency, true)}
          </Signed>
        </Figure>
        <Figure label={t('copy.mine.feesPaid')} testId="copy-fees">
          {moneyText(intl, copy.feesPaid, copy.currency)}
        </Figure>
        <Figure label={t('copy.mine.highWaterMark')} testId="copy-hwm">
          {moneyText(intl, copy.highWaterMark, copy.currency)}
        </Figure>
        <Figure label={t('copy.mine.openPositions')} testId="copy-open">
          {new Intl.NumberFormat(intl).format(copy.openPositions)}
        </Figure>
        <Figure label={t('copy.mine.skipped')} testId="copy-skipped">
          {new Intl.NumberFormat(intl).format(copy.skipped)}
        </Figure>
      </dl>
      {error && (
        <div className="alert alert-error" role="alert" data-testid="copy-error">
          {error}
        </div>
      )}
      <div className="ui-actions">
        {live && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={onToggle}
            disabled={busy}
            data-testid="copy-toggle"
          >
            {busy && <span className="spinner ui-spinner" />}
            {t(copy.status === 'paused' ? 'copy.action.resume' : 'copy.action.pause')}
          </button>
        )}
        {live && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => onAction({ kind: 'funds', copy, direction: 'add' })}
            data-testid="copy-funds"
          >
            <Icon name="exchange" size={16} />
            {t('copy.action.funds')}
          </button>
        )}
        {live && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => onAction({ kind: 'edit', copy })}
            data-testid="copy-edit"
          >
            <Icon name="settings" size={16} />
            {t('copy.action.edit')}
          </button>
        )}
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-expanded={parity}
          onClick={() => setParity((open) => !open)}
          data-testid="copy-parity"
        >
          <Icon name="chart" size={16} />
          {t('copy.action.parity')}
        </button>
        {live && (
          <button
            type="button"
            className="btn btn-ghost btn-sm cp-danger"
            onClick={() => onAction({ kind: 'stop', copy })}
            data-testid="copy-stop"
          >
            {t('copy.action.stop')}
          </button>
        )}
      </div>
      {parity && <ParityReport copy={copy} />}
    </li>
  );
}

function StopDialog({
  copy,
  onClose,
  onDone,
}: {
  copy: TCopy;
  onClose(): void;
  onDone(message: string): void;
}) {
  const { t, lang, intl } = useI18n();
  const [closePositions, setClosePositions] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ returned: string; fee: string } | null>(null);
  const attempt = useRef<{ intent: boolean; key: string } | null>(null);

  const stop = async () => {
    if (attempt.current?.intent !== closePositions)
      attempt.current = { intent: closePositions, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followstop',
      { copy_account_id: copy.copy_account_id, closePositions, idempotencyKey: attempt.current.key },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      setResult({ returned: answer.Data.returned, fee: answer.Data.fee });
      return;
    }
    if (answer.code !== 0) attempt.current = null;
    setError(failureText(answer, t));
  };

  if (result)
    return (
      <Dialog
        title={t('copy.stop.doneTitle')}
        onClose={() => onDone(t('copy.mine.stopped', { nick: copy.leaderNick }))}
        testId="stop-dialog"
        footer={
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => onDone(t('copy.mine.stopped', { nick: copy.leaderNick }))}
            data-testid="stop-ok"
          >
            {t('common.ok')}
          </button>
        }
      >
        <dl className="ui-figures cp-figures-tight" data-testid="stop-result">
          <Figure label={t('copy.stop.returned')} testId="stop-returned">
            {moneyText(intl, result.returned, copy.currency)}
          </Figure>
          <Figure label={t('copy.stop.fee')} testId="stop-fee">
            {moneyText(intl, result.fee, copy.currency)}
          </Figure>
        </dl>
        <p className="ui-hint">{t(closePositions ? 'copy.stop.doneClosed' : 'copy.stop.doneKept')}</p>
      </Dialog>
    );

  return (
    <Dialog
      title={t('copy.stop.title', { nick: copy.leaderNick })}
      onClose={onClose}
      busy={busy}
      testId="stop-dialog"
      footer={
        <ConfirmActions
          cancel={t('copy.action.cancel')}
          confirm={t('copy.stop.confirm')}
          onCancel={onClose}
          onConfirm={() => void stop()}
          busy={busy}
          danger
          testId="stop-confirm"
        />
      }
    >
      <p className="cp-muted">{t('copy.stop.text')}</p>
      <CloseOrKeep
        legend={t('copy.stop.positions')}
        name="cp-stop"
        closePositions={closePositions}
        onChange={setClosePositions}
        close={{ title: t('copy.stop.close'), hint: t('copy.stop.closeHint') }}
        keep={{ title: t('copy.stop.keep'), hint: t('copy.stop.keepHint') }}
      />
      {error && (
        <div className="alert alert-error" role="alert" data-testid="stop-error">
          {error}
        </div>
      )}
    </Dialog>
  );
}

function FundsDialog({
  copy,
  initial,
  onClose,
  onDone,
}: {
  copy: TCopy;
  initial: 'add' | 'withdraw';
  onClose(): void;
  onDone(message: string): void;
}) {
  const { t, lang, intl } = useI18n();
  const [direction, setDirection] = useState(initial);
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);
  const parsed = parseAmountInput(text, intl);
  const withdrawable = copy.withdrawable;
  let problem: string | null = null;
  if (!parsed.ok)
    problem = touched ? t(`copy.problem.${parsed.problem === 'empty' ? 'required' : parsed.problem}`) : null;
  else if (parsed.minor <= 0n) problem = t('copy.problem.positive');
  else if (direction === 'withdraw' && parsed.minor > minorOf(withdrawable))
    problem = t('copy.funds.aboveWithdrawable', { max: moneyText(intl, withdrawable, copy.currency) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok || problem || busy) return;
    const intent = `${direction}:${parsed.value}`;
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followfunds',
      {
        copy_account_id: copy.copy_account_id,
        direction,
        amount: parsed.value,
        idempotencyKey: attempt.current.key,
      },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      onDone(
        t(direction === 'add' ? 'copy.funds.added' : 'copy.funds.withdrawn', {
          amount: moneyText(intl, parsed.value, copy.currency),
        }),
      );
      return;
    }
    if (answer.code !== 0) attempt.current = null;
    setError(failureText(answer, t));
  };

  return (
    <Dialog
      title={t('copy.funds.title', { nick: copy.leaderNick })}
      onClose={onClose}
      busy={busy}
      testId="funds-dialog"
    >
      <form onSubmit={submit} noValidate className="cp-form">
        <div className="cp-segmented" role="radiogroup" aria-label={t('copy.funds.direction')}>
          {(['add', 'withdraw'] as const).map((d) => (
            <label key={d} data-checked={direction === d ? 'true' : undefined}>
              <input
                type="radio"
                name="cp-funds"
                checked={direction === d}
                onChange={() => setDirection(d)}
                data-testid={`funds-${d}`}
              />
              {t(`copy.funds.${d}`)}
            </label>
          ))}
        </div>
        <TextField
          name="amount"
          label={t('copy.funds.amount')}
          value={text}
          onChange={(value) => {
            setText(value);
            setError(null);
          }}
          suffix={copy.currency}
          hint={
            direction === 'withdraw'
              ? t('copy.funds.withdrawableHint', { max: moneyText(intl, withdrawable, copy.currency) })
              : t('copy.funds.addHint')
          }
          problem={problem}
          testId="funds-amount"
        />
        {error && (
          <div className="alert alert-error" role="alert" data-testid="funds-error">
            {error}
          </div>
        )}
        <div className="ui-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            {t('copy.action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="funds-submit">
            {busy && <span className="spinner ui-spinner" />}
            {t(direction === 'add' ? 'copy.funds.addSubmit' : 'copy.funds.withdrawSubmit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function EditDialog({
  copy,
  onClose,
  onDone,
}: {
  copy: TCopy;
  onClose(): void;
  onDone(message: string): void;
}) {
  const { t, lang, intl } = useI18n();
  const [draft, setDraft] = useState<TFollowDraft>(() => draftFromCopy(copy, intl));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checked = checkFollowDraft(draft, { intl, withAmount: false });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!checked.ok || busy) return;
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'followupdate',
      {
        copy_account_id: copy.copy_account_id,
        mode: checked.request.mode,
        value: checked.request.value,
        controls: checked.request.controls,
      },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      onDone(t('copy.edit.saved', { nick: copy.leaderNick }));
      return;
    }
    setError(failureText(answer, t));
  };

  return (
    <Dialog
      title={t('copy.edit.title', { nick: copy.leaderNick })}
      onClose={onClose}
      busy={busy}
      testId="edit-dialog"
    >
      <form onSubmit={submit} noValidate className="cp-form">
        <SettingsFields
          draft={draft}
          onChange={(change) => {
            setDraft((current) => ({ ...current, ...change }));
            setTouched(true);
            setError(null);
          }}
          problems={checked.ok ? {} : checked.problems}
          currency={copy.currency}
          showProblems={touched}
          withCopyExisting={false}
        />
        <p className="ui-hint">{t('copy.edit.note')}</p>
        {error && (
          <div className="alert alert-error" role="alert" data-testid="edit-error">
            {error}
          </div>
        )}
        {!checked.ok && touched && problemText(t, Object.values(checked.problems)[0]) && (
          <span className="sr-only" role="status">
            {t('copy.problem.fix')}
          </span>
        )}
        <div className="ui-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            {t('copy.action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="edit-submit">
            {busy && <span className="spinner ui-spinner" />}
            {t('copy.action.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
