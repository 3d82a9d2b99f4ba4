import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { shipped } from '../../app/upcoming';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { marginLevelText } from '../../lib/margin-level';
import { changeClass } from '../../lib/market-format';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { ConnectionState } from './AccountCard';
import {
  accountTypeKey,
  DEMO_TYPE,
  formatLeverage,
  formatMoney,
  isZero,
  magnitude,
  tradeTypeKey,
} from './account-text';
import type { TAccountInfo } from './accounts-api';
import { EXPERIENCE_TYPE, REAL_TYPE } from './funding-actions-api';

/** Real and experience accounts hold real money: they take deposits and pay out withdrawals. */
const FUNDABLE_TYPES: readonly number[] = [REAL_TYPE, EXPERIENCE_TYPE];

const RESTRICTIONS = ['noOpen', 'noClose', 'noTakeProfit', 'noStopLoss', 'noWithdraw'] as const;

function Figure({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string;
  tone?: string;
  testId?: string;
}) {
  return (
    <div className="ac-figure">
      <dt>{label}</dt>
      <dd className={`num ${tone ?? ''}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The current account in full: every spec 3 Account info field, the margin level against the
 * margin-call and stop-out levels, the trading mode explained, and what can be done with it.
 */
export function AccountDetails({
  account,
  info,
  onReset,
}: {
  account: TAccountEntry;
  info: TAccountInfo | null;
  onReset(): void;
}) {
  const { t, lang, intl, formatDate } = useI18n();
  const money = (value: string) => formatMoney(intl, value);
  const restricted = info ? RESTRICTIONS.filter((r) => info.restrictions[r]) : [];
  const hasMargin = info ? !isZero(info.margin) : false;
  return (
    <section
      className="card ac-details"
      aria-labelledby="ac-details-title"
      data-testid="account-details"
      data-account={account.account_id}
    >
      <header className="ac-details-head">
        <div>
          <h2 id="ac-details-title">{t('accounts.details.title', { id: account.account_id })}</h2>
          <p>
            {t(accountTypeKey(account.account_type))} · {t(tradeTypeKey(account.trade_type))} ·{' '}
            {account.currency} · {formatLeverage(intl, account.leverage)}
          </p>
        </div>
        <div className="ac-actions">
          <Link
            to={paths.trade(lang)}
            className={`btn btn-sm ${FUNDABLE_TYPES.includes(account.account_type) ? 'btn-secondary' : 'btn-primary'}`}
            data-testid="account-trade"
          >
            <Icon name="chart" size={16} />
            {t('accounts.action.trade')}
          </Link>
          {FUNDABLE_TYPES.includes(account.account_type) && (
            <>
              <Link
                to={`${paths.personalCenter(lang, 'deposit')}?account=${account.account_id}`}
                className="btn btn-primary btn-sm"
                data-testid="account-deposit"
              >
                <Icon name="deposit" size={16} />
                {t('accounts.action.deposit')}
              </Link>
              <Link
                to={`${paths.personalCenter(lang, 'withdrawal')}?account=${account.account_id}`}
                className="btn btn-secondary btn-sm"
                data-testid="account-withdraw"
              >
                <Icon name="withdraw" size={16} />
                {t('accounts.action.withdraw')}
              </Link>
            </>
          )}
          <Link
            to={`${paths.personalCenter(lang, 'history')}?account=${account.account_id}`}
            className="btn btn-secondary btn-sm"
            data-testid="account-history"
          >
            <Icon name="history" size={16} />
            {t('accounts.action.history')}
          </Link>
          {account.account_type === DEMO_TYPE && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={onReset}
              data-testid="account-reset"
            >
              <Icon name="exchange" size={16} />
              {t('accounts.action.reset')}
            </button>
          )}
        </div>
      </header>

      {info?.margin_call && (
        <div className="alert alert-error" role="alert" data-testid="margin-call">
          {t('accounts.details.marginCall', { level: marginLevelText(intl, info.margin_call_level) })}
        </div>
      )}
      {restricted.length > 0 && (
        <div className="alert alert-info">
          {t('accounts.details.restricted')}{' '}
          {restricted.map((r) => t(`accounts.restriction.${r}`)).join(' · ')}
        </div>
      )}

      {info ? (
        <>
          <dl className="ac-key-figures">
            <Figure
              label={t('accounts.field.totalEquity')}
              value={formatMoney(intl, info.total_equity, info.currency)}
              testId="info-total-equity"
            />
            <Figure label={t('accounts.field.balance')} value={money(info.balance)} testId="info-balance" />
            <Figure label={t('accounts.field.freeMargin')} value={money(info.freeMargin)} />
            <div className="ac-figure">
              <dt>{t('accounts.field.marginLevel')}</dt>
              <dd className="num" data-testid="info-margin-level">
                {hasMargin ? marginLevelText(intl, info.margin_level) : '—'}
              </dd>
              {/* A <div> of a <dl> holds only <dt> and <dd>: the hint is a second description. */}
              <dd className="ac-figure-hint">
                {hasMargin
                  ? t('accounts.details.levels', {
                      call: marginLevelText(intl, info.margin_call_level),
                      stop: marginLevelText(intl, info.stop_out_level),
                    })
                  : t('accounts.details.noMargin')}
              </dd>
            </div>
          </dl>
          <dl className="ac-figures">
            <Figure label={t('accounts.field.equity')} value={money(info.equity)} />
            <Figure
              label={t('accounts.field.floatingProfit')}
              value={money(info.floating_profit)}
              tone={changeClass(info.floating_profit)}
            />
            <Figure label={t('accounts.field.margin')} value={money(info.margin)} />
            <Figure
              label={t('accounts.field.profit')}
              value={money(info.profit)}
              tone={changeClass(info.profit)}
              testId="info-profit"
            />
            <Figure label={t('accounts.field.initMoney')} value={money(info.init_money)} />
            <Figure label={t('accounts.field.totalIn')} value={money(magnitude(info.total_in_amount))} />
            <Figure label={t('accounts.field.totalOut')} value={money(magnitude(info.total_out_amount))} />
            {/* The equity in copy trading and in strategies, once those exist (app/upcoming.ts). */}
            {shipped('copyTrading') && (
              <Figure label={t('accounts.field.followEquity')} value={money(info.follow_equity)} />
            )}
            {shipped('strategies') && (
              <Figure label={t('accounts.field.strategyEquity')} value={money(info.strategy_equity)} />
            )}
            <Figure
              label={t('accounts.field.opened')}
              value={formatDate(new Date(account.created_at), { dateStyle: 'medium' })}
            />
            <div className="ac-figure">
              <dt>{t('accounts.field.connection')}</dt>
              <dd>
                <ConnectionState abnormal={(info.is_abnormal ?? account.is_abnormal) === 1} />
              </dd>
            </div>
          </dl>
        </>
      ) : (
        <div className="ac-figures-loading" aria-busy="true">
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      )}

      <p className="ac-mode-note" data-testid="account-mode-note">
        <Icon name="bolt" size={16} />
        <span>
          <strong>{t(tradeTypeKey(account.trade_type))}</strong>{' '}
          {t(account.trade_type === 1 ? 'accounts.mode.1.text' : 'accounts.mode.2.text')}
        </span>
      </p>
    </section>
  );
}
