import { NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { GroupDetail } from './GroupDetail';
import { GroupsTab } from './GroupsTab';
import { HistoryTab } from './HistoryTab';
import { InstrumentsTab } from './InstrumentsTab';
import './market.css';

/**
 * Market configuration: the broker's instruments and their trading terms, account groups with their
 * overrides, and the history of every change (/admin/market, /groups, /groups/:id, /history).
 */
export function MarketPage() {
  const { t } = useI18n();
  const title = t('admin.menu.market');
  useDocumentTitle(title);
  const tabs = [
    { to: '/market', end: true, label: t('admin.market.tabs.instruments') },
    { to: '/market/groups', end: false, label: t('admin.market.tabs.groups') },
    { to: '/market/history', end: false, label: t('admin.market.tabs.history') },
  ];
  return (
    <div className="bo-page mk-page">
      <PageHeader title={title} description={t('admin.market.description')} />
      <nav className="kit-tabs mk-tabs" aria-label={t('admin.market.tabs.label')}>
        {tabs.map((tab) => (
          <NavLink key={tab.to} to={tab.to} end={tab.end} className="kit-tab" data-testid={`tab-${tab.to}`}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<InstrumentsTab />} />
        <Route path="groups" element={<GroupsTab />} />
        <Route path="groups/:groupId" element={<GroupDetail />} />
        <Route path="history" element={<HistoryTab />} />
        <Route path="*" element={<InstrumentsTab />} />
      </Routes>
    </div>
  );
}
