import { Navigate, NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { useQuery } from '../../kit/useApi';
import { DepositsTab } from './DepositsTab';
import { ReconciliationTab } from './ReconciliationTab';
import { SettingsTab } from './SettingsTab';
import { WithdrawalsTab } from './WithdrawalsTab';
import './funding.css';

/**
 * Deposits and withdrawals (/admin/funding): the withdrawal review queue, every deposit, the
 * reconciliation of bank and chain payments with the daily provider report, and the funding settings.
 */
export function FundingPage() {
  const { t, formatNumber } = useI18n();
  const title = t('admin.menu.funding');
  useDocumentTitle(title);
  // How many withdrawals wait for a reviewer, on the tab (one row asked for: only the counts matter).
  const waiting = useQuery('adminfundingqueue', {
    kind: 'withdrawal',
    status: 'awaiting_review',
    page: 1,
    size: 1,
  });
  const waitingCount = waiting.data?.counts.awaiting_review ?? 0;
  const tabs = [
    {
      to: '/funding',
      end: true,
      label: t('admin.funding.tabs.withdrawals'),
      count: waitingCount,
      id: 'withdrawals',
    },
    {
      to: '/funding/deposits',
      end: false,
      label: t('admin.funding.tabs.deposits'),
      count: 0,
      id: 'deposits',
    },
    {
      to: '/funding/reconciliation',
      end: false,
      label: t('admin.funding.tabs.reconciliation'),
      count: 0,
      id: 'reconciliation',
    },
    {
      to: '/funding/settings',
      end: false,
      label: t('admin.funding.tabs.settings'),
      count: 0,
      id: 'settings',
    },
  ];
  return (
    <div className="bo-page fu-page">
      <PageHeader title={title} description={t('admin.module.funding.description')} />
      <nav className="kit-tabs fu-tabs" aria-label={title}>
        {tabs.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end={tab.end}
            className="kit-tab"
            data-testid={`funding-tab-${tab.id}`}
          >
            {tab.label}
            {tab.count > 0 ? (
              <>
                <span className="kit-count kit-count-warn" aria-hidden="true">
                  {formatNumber(tab.count)}
                </span>
                <span className="sr-only">{t('admin.funding.tabs.waiting', { count: tab.count })}</span>
              </>
            ) : null}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<WithdrawalsTab onChanged={waiting.reload} />} />
        <Route path="deposits" element={<DepositsTab />} />
        <Route path="reconciliation" element={<ReconciliationTab />} />
        <Route path="settings" element={<SettingsTab />} />
        <Route path="*" element={<Navigate to="/funding" replace />} />
      </Routes>
    </div>
  );
}
