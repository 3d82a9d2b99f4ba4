import { Navigate, NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { useQuery } from '../../kit/useApi';
import { LeadersTab } from './LeadersTab';
import { RelationsTab } from './RelationsTab';
import { SettingsTab } from './SettingsTab';
import { SettlementsTab } from './SettlementsTab';
import './copy.css';

/**
 * Copy trading (/admin/copy): leader applications and leaders by state with their statistics, the
 * copy relations, the leaders' fee settlements and the broker's copy-trading rules.
 */
export function CopyPage() {
  const { t, formatNumber } = useI18n();
  const title = t('admin.menu.copy');
  useDocumentTitle(title);
  // How many applications wait for a decision, on the tab (one row asked for: only the counts matter).
  const waiting = useQuery('admincopyleaders', { status: 'pending', page: 1, size: 1 });
  const waitingCount = waiting.data?.counts.pending ?? 0;
  const tabs = [
    { to: '/copy', end: true, label: t('admin.copy.tabs.leaders'), count: waitingCount, id: 'leaders' },
    { to: '/copy/relations', end: false, label: t('admin.copy.tabs.relations'), count: 0, id: 'relations' },
    {
      to: '/copy/settlements',
      end: false,
      label: t('admin.copy.tabs.settlements'),
      count: 0,
      id: 'settlements',
    },
    { to: '/copy/settings', end: false, label: t('admin.copy.tabs.settings'), count: 0, id: 'settings' },
  ];
  return (
    <div className="bo-page cp-page">
      <PageHeader title={title} description={t('admin.module.copy.description')} />
      <nav className="kit-tabs cp-tabs" aria-label={title}>
        {tabs.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end={tab.end}
            className="kit-tab"
            data-testid={`copy-tab-${tab.id}`}
          >
            {tab.label}
            {tab.count > 0 ? (
              <>
                <span className="kit-count kit-count-warn" aria-hidden="true">
                  {formatNumber(tab.count)}
                </span>
                <span className="sr-only">{t('admin.copy.tabs.waiting', { count: tab.count })}</span>
              </>
            ) : null}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<LeadersTab onChanged={waiting.reload} />} />
        <Route path="relations" element={<RelationsTab />} />
        <Route path="settlements" element={<SettlementsTab />} />
        <Route path="settings" element={<SettingsTab />} />
        <Route path="*" element={<Navigate to="/copy" replace />} />
      </Routes>
    </div>
  );
}
