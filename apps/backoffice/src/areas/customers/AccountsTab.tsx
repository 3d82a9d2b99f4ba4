import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { AdjustDialog, DemoResetDialog, MoveGroupDialog, RestrictDialog } from './AccountDialogs';
import { ACCOUNT_TYPE_LABELS, RESTRICTION_KEYS, RESTRICTION_LABELS, toneOf, useFormat } from './format';
import type { TAccount, TTabProps } from './tabs';

type TAction = 'restrict' | 'adjust' | 'reset' | 'group';

/** The customer's trading accounts with live figures, restrictions, group and the account actions. */
export function AccountsTab({ detail, reload, notify }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const [acting, setActing] = useState<{ account: TAccount; action: TAction } | null>(null);
  if (detail.accounts.length === 0)
    return (
      <div className="card empty-state cu-empty" data-testid="accounts-empty">
        <Icon name="wallet" size={22} />
        <p>{t('admin.customers.accounts.none')}</p>
      </div>
    );
  const done = (message: string) => {
    setActing(null);
    notify(message);
    reload();
  };
  return (
    <div className="cu-accounts">
      {detail.accounts.map((account) => {
        const restricted = RESTRICTION_KEYS.filter((key) => account.restrictions[key]);
        const figures: [string, string, string | undefined][] = [
          [t('admin.customers.figure.balance'), format.money(account.balance), undefined],
          [t('admin.customers.figure.equity'), format.money(account.equity), undefined],
          [t('admin.customers.figure.margin'), format.money(account.margin), undefined],
          [t('admin.customers.figure.freeMargin'), format.money(account.freeMargin), undefined],
          [
            t('admin.customers.figure.marginLevel'),
            /[1-9]/.test(account.marginLevel) ? `${format.money(account.marginLevel)}%` : '—',
            account.marginCall ? 'kit-down' : undefined,
          ],
          [
            t('admin.customers.figure.floating'),
            format.signed(account.floatingProfit),
            toneOf(account.floatingProfit),
          ],
        ];
        return (
          <article
            key={account.accountId}
            className="card cu-account"
            data-testid="account-card"
            data-account={account.accountId}
            data-closed={account.closed ? 'true' : 'false'}
          >
            <header className="cu-account-head">
              <div className="cu-account-title">
                <strong className="num">#{account.accountId}</strong>
                <span className="kit-pill">
                  {t(ACCOUNT_TYPE_LABELS[account.accountType] ?? 'admin.customers.accountType.real')}
                </span>
                {account.closed ? (
                  <span className="kit-pill kit-pill-down">{t('admin.customers.accounts.closed')}</span>
                ) : null}
                {account.marginCall ? (
                  <span className="kit-pill kit-pill-down">{t('admin.customers.accounts.marginCall')}</span>
                ) : null}
              </div>
              <span className="cu-account-terms">
                <span className="cu-muted">
                  {t('admin.customers.accounts.terms', {
                    currency: account.currency,
                    leverage: account.leverage,
                  })}
                </span>
                {account.groupName ? (
                  <span className="kit-pill" data-testid="account-group-name">
                    {t('admin.customers.accounts.group', { group: account.groupName })}
                  </span>
                ) : null}
              </span>
            </header>
            <dl className="cu-figures">
              {figures.map(([label, value, tone]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd className={`num ${tone ?? ''}`}>{value}</dd>
                </div>
              ))}
            </dl>
            <div className="cu-account-foot">
              <div className="cu-restrictions" data-testid="account-restrictions">
                {restricted.length === 0 ? (
                  <span className="cu-muted">{t('admin.customers.restrictions.none')}</span>
                ) : (
                  restricted.map((key) => (
                    <span key={key} className="kit-pill kit-pill-warn" data-restriction={key}>
                      {t(RESTRICTION_LABELS[key])}
                    </span>
                  ))
                )}
                <span className="cu-muted">
                  {t('admin.customers.accounts.open', {
                    positions: account.positions,
                    orders: account.orders,
                  })}
                </span>
              </div>
              {account.closed ? null : (
                <div className="kit-actions">
                  <Can permission="users.restrict">
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      data-testid="account-restrict"
                      onClick={() => setActing({ account, action: 'restrict' })}
                    >
                      <Icon name="lock" size={14} />
                      {t('admin.customers.restrict.action')}
                    </button>
                  </Can>
                  <Can permission="users.adjust">
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      data-testid="account-adjust"
                      onClick={() => setActing({ account, action: 'adjust' })}
                    >
                      <Icon name="wallet" size={14} />
                      {t('admin.customers.adjust.action')}
                    </button>
                  </Can>
                  {account.accountType === 1 ? (
                    <Can permission="users.demoReset">
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        data-testid="account-reset"
                        onClick={() => setActing({ account, action: 'reset' })}
                      >
                        <Icon name="refresh" size={14} />
                        {t('admin.customers.demoReset.action')}
                      </button>
                    </Can>
                  ) : null}
                  {detail.groups.length > 1 ? (
                    <Can permission="market.groups">
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        data-testid="account-group"
                        onClick={() => setActing({ account, action: 'group' })}
                      >
                        <Icon name="users" size={14} />
                        {t('admin.customers.group.action')}
                      </button>
                    </Can>
                  ) : null}
                </div>
              )}
            </div>
          </article>
        );
      })}
      {acting?.action === 'restrict' ? (
        <RestrictDialog
          userId={detail.profile.id}
          account={acting.account}
          onClose={() => setActing(null)}
          onDone={done}
        />
      ) : null}
      {acting?.action === 'adjust' ? (
        <AdjustDialog
          userId={detail.profile.id}
          account={acting.account}
          onClose={() => setActing(null)}
          onDone={done}
        />
      ) : null}
      {acting?.action === 'reset' ? (
        <DemoResetDialog
          userId={detail.profile.id}
          account={acting.account}
          onClose={() => setActing(null)}
          onDone={done}
        />
      ) : null}
      {acting?.action === 'group' ? (
        <MoveGroupDialog
          userId={detail.profile.id}
          account={acting.account}
          groups={detail.groups}
          onClose={() => setActing(null)}
          onDone={done}
        />
      ) : null}
    </div>
  );
}
