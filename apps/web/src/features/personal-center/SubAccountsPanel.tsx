import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { shipped } from '../../app/upcoming';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatAmount, newIntentKey } from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { type TPurpose, type TSubAccount, useSubAccounts } from './funding-actions-api';
import { TransferDialog, type TTransferDirection } from './TransferDialog';

const PURPOSES: readonly TPurpose[] = ['copy', 'strategy'];

/**
 * The copy and strategy sub-accounts of a main account (spec 3, 4): their balances and what can come
 * back, a Transfer dialog for the four transfer types, and opening a new (empty) one. Once copy trading
 * has shipped, a copy account is opened by following a trader (issue 18): the copy button leads to the
 * traders, and each copy account to My copies. Likewise, once the strategy bots have shipped, a strategy
 * account is opened by creating a bot (issue 19), and each one leads to the bots.
 */
export function SubAccountsPanel({
  account,
  freeMargin,
  onChanged,
}: {
  account: TAccountEntry;
  freeMargin: string | null;
  onChanged(message: string): void;
}) {
  const { t, lang, intl } = useI18n();
  const subs = useSubAccounts(account.account_id);
  const [transfer, setTransfer] = useState<{ subId: number; direction: TTransferDirection } | null>(null);
  const [opening, setOpening] = useState<TPurpose | null>(null);
  const [error, setError] = useState<string | null>(null);
  const intents = useRef<Partial<Record<TPurpose, string>>>({});

  const open = async (purpose: TPurpose) => {
    // One key per "open" intent: a retry after a lost answer opens one account, not two.
    intents.current[purpose] ??= newIntentKey();
    setOpening(purpose);
    setError(null);
    const answer = await callRoute(
      'subaccountcreate',
      { account_id: account.account_id, purpose, idempotencyKey: intents.current[purpose] },
      lang,
    );
    setOpening(null);
    if (answer.succeed && answer.Data) {
      delete intents.current[purpose];
      await subs.reload();
      onChanged(
        t('accounts.sub.opened', { name: t(`accounts.sub.name.${purpose}`, { id: answer.Data.account_id }) }),
      );
      return;
    }
    if (answer.code !== 0) delete intents.current[purpose];
    setError(failureText(answer, t));
  };

  const items: TSubAccount[] = subs.load.status === 'ready' ? subs.load.data : [];
  return (
    <section className="card ac-subs" aria-labelledby="ac-subs-title" data-testid="sub-accounts">
      <header className="ac-subs-head">
        <div>
          <h2 id="ac-subs-title">{t('accounts.sub.title')}</h2>
          <p className="ac-muted">{t('accounts.sub.text')}</p>
        </div>
        <div className="ac-actions">
          {shipped('copyTrading') && (
            <Link
              to={paths.copyTrading(lang)}
              className="btn btn-secondary btn-sm"
              data-testid="sub-find-leaders"
            >
              <Icon name="copy" size={16} />
              {t('copy.mine.find')}
            </Link>
          )}
          {shipped('strategies') && (
            <Link to={paths.newStrategy(lang)} className="btn btn-secondary btn-sm" data-testid="sub-new-bot">
              <Icon name="bot" size={16} />
              {t('strategy.list.create')}
            </Link>
          )}
          {PURPOSES.filter(
            (purpose) =>
              (purpose !== 'copy' || !shipped('copyTrading')) &&
              (purpose !== 'strategy' || !shipped('strategies')),
          ).map((purpose) => (
            <button
              key={purpose}
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={opening !== null}
              onClick={() => void open(purpose)}
              data-testid={`sub-open-${purpose}`}
            >
              {opening === purpose ? (
                <span className="spinner st-spinner-sm" />
              ) : (
                <Icon name="plus" size={16} />
              )}
              {t(`accounts.sub.open.${purpose}`)}
            </button>
          ))}
        </div>
      </header>
      {error && (
        <div className="alert alert-error" role="alert" data-testid="sub-error">
          {error}
        </div>
      )}
      {subs.load.status === 'loading' && <div className="skeleton ac-skeleton-line" aria-busy="true" />}
      {subs.load.status === 'failed' && (
        <div className="st-inline-error" role="alert">
          <span>{subs.load.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void subs.reload(false)}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {subs.load.status === 'ready' && items.length === 0 && (
        <p className="ac-muted" data-testid="sub-empty">
          {t('accounts.sub.empty')}
        </p>
      )}
      {items.length > 0 && (
        <ul className="ac-sub-list">
          {items.map((sub) => (
            <li
              key={sub.account_id}
              className="ac-sub"
              data-testid="sub-account"
              data-account={sub.account_id}
              data-purpose={sub.purpose}
            >
              <div className="ac-sub-name">
                <span className="badge ac-sub-badge" data-purpose={sub.purpose}>
                  {t(`accounts.sub.purpose.${sub.purpose}`)}
                </span>
                <span className="num">#{sub.account_id}</span>
              </div>
              <dl className="ac-sub-figures">
                <div>
                  <dt>{t('accounts.field.balance')}</dt>
                  <dd className="num" data-testid="sub-balance">
                    {formatAmount(intl, sub.balance, sub.currency)}
                  </dd>
                </div>
                <div>
                  <dt>{t('accounts.field.equity')}</dt>
                  <dd className="num">{formatAmount(intl, sub.equity, sub.currency)}</dd>
                </div>
                <div>
                  <dt>{t('accounts.sub.transferable')}</dt>
                  <dd className="num">{formatAmount(intl, sub.transferable, sub.currency)}</dd>
                </div>
              </dl>
              <div className="ac-actions">
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => setTransfer({ subId: sub.account_id, direction: 'out' })}
                  data-testid="sub-transfer-out"
                >
                  <Icon name="exchange" size={16} />
                  {t('accounts.sub.fund')}
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => setTransfer({ subId: sub.account_id, direction: 'in' })}
                  data-testid="sub-transfer-in"
                >
                  {t('accounts.sub.back')}
                </button>
                {sub.purpose === 'strategy' && shipped('strategies') && (
                  <Link
                    to={paths.strategies(lang)}
                    className="btn btn-ghost btn-sm"
                    data-testid="sub-strategies"
                  >
                    {t('strategy.list.title')}
                    <Icon name="chevronRight" size={14} />
                  </Link>
                )}
                {sub.purpose === 'copy' && shipped('copyTrading') && (
                  <Link
                    to={paths.myCopies(lang)}
                    className="btn btn-ghost btn-sm"
                    data-testid="sub-my-copies"
                  >
                    {t('copy.nav.mine')}
                    <Icon name="chevronRight" size={14} />
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {transfer && items.length > 0 && (
        <TransferDialog
          main={account}
          freeMargin={freeMargin}
          subAccounts={items}
          initial={transfer}
          onClose={() => setTransfer(null)}
          onDone={(message) => {
            setTransfer(null);
            void subs.reload();
            onChanged(message);
          }}
        />
      )}
    </section>
  );
}
