import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { formatAmount, fromMinor, minorOf } from '../../lib/money';
import {
  DEPOSIT_FINAL,
  isChain,
  isSandbox,
  simulate,
  type TDeposit,
  type TMethodInfo,
  useCall,
} from './funding-api';
import { CHAIN_NAME, CHAIN_NETWORK, plainRate } from './funding-maths';
import { CopyField, LoadError, methodName, Row, Skeleton, StateBadge } from './parts';
import { usePolling } from './use-polling';

/** Where a deposit is on its way: requested, paid (confirming on a chain), credited. */
function stepOf(deposit: TDeposit): number {
  if (deposit.status === 'completed') return 3;
  if (deposit.status === 'confirming') return 2;
  return 1;
}

/**
 * One deposit followed live until it is final (polled with back-off, no fixed sleep): its state in
 * words, what to do next (the USDT address, the bank reference), and the sandbox's simulation buttons
 * where the provider is a sandbox one.
 */
export function DepositTracker({
  id,
  initial,
  result,
  methods,
  onChanged,
  onAnother,
}: {
  id: string;
  initial: TDeposit | null;
  /** What the hosted payment page said when it sent the trader back (success, cancel, failed...). */
  result: string | null;
  methods: TMethodInfo[];
  onChanged(): void;
  onAnother(): void;
}) {
  const { t, lang, intl, formatDate, formatNumber } = useI18n();
  const call = useCall();
  const { data, error, poke } = usePolling(
    id,
    (signal) => call('depositdetail', { id }, signal),
    (deposit) => DEPOSIT_FINAL.has(deposit.status),
    initial,
  );
  // The list of recent deposits follows each change of state (confirming, completed...).
  const lastStatus = useRef<string | null>(null);
  useEffect(() => {
    if (!data || lastStatus.current === data.status) return;
    // A change, or a deposit already final when first read (the list may have been read before it was).
    if (lastStatus.current !== null || DEPOSIT_FINAL.has(data.status)) onChanged();
    lastStatus.current = data.status;
  }, [data, onChanged]);

  if (!data)
    return error ? (
      <LoadError message={error} onRetry={poke} testId="deposit-detail-error" />
    ) : (
      <Skeleton rows={3} />
    );

  const deposit = data;
  const method = methods.find((m) => m.method === deposit.method);
  const final = DEPOSIT_FINAL.has(deposit.status);
  const waiting = deposit.status === 'pending' || deposit.status === 'confirming';
  const total = fromMinor(minorOf(deposit.amount) + minorOf(deposit.fee));
  const step = stepOf(deposit);
  const money = (value: string, currency: string) => formatAmount(intl, value, currency);

  return (
    <section
      className="card fu-tracker"
      aria-labelledby="fu-tracker-title"
      data-testid="deposit-tracker"
      data-status={deposit.status}
    >
      <header className="fu-tracker-head">
        <div>
          <h2 id="fu-tracker-title">
            {t('funding.deposit.trackTitle', { amount: money(deposit.amount, deposit.methodCurrency) })}
          </h2>
          <p>
            {t('funding.deposit.trackSub', {
              method: methodName(t, deposit.method),
              id: deposit.account_id,
              time: formatDate(new Date(deposit.createdAt), TRADE_TIME),
            })}
          </p>
        </div>
        <StateBadge kind="deposit" status={deposit.status} testId="deposit-status" />
      </header>

      {result && !final && (
        <div
          className={`alert ${result === 'success' || result === 'processing' ? 'alert-info' : 'alert-error'}`}
          data-testid="deposit-return"
        >
          {t(
            result === 'success' || result === 'processing'
              ? 'funding.deposit.returnSuccess'
              : result === 'cancelled'
                ? 'funding.deposit.returnCancelled'
                : 'funding.deposit.returnFailed',
          )}
        </div>
      )}

      <ol className="fu-steps" aria-label={t('funding.deposit.progress')}>
        {(['requested', 'paid', 'credited'] as const).map((name, index) => {
          const n = index + 1;
          const state =
            deposit.status === 'failed' || deposit.status === 'expired'
              ? n === 1
                ? 'done'
                : 'todo'
              : n < step || (n === step && final)
                ? 'done'
                : n === step
                  ? 'current'
                  : 'todo';
          return (
            <li
              key={name}
              className="fu-step"
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="fu-step-dot" aria-hidden="true">
                {state === 'done' ? <Icon name="check" size={14} /> : n}
              </span>
              <span className="fu-step-label">
                {t(`funding.deposit.step.${name}`)}
                <span className="sr-only"> — {t(`funding.step.${state}`)}</span>
              </span>
            </li>
          );
        })}
      </ol>

      <p className="fu-status-text" aria-live="polite" data-testid="deposit-status-text">
        {deposit.status === 'completed' && deposit.credited !== null
          ? t('funding.deposit.done', {
              amount: money(deposit.credited, deposit.accountCurrency),
              id: deposit.account_id,
            })
          : deposit.status === 'failed' || deposit.status === 'expired'
            ? failureReason(t, deposit.failure ?? deposit.status)
            : deposit.status === 'confirming' && deposit.confirmationsNeeded
              ? t('funding.deposit.confirming', {
                  count: deposit.confirmations ?? 0,
                  needed: deposit.confirmationsNeeded,
                })
              : t(
                  isChain(deposit.method)
                    ? 'funding.deposit.waitChain'
                    : deposit.method === 'bank'
                      ? 'funding.deposit.waitBank'
                      : 'funding.deposit.waitHosted',
                )}
        {waiting && deposit.expectedAt && (
          <> {t('funding.expectedBy', { time: formatDate(new Date(deposit.expectedAt), TRADE_TIME) })}</>
        )}
      </p>

      {isChain(deposit.method) && deposit.confirmationsNeeded && deposit.status === 'confirming' && (
        <div className="fu-progress">
          <div
            className="fu-progress-bar"
            role="progressbar"
            aria-label={t('funding.deposit.confirmationsLabel')}
            aria-valuemin={0}
            aria-valuemax={deposit.confirmationsNeeded}
            aria-valuenow={Math.min(deposit.confirmations ?? 0, deposit.confirmationsNeeded)}
            aria-valuetext={t('funding.deposit.confirming', {
              count: deposit.confirmations ?? 0,
              needed: deposit.confirmationsNeeded,
            })}
          >
            <span
              style={{
                width: `${Math.min(100, ((deposit.confirmations ?? 0) / deposit.confirmationsNeeded) * 100)}%`,
              }}
            />
          </div>
          <span className="num">
            {formatNumber(deposit.confirmations ?? 0)} / {formatNumber(deposit.confirmationsNeeded)}
          </span>
        </div>
      )}

      {isChain(deposit.method) && deposit.address && waiting && (
        <div className="fu-instructions" data-testid="deposit-chain">
          <div className="alert fu-warning" role="note">
            <Icon name="alert" size={16} />
            <span>
              {t('funding.deposit.networkWarning', {
                network: CHAIN_NAME[deposit.method as keyof typeof CHAIN_NAME],
              })}
            </span>
          </div>
          <dl className="fu-copies">
            <CopyField label={t('funding.deposit.sendAmount')} value={total} testId="deposit-send-amount" />
            <CopyField
              label={t('funding.deposit.address')}
              value={deposit.address}
              testId="deposit-address"
            />
          </dl>
          {isSandbox(method?.provider) && deposit.status === 'pending' && (
            <SandboxButton
              label={t('funding.sandbox.chain')}
              testId="sandbox-chain-send"
              run={() =>
                simulate('/sandbox/chain/send', {
                  network: CHAIN_NETWORK[deposit.method as keyof typeof CHAIN_NETWORK],
                  address: deposit.address ?? '',
                  amount: Number(minorOf(total)),
                })
              }
              onDone={poke}
            />
          )}
        </div>
      )}

      {deposit.method === 'bank' && deposit.bank && deposit.reference && waiting && (
        <div className="fu-instructions" data-testid="deposit-bank">
          <div className="alert alert-info" role="note">
            {t('funding.deposit.bankNote')}
          </div>
          <dl className="fu-copies">
            <CopyField
              label={t('funding.deposit.reference')}
              value={deposit.reference}
              testId="deposit-reference"
            />
            <CopyField
              label={t('funding.deposit.sendAmount')}
              value={`${total} ${deposit.methodCurrency}`}
              testId="deposit-send-amount"
            />
            <CopyField
              label={t('funding.bank.beneficiary')}
              value={deposit.bank.beneficiary}
              testId="deposit-beneficiary"
            />
            <CopyField label={t('funding.bank.iban')} value={deposit.bank.iban} testId="deposit-iban" />
            <CopyField label={t('funding.bank.bic')} value={deposit.bank.bic} testId="deposit-bic" />
            <CopyField label={t('funding.bank.name')} value={deposit.bank.name} testId="deposit-bank-name" />
          </dl>
          {isSandbox(method?.provider) && (
            <SandboxButton
              label={t('funding.sandbox.bank')}
              testId="sandbox-bank-transfer"
              run={() =>
                simulate('/sandbox/bank/transfer', {
                  reference: deposit.reference ?? '',
                  amount: Number(minorOf(total)),
                  currency: deposit.methodCurrency,
                })
              }
              onDone={poke}
            />
          )}
        </div>
      )}

      <dl className="fu-rows fu-rows-wide">
        <Row label={t('funding.summary.amount')}>{money(deposit.amount, deposit.methodCurrency)}</Row>
        <Row label={t('funding.summary.fee')}>{money(deposit.fee, deposit.methodCurrency)}</Row>
        <Row label={t('funding.summary.total')}>{money(total, deposit.methodCurrency)}</Row>
        {deposit.methodCurrency !== deposit.accountCurrency && (
          <Row label={t('funding.summary.rate')}>
            {t('funding.rate', {
              from: `1 ${deposit.methodCurrency}`,
              to: `${formatDecimal(intl, plainRate(deposit.rate))} ${deposit.accountCurrency}`,
            })}
          </Row>
        )}
        <Row label={t('funding.summary.credited')} strong testId="deposit-credited">
          {deposit.credited === null ? '—' : money(deposit.credited, deposit.accountCurrency)}
        </Row>
        {deposit.reference && deposit.method !== 'bank' && (
          <Row label={t('funding.deposit.txHash')}>
            <span className="fu-break">{deposit.reference}</span>
          </Row>
        )}
      </dl>

      <div className="fu-actions">
        <button type="button" className="btn btn-secondary" onClick={onAnother} data-testid="deposit-another">
          <Icon name="plus" size={16} />
          {t('funding.deposit.another')}
        </button>
        {deposit.status === 'completed' && (
          <Link
            to={paths.personalCenter(lang, 'account')}
            className="btn btn-primary"
            data-testid="deposit-to-accounts"
          >
            {t('funding.toAccounts')}
          </Link>
        )}
      </div>
    </section>
  );
}

/** A failure reason from the provider (declined, expired, underpaid...) in the reader's language. */
export function failureReason(t: (key: string) => string, reason: string): string {
  const key = `funding.failure.${reason}`;
  const text = t(key);
  return text === key ? t('funding.failure.other') : text;
}

/** A sandbox simulation (demo mode): runs once per click, then reads the deposit again. */
function SandboxButton({
  label,
  run,
  onDone,
  testId,
}: {
  label: string;
  run(): Promise<{ ok: boolean; message: string }>;
  onDone(): void;
  testId: string;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <div className="fu-sandbox">
      <span className="badge fu-sandbox-badge">{t('funding.sandbox.badge')}</span>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={busy}
        data-testid={testId}
        onClick={async () => {
          setBusy(true);
          setFailed(null);
          const answer = await run();
          setBusy(false);
          if (!answer.ok) setFailed(answer.message || t('funding.sandbox.failed'));
          onDone();
        }}
      >
        {busy ? <span className="spinner st-spinner-sm" /> : label}
      </button>
      {failed && (
        <span className="field-error" role="alert">
          {failed}
        </span>
      )}
    </div>
  );
}
