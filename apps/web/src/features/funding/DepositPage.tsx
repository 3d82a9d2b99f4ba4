import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { formatAmount, fromMinor, minBig, minorOf, newIntentKey, parseAmountInput } from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { useTrading } from '../../lib/trading/store';
import { DepositTracker } from './DepositTracker';
import { AccountSelect, AmountField, MethodCards } from './fields';
import {
  EXPERIENCE_TYPE,
  FUNDABLE_TYPES,
  isChain,
  isHosted,
  METHOD_ORDER,
  type TDeposit,
  type TFundingMethod,
  type TMethodInfo,
  type TMethods,
  useAccountFigures,
  useFundingMethods,
  useRecentMovements,
} from './funding-api';
import {
  accountRate,
  depositPreview,
  experienceRoom,
  limitProblem,
  methodAmountFor,
  type TAmountProblem,
} from './funding-maths';
import { expectedText, KycGate, LoadError, methodName, PageHeader, Row, Skeleton } from './parts';
import { RecentMovements } from './RecentMovements';

/**
 * Deposit (spec 2.2 "deposit"): choose a real or experience account, a method and an amount, see the
 * fee and what reaches the account, then pay on the provider's page (card, e-wallet), to a USDT
 * address or by bank transfer with a reference; the deposit's state is followed live. Traders
 * without approved identity verification see the way to it instead (spec 6).
 */
export function Component() {
  const { t } = useI18n();
  const trading = useTrading();
  const methods = useFundingMethods();
  const recent = useRecentMovements(['deposit']);
  const [params, setParams] = useSearchParams();
  const depositId = params.get('deposit');
  const [created, setCreated] = useState<TDeposit | null>(null);

  const header = <PageHeader title={t('pc.menu.deposit')} subtitle={t('funding.deposit.subtitle')} />;
  const accounts = trading.state.accounts.filter((a) => FUNDABLE_TYPES.includes(a.account_type));

  let body: ReactNode;
  if (methods.load.status === 'loading' || trading.loading)
    body = <Skeleton rows={4} testId="deposit-loading" />;
  else if (methods.load.status === 'failed')
    body = (
      <LoadError
        message={methods.load.message}
        onRetry={() => void methods.reload(false)}
        testId="deposit-error"
      />
    );
  else if (methods.load.data.kyc !== 'approved')
    body = <KycGate kyc={methods.load.data.kyc} action="deposit" />;
  else if (depositId)
    body = (
      <DepositTracker
        id={depositId}
        initial={created?.id === depositId ? created : null}
        result={params.get('result')}
        methods={methods.load.data.methods}
        onChanged={() => void recent.reload()}
        onAnother={() => {
          setCreated(null);
          setParams({}, { replace: false });
        }}
      />
    );
  else if (accounts.length === 0) body = <NoRealAccount />;
  else
    body = (
      <DepositForm
        accounts={accounts}
        methods={methods.load.data}
        preferred={Number(params.get('account')) || trading.state.accountId}
        preferredMethod={params.get('method')}
        onCreated={(deposit) => {
          setCreated(deposit);
          setParams({ deposit: deposit.id });
          void recent.reload();
        }}
      />
    );

  return (
    <div className="fu-page" data-testid="deposit-page">
      {header}
      {body}
      {methods.load.status === 'ready' && methods.load.data.kyc === 'approved' && (
        <RecentMovements
          kind="deposit"
          load={recent.load}
          accounts={trading.state.accounts}
          onRetry={() => void recent.reload(false)}
          detailHref={(id) => `?deposit=${encodeURIComponent(id)}`}
        />
      )}
    </div>
  );
}

function NoRealAccount() {
  const { t, lang } = useI18n();
  return (
    <div className="card" data-testid="deposit-no-account">
      <div className="empty-state">
        <div className="empty-state-icon">
          <Icon name="wallet" size={26} />
        </div>
        <h2>{t('funding.noAccount.title')}</h2>
        <p>{t('funding.noAccount.text')}</p>
        <Link to={`${paths.personalCenter(lang, 'account/create')}?type=2`} className="btn btn-primary">
          {t('funding.noAccount.open')}
        </Link>
      </div>
    </div>
  );
}

function sortedMethods(methods: TMethodInfo[], side: 'deposit' | 'withdraw') {
  return methods
    .filter((m) => m[side].enabled)
    .sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
}

export function pickAccount(accounts: TAccountEntry[], preferred: number): TAccountEntry {
  return accounts.find((a) => a.account_id === preferred) ?? (accounts[0] as TAccountEntry);
}

function DepositForm({
  accounts,
  methods,
  preferred,
  preferredMethod,
  onCreated,
}: {
  accounts: TAccountEntry[];
  methods: TMethods;
  preferred: number;
  preferredMethod: string | null;
  onCreated(deposit: TDeposit): void;
}) {
  const { t, lang, intl } = useI18n();
  const [accountId, setAccountId] = useState(() => pickAccount(accounts, preferred).account_id);
  const account = pickAccount(accounts, accountId);
  const experience = account.account_type === EXPERIENCE_TYPE;
  const figures = useAccountFigures(experience ? account.account_id : null);
  const offered = sortedMethods(methods.methods, 'deposit');
  const [methodId, setMethodId] = useState<TFundingMethod | null>(
    () => offered.find((m) => m.method === preferredMethod)?.method ?? offered[0]?.method ?? null,
  );
  const method = offered.find((m) => m.method === methodId) ?? null;
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  if (!method)
    return (
      <div className="card empty-state" data-testid="deposit-no-methods">
        <h2>{t('pc.deposit.emptyTitle')}</h2>
        <p>{t('funding.deposit.noMethods')}</p>
      </div>
    );

  const rate = accountRate(methods.rates, method.currency, account.currency);
  const parsed = parseAmountInput(amountText, intl);
  const amount = parsed.ok ? parsed.minor : 0n;
  const preview = depositPreview(method, amount, rate);
  const netValue = figures.load.status === 'ready' ? figures.load.data.equity : null;
  const room = experience && netValue !== null ? experienceRoom(methods.experienceCap, netValue) : null;
  const roomInMethod = room === null ? null : methodAmountFor(room, rate);

  let problem: TAmountProblem | null = parsed.ok
    ? limitProblem(amount, method.deposit.min, method.deposit.max)
    : null;
  if (!problem && parsed.ok && roomInMethod !== null && amount > roomInMethod)
    problem = { key: 'aboveRoom', limit: fromMinor(roomInMethod) };
  const parseText =
    !parsed.ok && (touched || parsed.problem !== 'empty') ? t(`funding.amount.${parsed.problem}`) : null;
  const amountError =
    fieldError ??
    parseText ??
    (problem
      ? t(`funding.amount.${problem.key}`, { limit: formatAmount(intl, problem.limit, method.currency) })
      : null);
  const capReached = room !== null && room === 0n;

  const edit = (change: () => void) => {
    change();
    setError(null);
    setFieldError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok || problem || busy || capReached) return;
    const intent = JSON.stringify([account.account_id, method.method, parsed.value]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'depositcreate',
      {
        account_id: account.account_id,
        method: method.method,
        amount: parsed.value,
        idempotencyKey: attempt.current.key,
        returnPath: `/${lang}/personalCenter/deposit`,
      },
      lang,
    );
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      if (answer.Data.redirectUrl) {
        // The provider's hosted page; it sends the trader back with ?deposit=<id>&result=...
        window.location.assign(answer.Data.redirectUrl);
        return;
      }
      setBusy(false);
      onCreated(answer.Data);
      return;
    }
    setBusy(false);
    // A refusal is final for this key; a lost answer (code 0) is retried with the same key.
    if (answer.code !== 0) attempt.current = null;
    const amountMessage = answer.fields?.amount;
    if (amountMessage) setFieldError(amountMessage);
    setError(failureText(answer, t));
  };

  const submitKey = isHosted(method.method)
    ? 'funding.deposit.submitHosted'
    : isChain(method.method)
      ? 'funding.deposit.submitChain'
      : 'funding.deposit.submitBank';

  return (
    <form className="fu-layout" onSubmit={(e) => void submit(e)} noValidate data-testid="deposit-form">
      <div className="card fu-form">
        <AccountSelect
          accounts={accounts}
          value={account.account_id}
          onChange={(id) => edit(() => setAccountId(id))}
          testId="deposit-account"
        />
        {experience && (
          <div className="fu-cap" data-testid="experience-cap">
            <Icon name="bolt" size={18} />
            <div>
              <p>
                {t('funding.experience.cap', {
                  cap: formatAmount(intl, methods.experienceCap, account.currency),
                })}
              </p>
              {room !== null ? (
                <p className="num" data-testid="experience-room">
                  {capReached
                    ? t('funding.experience.full', {
                        value: formatAmount(intl, netValue ?? '0', account.currency),
                      })
                    : t('funding.experience.room', {
                        value: formatAmount(intl, netValue ?? '0', account.currency),
                        room: formatAmount(intl, room, account.currency),
                      })}
                </p>
              ) : figures.load.status === 'failed' ? (
                <p>{figures.load.message}</p>
              ) : (
                <div className="skeleton fu-skeleton-line" />
              )}
            </div>
          </div>
        )}
        <MethodCards
          methods={offered}
          side="deposit"
          value={method.method}
          onChange={(m) => edit(() => setMethodId(m))}
          rateOf={(m) => accountRate(methods.rates, m.currency, account.currency)}
          accountCurrency={account.currency}
        />
        <AmountField
          label={t('funding.field.amountIn', { currency: method.currency })}
          value={amountText}
          currency={method.currency}
          onChange={(text) => edit(() => setAmountText(text))}
          error={amountError}
          hint={t('funding.amount.range', {
            min: formatAmount(intl, method.deposit.min),
            max: formatAmount(
              intl,
              roomInMethod !== null
                ? fromMinor(minBig(roomInMethod, minorOf(method.deposit.max)))
                : method.deposit.max,
              method.currency,
            ),
          })}
          testId="deposit-amount"
        />
      </div>

      <aside className="card fu-summary" aria-labelledby="fu-deposit-summary">
        <h2 id="fu-deposit-summary">{t('funding.summary.title')}</h2>
        <dl className="fu-rows" aria-live="polite">
          <Row label={t('funding.summary.method')}>{methodName(t, method.method)}</Row>
          <Row label={t('funding.summary.amount')} testId="deposit-preview-amount">
            {formatAmount(intl, amount, method.currency)}
          </Row>
          <Row label={t('funding.summary.fee')} testId="deposit-preview-fee">
            {formatAmount(intl, preview.fee, method.currency)}
          </Row>
          <Row label={t('funding.summary.total')} strong testId="deposit-preview-total">
            {formatAmount(intl, preview.total, method.currency)}
          </Row>
          {rate && method.currency !== account.currency && (
            <Row label={t('funding.summary.rate')}>
              {t('funding.rate', {
                from: `1 ${method.currency}`,
                to: `${formatDecimal(intl, rate)} ${account.currency}`,
              })}
            </Row>
          )}
          <Row label={t('funding.summary.receive')} strong testId="deposit-preview-receive">
            {preview.credited === null ? '—' : formatAmount(intl, preview.credited, account.currency)}
          </Row>
          <Row label={t('funding.summary.time')}>{expectedText(t, method.deposit.expectedMinutes)}</Row>
        </dl>
        <p className="fu-note">
          {t(
            isHosted(method.method)
              ? 'funding.deposit.noteHosted'
              : isChain(method.method)
                ? 'funding.deposit.noteChain'
                : 'funding.deposit.noteBank',
          )}
        </p>
        {error && (
          <div className="alert alert-error" role="alert" data-testid="deposit-submit-error">
            {error}
          </div>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy || capReached}
          data-testid="deposit-submit"
        >
          {busy ? <span className="spinner st-spinner-sm" /> : t(submitKey)}
        </button>
      </aside>
    </form>
  );
}
