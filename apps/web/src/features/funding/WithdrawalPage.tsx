import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import {
  formatAmount,
  fromMinor,
  minorOf,
  newIntentKey,
  parseAmountInput,
  toInputText,
} from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { useTrading } from '../../lib/trading/store';
import { pickAccount } from './DepositPage';
import { FundPasswordForm } from './FundPassword';
import { AccountSelect, AmountField, MethodCards } from './fields';
import {
  FUNDABLE_TYPES,
  isChain,
  isHosted,
  METHOD_ORDER,
  type TDestination,
  type TFinancialPage,
  type TFundingMethod,
  type TMethodInfo,
  type TMethods,
  type TMovement,
  type TWithdrawal,
  useAccountFigures,
  useCall,
  useFundingMethods,
  useRecentMovements,
  useRouteLoad,
} from './funding-api';
import { ADDRESS_FORMAT, accountRate, CHAIN_NAME, IBAN_FORMAT, withdrawalPreview } from './funding-maths';
import { expectedText, KycGate, LoadError, methodName, PageHeader, Row, Skeleton } from './parts';
import { RecentMovements } from './RecentMovements';
import { WithdrawalTimeline } from './WithdrawalTimeline';

/**
 * Withdrawal (spec 2.2 "withdrawal"): an amount up to the free margin, a method and where the money
 * goes (back to the card or wallet it came from first, a USDT address, or a bank account), confirmed
 * with the funding password; then the six-state timeline of spec 4 with Cancel while it awaits review.
 * Identity verification, the funding password, its change lock and the account's no-withdrawal
 * restriction are each said plainly where they stop the form.
 */
export function Component() {
  const { t } = useI18n();
  const trading = useTrading();
  const methods = useFundingMethods();
  const recent = useRecentMovements(['withdrawal']);
  const [params, setParams] = useSearchParams();
  const withdrawalId = params.get('withdrawal');
  const [created, setCreated] = useState<TWithdrawal | null>(null);
  const [changing, setChanging] = useState(false);
  const accounts = trading.state.accounts.filter((a) => FUNDABLE_TYPES.includes(a.account_type));

  let body: ReactNode;
  let passwordPanel: ReactNode = null;
  if (methods.load.status === 'loading' || trading.loading)
    body = <Skeleton rows={4} testId="withdrawal-loading" />;
  else if (methods.load.status === 'failed')
    body = (
      <LoadError
        message={methods.load.message}
        onRetry={() => void methods.reload(false)}
        testId="withdrawal-error"
      />
    );
  else if (methods.load.data.kyc !== 'approved')
    body = <KycGate kyc={methods.load.data.kyc} action="withdrawal" />;
  else if (withdrawalId)
    body = (
      <WithdrawalTimeline
        id={withdrawalId}
        initial={created?.id === withdrawalId ? created : null}
        methods={methods.load.data.methods}
        onChanged={() => {
          void recent.reload();
          void trading.refresh();
        }}
        onAnother={() => {
          setCreated(null);
          setParams({});
        }}
      />
    );
  else if (!methods.load.data.fundPasswordSet)
    body = (
      <section className="card fu-card" aria-labelledby="fu-set-password" data-testid="fund-password-needed">
        <h2 id="fu-set-password">{t('funding.password.needTitle')}</h2>
        <FundPasswordForm mode="set" onDone={() => void methods.reload()} />
      </section>
    );
  else if (accounts.length === 0)
    body = (
      <div className="card empty-state" data-testid="withdrawal-no-account">
        <div className="empty-state-icon">
          <Icon name="withdraw" size={26} />
        </div>
        <h2>{t('funding.noAccount.withdrawTitle')}</h2>
        <p>{t('funding.noAccount.withdrawText')}</p>
      </div>
    );
  else {
    body = (
      <WithdrawalForm
        accounts={accounts}
        methods={methods.load.data}
        preferred={Number(params.get('account')) || trading.state.accountId}
        onCreated={(withdrawal) => {
          setCreated(withdrawal);
          setParams({ withdrawal: withdrawal.id });
          void recent.reload();
          void trading.refresh();
        }}
      />
    );
    passwordPanel = (
      <section
        className="card fu-card"
        aria-labelledby="fu-change-password"
        data-testid="fund-password-panel"
      >
        <div className="fu-card-head">
          <div>
            <h2 id="fu-change-password">{t('funding.password.title')}</h2>
            <p className="fu-note">{t('funding.password.lockExplain')}</p>
          </div>
          {!changing && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setChanging(true)}
              data-testid="fund-password-change-open"
            >
              {t('funding.password.change')}
            </button>
          )}
        </div>
        {changing && (
          <FundPasswordForm
            mode="change"
            onDone={() => {
              // The lock, until when, shows at the top of the form.
              setChanging(false);
              void methods.reload();
            }}
            onCancel={() => setChanging(false)}
          />
        )}
      </section>
    );
  }

  return (
    <div className="fu-page" data-testid="withdrawal-page">
      <PageHeader title={t('pc.menu.withdrawal')} subtitle={t('funding.withdrawal.subtitle')} />
      {body}
      {methods.load.status === 'ready' && methods.load.data.kyc === 'approved' && (
        <>
          <RecentMovements
            kind="withdrawal"
            load={recent.load}
            accounts={trading.state.accounts}
            onRetry={() => void recent.reload(false)}
            detailHref={(id) => `?withdrawal=${encodeURIComponent(id)}`}
          />
          {passwordPanel}
        </>
      )}
    </div>
  );
}

function sortedMethods(methods: TMethodInfo[]) {
  return methods
    .filter((m) => m.withdraw.enabled)
    .sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
}

type TDestinationDraft = { depositId: string; address: string; iban: string; beneficiary: string };
const EMPTY_DESTINATION: TDestinationDraft = { depositId: '', address: '', iban: '', beneficiary: '' };

/** The completed card or e-wallet deposits of an account: where return-to-source can send money back. */
function useSourceDeposits(accountId: number) {
  const call = useCall();
  return useRouteLoad<TFinancialPage>(`sources:${accountId}`, (signal) =>
    call(
      'financial',
      { kinds: ['deposit'], status: 'completed', account_id: accountId, page: 1, size: 50 },
      signal,
    ),
  );
}

function WithdrawalForm({
  accounts,
  methods,
  preferred,
  onCreated,
}: {
  accounts: TAccountEntry[];
  methods: TMethods;
  preferred: number;
  onCreated(withdrawal: TWithdrawal): void;
}) {
  const { t, lang, intl, formatDate } = useI18n();
  const [accountId, setAccountId] = useState(() => pickAccount(accounts, preferred).account_id);
  const account = pickAccount(accounts, accountId);
  const figures = useAccountFigures(account.account_id);
  const sources = useSourceDeposits(account.account_id);
  const offered = sortedMethods(methods.methods);
  const sourceList = (method: TFundingMethod): TMovement[] =>
    sources.load.status === 'ready' ? sources.load.data.items.filter((d) => d.method === method) : [];
  const [methodId, setMethodId] = useState<TFundingMethod | null>(null);
  // Return-to-source first (spec: the money goes back the way it came): a method with an earlier
  // deposit to send back to is chosen until the trader picks another.
  const withSource = offered.find((m) => isHosted(m.method) && sourceList(m.method).length > 0);
  const method = offered.find((m) => m.method === methodId) ?? withSource ?? offered[0] ?? null;
  const [amountText, setAmountText] = useState('');
  const [destination, setDestination] = useState<TDestinationDraft>(EMPTY_DESTINATION);
  const [fundPassword, setFundPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const attempt = useRef<{ intent: string; key: string } | null>(null);
  const passwordId = useId();

  if (!method)
    return (
      <div className="card empty-state" data-testid="withdrawal-no-methods">
        <p>{t('funding.withdrawal.noMethods')}</p>
      </div>
    );

  const info = figures.load.status === 'ready' ? figures.load.data : null;
  const restricted = info?.restrictions.noWithdraw ?? false;
  const lockedUntil =
    methods.withdrawLockedUntil && new Date(methods.withdrawLockedUntil).getTime() > Date.now()
      ? methods.withdrawLockedUntil
      : null;
  const available = info ? minorOf(info.freeMargin) : null;
  const rate = accountRate(methods.rates, method.currency, account.currency);
  const parsed = parseAmountInput(amountText, intl);
  const amount = parsed.ok ? parsed.minor : 0n;
  const preview = withdrawalPreview(method, amount, rate);
  const sourcesOfMethod = sourceList(method.method);
  const chosenSource =
    sourcesOfMethod.find((d) => d.id === destination.depositId) ??
    (sourcesOfMethod.length === 1 ? sourcesOfMethod[0] : null);

  // The limits apply to what is paid out (method currency); the trader types the account currency.
  let problem: { key: string; limit: string; currency: string } | null = null;
  if (parsed.ok) {
    const payout = preview.payout ?? 0n;
    if (available !== null && amount > available)
      problem = { key: 'aboveAvailable', limit: fromMinor(available), currency: account.currency };
    else if (preview.payout !== null && amount <= preview.fee)
      problem = { key: 'belowFee', limit: fromMinor(preview.fee), currency: account.currency };
    else if (preview.payout !== null && payout < minorOf(method.withdraw.min))
      problem = { key: 'payoutBelowMin', limit: method.withdraw.min, currency: method.currency };
    else if (
      preview.payout !== null &&
      minorOf(method.withdraw.max) > 0n &&
      payout > minorOf(method.withdraw.max)
    )
      problem = { key: 'payoutAboveMax', limit: method.withdraw.max, currency: method.currency };
  }
  const amountError =
    serverFields.amount ??
    (!parsed.ok && (touched || parsed.problem !== 'empty')
      ? t(`funding.amount.${parsed.problem}`)
      : problem
        ? t(`funding.amount.${problem.key}`, { limit: formatAmount(intl, problem.limit, problem.currency) })
        : null);

  const destinationProblem = (): Record<string, string> => {
    if (isHosted(method.method))
      return chosenSource
        ? {}
        : {
            source: t(
              sourcesOfMethod.length ? 'funding.destination.pickSource' : 'funding.destination.noSource',
            ),
          };
    if (isChain(method.method)) {
      const format = ADDRESS_FORMAT[method.method as keyof typeof ADDRESS_FORMAT];
      return format.test(destination.address.trim())
        ? {}
        : {
            address: t(
              method.method === 'usdt_trc20'
                ? 'funding.destination.badTron'
                : 'funding.destination.badEthereum',
            ),
          };
    }
    const problems: Record<string, string> = {};
    if (!IBAN_FORMAT.test(destination.iban.trim().toUpperCase()))
      problems.iban = t('funding.destination.badIban');
    if (destination.beneficiary.trim().length < 2)
      problems.beneficiary = t('funding.destination.badBeneficiary');
    return problems;
  };
  const destinationErrors = touched ? destinationProblem() : {};
  const fieldError = (name: string) =>
    serverFields[name] ?? serverFields[`destination.${name}`] ?? destinationErrors[name] ?? null;
  const passwordError =
    serverFields.fundPassword ?? (touched && !fundPassword ? t('funding.password.required') : null);
  const blocked = restricted || lockedUntil !== null;

  const edit = (change: () => void) => {
    change();
    setError(null);
    setServerFields({});
  };

  const destinationValue = (): TDestination => {
    if (isHosted(method.method)) return { kind: 'source', depositId: chosenSource?.id ?? '' };
    if (isChain(method.method)) return { kind: 'address', address: destination.address.trim() };
    return {
      kind: 'bank',
      iban: destination.iban.trim().toUpperCase(),
      beneficiary: destination.beneficiary.trim(),
    };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok || problem || busy || blocked || !fundPassword) return;
    if (Object.keys(destinationProblem()).length) return;
    const target = destinationValue();
    const intent = JSON.stringify([account.account_id, method.method, parsed.value, target]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'withdrawcreate',
      {
        account_id: account.account_id,
        method: method.method,
        amount: parsed.value,
        destination: target,
        fundPassword,
        idempotencyKey: attempt.current.key,
      },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      setFundPassword('');
      onCreated(answer.Data);
      return;
    }
    if (answer.code !== 0) attempt.current = null;
    setServerFields(answer.fields ?? {});
    setError(failureText(answer, t));
  };

  return (
    <form className="fu-layout" onSubmit={(e) => void submit(e)} noValidate data-testid="withdrawal-form">
      <div className="card fu-form">
        {lockedUntil && (
          <div className="alert fu-warning" role="status" data-testid="withdrawal-locked">
            <Icon name="lock" size={16} />
            <span>
              {t('funding.withdrawal.locked', { time: formatDate(new Date(lockedUntil), TRADE_TIME) })}
            </span>
          </div>
        )}
        <AccountSelect
          accounts={accounts}
          value={account.account_id}
          onChange={(id) =>
            edit(() => {
              setAccountId(id);
              // Another account has its own deposits to send money back to.
              setDestination((d) => ({ ...d, depositId: '' }));
            })
          }
          testId="withdrawal-account"
        />
        {restricted && (
          <div className="alert alert-error" role="alert" data-testid="withdrawal-restricted">
            {t('funding.withdrawal.restricted', { id: account.account_id })}
          </div>
        )}
        <MethodCards
          methods={offered}
          side="withdraw"
          value={method.method}
          onChange={(m) => edit(() => setMethodId(m))}
          rateOf={(m) => accountRate(methods.rates, m.currency, account.currency)}
          accountCurrency={account.currency}
        />

        <fieldset className="fu-destination" data-testid="withdrawal-destination">
          <legend className="field-label">{t('funding.destination.title')}</legend>
          {isHosted(method.method) && (
            <SourcePicker
              method={method.method}
              load={sources.load}
              items={sourcesOfMethod}
              value={chosenSource?.id ?? ''}
              onChange={(id) => edit(() => setDestination((d) => ({ ...d, depositId: id })))}
              error={fieldError('source') ?? fieldError('depositId')}
              onRetry={() => void sources.reload(false)}
            />
          )}
          {isChain(method.method) && (
            <TextField
              label={t('funding.destination.address', {
                network: CHAIN_NAME[method.method as keyof typeof CHAIN_NAME],
              })}
              value={destination.address}
              onChange={(v) => edit(() => setDestination((d) => ({ ...d, address: v })))}
              hint={t(
                method.method === 'usdt_trc20'
                  ? 'funding.destination.tronHint'
                  : 'funding.destination.ethereumHint',
              )}
              error={fieldError('address')}
              testId="withdrawal-address"
              mono
            />
          )}
          {method.method === 'bank' && (
            <div className="fu-pair">
              <TextField
                label={t('funding.bank.iban')}
                value={destination.iban}
                onChange={(v) => edit(() => setDestination((d) => ({ ...d, iban: v })))}
                error={fieldError('iban')}
                testId="withdrawal-iban"
                autoComplete="off"
                mono
              />
              <TextField
                label={t('funding.bank.beneficiary')}
                value={destination.beneficiary}
                onChange={(v) => edit(() => setDestination((d) => ({ ...d, beneficiary: v })))}
                hint={t('funding.destination.ownName')}
                error={fieldError('beneficiary')}
                testId="withdrawal-beneficiary"
                autoComplete="name"
              />
            </div>
          )}
        </fieldset>

        <AmountField
          label={t('funding.field.amountIn', { currency: account.currency })}
          value={amountText}
          currency={account.currency}
          onChange={(text) => edit(() => setAmountText(text))}
          error={amountError}
          hint={
            info
              ? t('funding.withdrawal.available', {
                  amount: formatAmount(intl, info.freeMargin, account.currency),
                })
              : figures.load.status === 'failed'
                ? figures.load.message
                : t('funding.withdrawal.availableLoading')
          }
          action={
            available !== null && available > 0n ? (
              <button
                type="button"
                className="btn btn-secondary btn-sm fu-max"
                onClick={() => edit(() => setAmountText(toInputText(fromMinor(available), intl)))}
                data-testid="withdrawal-max"
              >
                {t('funding.withdrawal.max')}
              </button>
            ) : null
          }
          testId="withdrawal-amount"
        />

        <div className="field">
          <label className="field-label" htmlFor={passwordId}>
            {t('funding.password.field')}
          </label>
          <input
            id={passwordId}
            type="password"
            className="input"
            value={fundPassword}
            maxLength={64}
            autoComplete="off"
            aria-invalid={Boolean(passwordError)}
            aria-describedby={`${passwordId}-error`}
            onChange={(e) => edit(() => setFundPassword(e.target.value))}
            data-testid="withdrawal-password"
          />
          <span className="field-error" id={`${passwordId}-error`}>
            {passwordError}
          </span>
        </div>
      </div>

      <aside className="card fu-summary" aria-labelledby="fu-withdrawal-summary">
        <h2 id="fu-withdrawal-summary">{t('funding.summary.title')}</h2>
        <dl className="fu-rows" aria-live="polite">
          <Row label={t('funding.summary.method')}>{methodName(t, method.method)}</Row>
          <Row label={t('funding.summary.amount')} testId="withdrawal-preview-amount">
            {formatAmount(intl, amount, account.currency)}
          </Row>
          {method.currency !== account.currency && rate && (
            <Row label={t('funding.summary.rate')}>
              {t('funding.rate', {
                from: `1 ${method.currency}`,
                to: `${formatDecimal(intl, rate)} ${account.currency}`,
              })}
            </Row>
          )}
          <Row label={t('funding.summary.fee')} testId="withdrawal-preview-fee">
            {formatAmount(intl, preview.fee, account.currency)}
          </Row>
          <Row label={t('funding.summary.payout')} strong testId="withdrawal-preview-payout">
            {preview.payout === null ? '—' : formatAmount(intl, preview.payout, method.currency)}
          </Row>
          <Row label={t('funding.summary.review')}>{t('funding.withdrawal.reviewTime')}</Row>
          <Row label={t('funding.terms.payoutTime')}>{expectedText(t, method.withdraw.expectedMinutes)}</Row>
        </dl>
        <p className="fu-note">{t('funding.withdrawal.note')}</p>
        {error && (
          <div className="alert alert-error" role="alert" data-testid="withdrawal-submit-error">
            {error}
          </div>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy || blocked}
          data-testid="withdrawal-submit"
        >
          {busy ? <span className="spinner st-spinner-sm" /> : t('funding.withdrawal.submit')}
        </button>
      </aside>
    </form>
  );
}

function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  testId,
  autoComplete = 'off',
  mono,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string;
  error?: string | null;
  testId: string;
  autoComplete?: string;
  mono?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`input${mono ? ' fu-mono' : ''}`}
        value={value}
        autoComplete={autoComplete}
        spellCheck={false}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {hint && (
        <span className="fu-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <span className="field-error" id={`${id}-error`}>
        {error}
      </span>
    </div>
  );
}

/** Return-to-source: the card or e-wallet deposits of this account the money can go back to. */
function SourcePicker({
  method,
  load,
  items,
  value,
  onChange,
  error,
  onRetry,
}: {
  method: TFundingMethod;
  load: ReturnType<typeof useSourceDeposits>['load'];
  items: TMovement[];
  value: string;
  onChange(id: string): void;
  error: string | null;
  onRetry(): void;
}) {
  const { t, intl, formatDate } = useI18n();
  if (load.status === 'loading') return <div className="skeleton fu-skeleton-line" aria-busy="true" />;
  if (load.status === 'failed')
    return (
      <div className="st-inline-error" role="alert">
        <span>{load.message}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </div>
    );
  if (items.length === 0)
    return (
      <p className="alert alert-info" data-testid="withdrawal-no-source">
        {t('funding.destination.noSourceText', { method: methodName(t, method) })}
      </p>
    );
  return (
    <div className="fu-sources" data-testid="withdrawal-sources">
      <p className="fu-hint">{t('funding.destination.sourceText')}</p>
      {items.map((item) => (
        <label key={item.id} className="fu-source" data-testid="withdrawal-source">
          <input
            type="radio"
            name="withdrawal-source"
            className="st-radio"
            checked={value === item.id}
            onChange={() => onChange(item.id)}
          />
          <span>
            {t('funding.destination.sourceItem', {
              method: methodName(t, method),
              amount: formatAmount(intl, item.amount.replace(/^-/, ''), item.currency),
              time: formatDate(new Date(item.createdAt), { dateStyle: 'medium' }),
            })}
          </span>
        </label>
      ))}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
