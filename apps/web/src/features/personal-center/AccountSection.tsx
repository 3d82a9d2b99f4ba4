import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { newIdempotencyKey } from '../../lib/trading/orders';
import { useTrading } from '../../lib/trading/store';
import { AccountCard } from './AccountCard';
import { AccountDetails } from './AccountDetails';
import { formatMoney } from './account-text';
import { resetDemo } from './accounts-api';
import { CoinsPanel } from './CoinsPanel';
import { ConfirmDialog } from './ConfirmDialog';
import { EXPERIENCE_TYPE } from './funding-actions-api';
import { SectionHeader } from './SectionHeader';
import { SubAccountsPanel } from './SubAccountsPanel';

/** Demo accounts start with 100,000 of their currency (spec 9); a reset brings that back. */
const DEMO_BALANCE = '100000.00';

type TReset = { accountId: number; currency: string; key: string; busy: boolean; error: string | null };

/**
 * The trader's accounts (spec 2.2 "account"): one card per account, the current one highlighted
 * and chosen by a click (spec 4 cookie rules), and the current account's figures and actions.
 */
export function Component() {
  const { t, lang, intl } = useI18n();
  const trading = useTrading();
  const { state, info, loading, error } = trading;
  const [reset, setReset] = useState<TReset | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** After a transfer, a coin exchange or a new sub-account: say so, and show the new figures. */
  const fundsMoved = (message: string) => {
    setNotice(message);
    void trading.refresh();
  };

  const confirmReset = async () => {
    if (!reset) return;
    setReset({ ...reset, busy: true, error: null });
    const answer = await resetDemo(reset.accountId, lang, reset.key);
    if (!answer.succeed) {
      setReset({ ...reset, busy: false, error: failureText(answer, t) });
      return;
    }
    setReset(null);
    setNotice(
      t('accounts.reset.done', {
        id: reset.accountId,
        amount: formatMoney(intl, DEMO_BALANCE, reset.currency),
      }),
    );
    await trading.reload();
  };

  const openAccount = (
    <Link
      to={paths.personalCenter(lang, 'account/create')}
      className="btn btn-primary"
      data-testid="open-account"
    >
      <Icon name="plus" size={18} />
      {t('pc.account.open')}
    </Link>
  );

  let body: ReactNode;
  if (loading || state.status === 0) {
    body =
      !loading && error ? (
        <div className="card st-inline-error" role="alert" data-testid="accounts-error">
          <span>{t(error)}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void trading.reload()}>
            {t('common.retry')}
          </button>
        </div>
      ) : (
        <div className="ac-grid" aria-busy="true" data-testid="accounts-loading">
          <div className="skeleton ac-card-skeleton" />
          <div className="skeleton ac-card-skeleton" />
        </div>
      );
  } else if (state.accounts.length === 0) {
    body = (
      <div className="card" data-testid="accounts-empty">
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name="wallet" size={26} />
          </div>
          <h2>{t('pc.account.emptyTitle')}</h2>
          <p>{t('pc.account.emptyText')}</p>
          <Link to={paths.personalCenter(lang, 'account/create')} className="btn btn-primary">
            {t('accounts.empty.open')}
          </Link>
        </div>
      </div>
    );
  } else {
    const live = (accountId: number) => (info && info.account_id === accountId ? info : null);
    body = (
      <>
        <fieldset className="ac-list">
          <legend className="st-sr-only">{t('accounts.list.label')}</legend>
          <div className="ac-grid" data-testid="accounts">
            {state.accounts.map((account) => {
              const figures = live(account.account_id);
              return (
                <AccountCard
                  key={account.account_id}
                  account={account}
                  current={account.account_id === state.accountId}
                  equity={figures?.total_equity ?? account.equity}
                  balance={figures?.balance ?? account.balance}
                  onSelect={() => {
                    setNotice(null);
                    trading.select(account.account_id);
                  }}
                />
              );
            })}
          </div>
        </fieldset>
        {state.current && (
          <AccountDetails
            account={state.current}
            info={live(state.current.account_id)}
            onReset={() => {
              if (!state.current) return;
              setNotice(null);
              setReset({
                accountId: state.current.account_id,
                currency: state.current.currency,
                key: newIdempotencyKey(),
                busy: false,
                error: null,
              });
            }}
          />
        )}
        {state.current?.account_type === EXPERIENCE_TYPE && (
          <CoinsPanel
            key={`coins-${state.current.account_id}`}
            account={state.current}
            onChanged={fundsMoved}
          />
        )}
        {state.current && (
          <SubAccountsPanel
            key={`subs-${state.current.account_id}`}
            account={state.current}
            freeMargin={live(state.current.account_id)?.freeMargin ?? null}
            onChanged={fundsMoved}
          />
        )}
      </>
    );
  }

  return (
    <div className="ac-page">
      <SectionHeader title={t('pc.menu.account')} subtitle={t('pc.account.subtitle')} actions={openAccount} />
      {notice && (
        <div className="alert alert-info st-alert" role="status" data-testid="accounts-notice">
          <span>{notice}</span>
          <button
            type="button"
            className="icon-button"
            onClick={() => setNotice(null)}
            aria-label={t('accounts.dismiss')}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {state.status === 2 && error && (
        <div className="alert alert-error" role="status" data-testid="accounts-stale">
          {t('accounts.refreshFailed')}
        </div>
      )}
      {body}
      {reset && (
        <ConfirmDialog
          title={t('accounts.reset.title', { id: reset.accountId })}
          confirmLabel={t('accounts.reset.confirm')}
          busy={reset.busy}
          error={reset.error}
          onConfirm={() => void confirmReset()}
          onCancel={() => setReset(null)}
          testId="reset-dialog"
        >
          <p>{t('accounts.reset.text', { amount: formatMoney(intl, DEMO_BALANCE, reset.currency) })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
