import { useCallback, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { AccountsTab } from './AccountsTab';
import { AdjustmentList } from './AdjustmentList';
import { KYC_LABELS, KYC_TONES, STATUS_LABELS } from './format';
import { HistoryTab } from './HistoryTab';
import { NotesTab, ProfileTab, SessionsTab } from './ProfileTabs';
import { CUSTOMERS_BASE } from './paths';
import { OrdersTab, PositionsTab } from './TradesTabs';
import type { TTabProps } from './tabs';

const TABS = {
  profile: 'admin.customers.tab.profile',
  accounts: 'admin.customers.tab.accounts',
  positions: 'admin.customers.tab.positions',
  orders: 'admin.customers.tab.orders',
  history: 'admin.customers.tab.history',
  sessions: 'admin.customers.tab.sessions',
  notes: 'admin.customers.tab.notes',
} as const;
type TTab = keyof typeof TABS;
const TAB_KEYS = Object.keys(TABS) as TTab[];

/**
 * Live figures refresh this often while the page is open and in front: every 2 s on the tabs with
 * floating figures (accounts, positions, orders), as the risk pages do; every 10 s elsewhere.
 */
const LIVE_REFRESH_MS = 2_000;
const REFRESH_MS = 10_000;
const LIVE_TABS: readonly string[] = ['accounts', 'positions', 'orders'];

/** One customer: header with status and actions, pending adjustments, and the seven tabs. */
export function CustomerDetailPage() {
  const { t } = useI18n();
  const { userId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = TAB_KEYS.find((key) => key === params.get('tab')) ?? 'profile';
  const detail = useQuery('admincustomerdetail', { userId });
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<null | 'disable' | 'enable' | 'signout'>(null);
  const data = detail.data;
  useDocumentTitle(data?.profile.name ?? t('admin.menu.users'));

  const { reload } = detail;
  const every = LIVE_TABS.includes(tab) ? LIVE_REFRESH_MS : REFRESH_MS;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, every);
    return () => clearInterval(timer);
  }, [reload, every]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);
  const notify = useCallback((message: string) => setNotice(message), []);

  const back = (
    <Link to={CUSTOMERS_BASE} className="cu-back">
      <Icon name="arrowLeft" size={14} />
      {t('admin.customers.backToList')}
    </Link>
  );

  if (!data) {
    return (
      <div className="bo-page">
        {back}
        {detail.status === 'error' ? (
          <div className="card bo-error-card" role="alert" data-testid="customer-error">
            <span className="bo-error-icon">
              <Icon name="alert" size={22} />
            </span>
            <div className="bo-error-text">
              <strong>{t('admin.customers.loadFailed')}</strong>
              <span>{detail.error.message}</span>
            </div>
            <button type="button" className="btn btn-primary btn-sm" onClick={reload}>
              {t('admin.kit.retry')}
            </button>
          </div>
        ) : (
          <div className="card cu-loading" aria-busy="true">
            <span className="skeleton cu-skeleton-title" />
            <span className="skeleton cu-skeleton-line" />
            <span className="skeleton cu-skeleton-line" />
          </div>
        )}
      </div>
    );
  }

  const { profile } = data;
  const tabProps: TTabProps = { detail: data, reload, notify };
  const counts: Partial<Record<TTab, number>> = {
    accounts: data.accounts.filter((a) => !a.closed).length,
    positions: data.positions.length,
    orders: data.orders.length,
    notes: data.notes.length,
  };

  return (
    <div className="bo-page" data-testid="customer-page" data-user={profile.id}>
      {back}
      <PageHeader
        title={profile.name}
        badge={
          <span className="cu-badges">
            <span
              className={`kit-pill ${profile.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}
              data-testid="customer-status"
              data-status={profile.status}
            >
              {t(STATUS_LABELS[profile.status])}
            </span>
            <span className={`kit-pill ${KYC_TONES[profile.kyc]}`}>
              {t('admin.customers.kycBadge', { state: t(KYC_LABELS[profile.kyc]) })}
            </span>
          </span>
        }
        description={<span className="cu-id-line">{profile.id}</span>}
        actions={
          <Can permission="users.disable">
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setAsking('signout')}
              data-testid="customer-signout"
            >
              <Icon name="logout" size={14} />
              {t('admin.customers.signOut.action')}
            </button>
            {profile.status === 'active' ? (
              <button
                type="button"
                className="btn btn-sm kit-btn-danger"
                onClick={() => setAsking('disable')}
                data-testid="customer-disable"
              >
                <Icon name="lock" size={14} />
                {t('admin.customers.disable.action')}
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => setAsking('enable')}
                data-testid="customer-enable"
              >
                <Icon name="check" size={14} />
                {t('admin.customers.enable.action')}
              </button>
            )}
          </Can>
        }
      />
      {notice ? (
        <div className="cu-notice" role="status" data-testid="customer-notice">
          <Icon name="check" size={16} />
          <span>{notice}</span>
        </div>
      ) : null}
      {detail.status === 'error' ? (
        <div className="kit-error" role="alert">
          {detail.error.message}
        </div>
      ) : null}
      {data.adjustments.length > 0 ? (
        <section className="card cu-pending" data-testid="customer-pending">
          <header className="cu-section-head">
            <h2>{t('admin.customers.pendingAdjustments', { count: data.adjustments.length })}</h2>
          </header>
          <AdjustmentList items={data.adjustments} onChanged={reload} notify={notify} compact />
        </section>
      ) : null}
      <div className="kit-tabs" role="tablist" aria-label={profile.name}>
        {TAB_KEYS.map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            className="kit-tab"
            aria-selected={tab === key}
            data-testid={`customer-tab-${key}`}
            onClick={() =>
              setParams(
                (current) => {
                  const next = new URLSearchParams(current);
                  if (key === 'profile') next.delete('tab');
                  else next.set('tab', key);
                  return next;
                },
                { replace: true },
              )
            }
          >
            {t(TABS[key])}
            {counts[key] ? <span className="cu-tab-count">{counts[key]}</span> : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="cu-panel">
        {tab === 'profile' ? <ProfileTab {...tabProps} /> : null}
        {tab === 'accounts' ? <AccountsTab {...tabProps} /> : null}
        {tab === 'positions' ? <PositionsTab {...tabProps} /> : null}
        {tab === 'orders' ? <OrdersTab {...tabProps} /> : null}
        {tab === 'history' ? <HistoryTab {...tabProps} /> : null}
        {tab === 'sessions' ? <SessionsTab {...tabProps} /> : null}
        {tab === 'notes' ? <NotesTab {...tabProps} /> : null}
      </div>
      {asking === 'disable' || asking === 'enable' ? (
        <StatusDialog
          userId={profile.id}
          name={profile.name}
          to={asking === 'disable' ? 'disabled' : 'active'}
          onClose={() => setAsking(null)}
          onDone={(message) => {
            setAsking(null);
            notify(message);
            reload();
          }}
        />
      ) : null}
      {asking === 'signout' ? (
        <SignOutDialog
          userId={profile.id}
          name={profile.name}
          onClose={() => setAsking(null)}
          onDone={(message) => {
            setAsking(null);
            notify(message);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}

function StatusDialog({
  userId,
  name,
  to,
  onClose,
  onDone,
}: {
  userId: string;
  name: string;
  to: 'active' | 'disabled';
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const change = useMutation('admincustomerstatus');
  const [reason, setReason] = useState('');
  const disabling = to === 'disabled';
  return (
    <ConfirmDialog
      title={t(disabling ? 'admin.customers.disable.title' : 'admin.customers.enable.title')}
      message={t(disabling ? 'admin.customers.disable.text' : 'admin.customers.enable.text', { name })}
      confirmLabel={t(disabling ? 'admin.customers.disable.action' : 'admin.customers.enable.action')}
      danger={disabling}
      pending={change.pending}
      error={change.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        const result = await change.run({ userId, status: to, reason: reason.trim() });
        if (result)
          onDone(
            disabling
              ? t('admin.customers.disable.done', { count: result.revokedSessions })
              : t('admin.customers.enable.done'),
          );
      }}
    >
      <label className="field kit-field">
        <span className="field-label">{t('admin.customers.disable.reason')}</span>
        <input
          className="input"
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.target.value)}
          data-testid="status-reason"
        />
      </label>
    </ConfirmDialog>
  );
}

function SignOutDialog({
  userId,
  name,
  onClose,
  onDone,
}: {
  userId: string;
  name: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const signOut = useMutation('admincustomersignout');
  return (
    <ConfirmDialog
      title={t('admin.customers.signOut.title')}
      message={t('admin.customers.signOut.text', { name })}
      confirmLabel={t('admin.customers.signOut.action')}
      pending={signOut.pending}
      error={signOut.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        const result = await signOut.run({ userId });
        if (result) onDone(t('admin.customers.signOut.done', { count: result.revokedSessions }));
      }}
    />
  );
}
