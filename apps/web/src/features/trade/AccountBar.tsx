import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { marginLevelText } from '../../lib/margin-level';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { useTrading } from '../../lib/trading/store';
import { useDismiss } from '../../lib/use-dismiss';
import { ConnectionBanner } from './connection';
import { ConfirmDialog } from './dialogs';
import { Figure } from './fields';
import { useToasts } from './notifications';
import { useTradeActions } from './useTradeActions';

const TYPE_KEYS: Record<number, string> = {
  1: 'trade.accountType.demo',
  2: 'trade.accountType.real',
  3: 'trade.accountType.experience',
  4: 'trade.accountType.mt4',
  5: 'trade.accountType.mt5',
};

export function AccountTypeBadge({ type }: { type: number }) {
  const { t } = useI18n();
  return (
    <span className={`tr-type tr-type-${type}`} data-testid="account-type" data-type={type}>
      {t(TYPE_KEYS[type] ?? 'trade.accountType.real')}
    </span>
  );
}

function AccountSwitcher({ compact }: { compact: boolean }) {
  const { t, lang, intl, formatNumber } = useI18n();
  const { state, select } = useTrading();
  const [open, setOpen] = useState(false);
  const [resetting, setResetting] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const actions = useTradeActions();
  const { push } = useToasts();
  useDismiss(ref, open, () => setOpen(false));
  const current = state.current;
  if (!current) return null;
  const label = (a: TAccountEntry) => `#${a.account_id}`;
  return (
    <div className="tr-switcher" ref={ref}>
      <button
        type="button"
        className="tr-switcher-btn"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        data-testid="account-switcher"
        data-account={current.account_id}
      >
        <AccountTypeBadge type={current.account_type} />
        <span className="tr-switcher-id num">{label(current)}</span>
        {!compact && <span className="tr-switcher-ccy">{current.currency}</span>}
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div className="tr-menu" role="listbox" aria-label={t('trade.account.switch')}>
          {state.accounts.map((a) => (
            <button
              key={a.account_id}
              type="button"
              role="option"
              aria-selected={a.account_id === current.account_id}
              className={`tr-menu-item${a.account_id === current.account_id ? ' active' : ''}`}
              onClick={() => {
                setOpen(false);
                if (a.account_id !== current.account_id) select(a.account_id);
              }}
              data-testid="account-option"
            >
              <AccountTypeBadge type={a.account_type} />
              <span className="tr-menu-main">
                <span className="num">{label(a)}</span>
                <span className="tr-muted">
                  {t(`trade.mode.${a.trade_type === 1 ? 'novice' : 'standard'}`)} · 1:{a.leverage}
                </span>
              </span>
              <span className="num tr-menu-figure">
                {formatDecimal(intl, a.equity, 2)} {a.currency}
              </span>
            </button>
          ))}
          <div className="tr-menu-foot">
            {current.account_type === 1 && (
              <button
                type="button"
                className="tr-menu-link"
                onClick={() => {
                  setOpen(false);
                  setResetting(true);
                }}
              >
                <Icon name="history" size={15} />
                {t('trade.account.resetDemo')}
              </button>
            )}
            <Link className="tr-menu-link" to={paths.personalCenter(lang, 'account/create')}>
              <Icon name="plus" size={15} />
              {t('trade.account.openAnother')}
            </Link>
          </div>
        </div>
      )}
      {resetting && (
        <ConfirmDialog
          title={t('trade.account.resetDemo')}
          text={t('trade.account.resetText', { amount: formatNumber(100_000) })}
          confirmLabel={t('trade.account.resetConfirm')}
          danger
          onConfirm={async () => {
            const answer = await actions.resetDemo();
            if (answer.ok) push({ tone: 'success', kind: 'reset', title: t('trade.account.resetDone') });
            return answer;
          }}
          onClose={() => setResetting(false)}
        />
      )}
    </div>
  );
}

/**
 * The account strip: the account switcher with its type, the trading mode, and the live figures of
 * the current account (balance, equity, margin, usable margin, margin level, profit), with the
 * margin-call warning when the margin level falls under the broker's level.
 */
export function AccountBar({ compact = false }: { compact?: boolean }) {
  const { t, intl } = useI18n();
  const { state, info, error } = useTrading();
  const [expanded, setExpanded] = useState(false);
  const current = state.current;
  if (!current) return null;
  const currency = info?.currency ?? current.currency;
  const money = (value: string | undefined) => (value === undefined ? null : formatDecimal(intl, value, 2));
  const skeleton = <span className="skeleton tr-sk-num" />;
  const noMargin = !info || !/[1-9]/.test(info.margin);
  const level = info && !noMargin ? marginLevelText(intl, info.margin_level) : '—';
  const warning = info?.margin_call ?? false;
  const figures = (
    <dl className="tr-figures" data-testid="account-figures">
      <Figure label={t('trade.account.balance')} testId="figure-balance" value={info?.balance}>
        {money(info?.balance) ?? skeleton}
      </Figure>
      <Figure label={t('trade.account.equity')} testId="figure-equity" value={info?.total_equity}>
        {money(info?.total_equity) ?? skeleton}
      </Figure>
      <Figure label={t('trade.account.margin')} testId="figure-margin" value={info?.margin}>
        {money(info?.margin) ?? skeleton}
      </Figure>
      <Figure label={t('trade.account.freeMargin')} testId="figure-free" value={info?.freeMargin}>
        {money(info?.freeMargin) ?? skeleton}
      </Figure>
      <Figure
        label={t('trade.account.marginLevel')}
        testId="figure-level"
        value={info?.margin_level}
        tone={warning ? 'fall' : ''}
      >
        {info ? level : skeleton}
      </Figure>
      <Figure
        label={t('trade.account.floating')}
        testId="figure-floating"
        value={info?.floating_profit}
        tone={info ? changeClass(info.floating_profit) : ''}
      >
        {info ? formatDecimal(intl, info.floating_profit, 2, { sign: true }) : skeleton}
      </Figure>
      <Figure
        label={t('trade.account.profit')}
        testId="figure-profit"
        value={info?.profit}
        tone={info ? changeClass(info.profit) : ''}
      >
        {info ? formatDecimal(intl, info.profit, 2, { sign: true }) : skeleton}
      </Figure>
    </dl>
  );

  return (
    <div
      className={`tr-account${warning ? ' is-margin-call' : ''}${compact ? ' is-compact' : ''}`}
      data-testid="account-bar"
      data-margin-call={warning ? 'true' : 'false'}
    >
      <div className="tr-account-main">
        <AccountSwitcher compact={compact} />
        {!compact && (
          <span className="tr-mode" data-testid="trade-mode" data-mode={current.trade_type}>
            {t(`trade.mode.${current.trade_type === 1 ? 'novice' : 'standard'}`)}
          </span>
        )}
        {!compact && <span className="tr-ccy">{t('trade.account.currency', { currency })}</span>}
        {compact && (
          <button
            type="button"
            className="tr-account-toggle"
            aria-expanded={expanded}
            onClick={() => setExpanded((v) => !v)}
          >
            <span className="tr-muted">{t('trade.account.equity')}</span>
            <span className="num">{money(info?.total_equity) ?? '—'}</span>
            <Icon name="chevronDown" size={14} />
          </button>
        )}
      </div>
      {(!compact || expanded) && figures}
      {warning && info && (
        <p className="tr-margin-call" role="alert" data-testid="margin-call">
          <Icon name="alert" size={15} />
          {t('trade.account.marginCall', {
            level: marginLevelText(intl, info.margin_level),
            callLevel: marginLevelText(intl, info.margin_call_level),
            stopOut: marginLevelText(intl, info.stop_out_level),
          })}
        </p>
      )}
      <ConnectionBanner accountProblem={Boolean(error) || current.is_abnormal === 1} />
    </div>
  );
}
