import { Navigate, NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { ExposureTab } from './ExposureTab';
import { LevelsTab } from './LevelsTab';
import { MarginCallsTab } from './MarginCallsTab';
import { RoutingTab } from './RoutingTab';
import { TradersTab } from './TradersTab';
import './risk.css';

const TABS = [
  { to: '/risk', end: true, label: 'admin.risk.tabs.exposure' },
  { to: '/risk/traders', end: false, label: 'admin.risk.tabs.traders' },
  { to: '/risk/margin', end: false, label: 'admin.risk.tabs.margin' },
  { to: '/risk/routing', end: false, label: 'admin.risk.tabs.routing' },
  { to: '/risk/levels', end: false, label: 'admin.risk.tabs.levels' },
] as const;

/** Liquidity and risk: exposure, winners and losers, margin calls, A/B-book routing and levels. */
export function RiskPage() {
  const { t } = useI18n();
  const title = t('admin.menu.risk');
  useDocumentTitle(title);
  return (
    <div className="bo-page risk-page">
      <PageHeader title={title} description={t('admin.module.risk.description')} />
      <nav className="kit-tabs" aria-label={title}>
        {TABS.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end={tab.end}
            className="kit-tab risk-tab"
            data-testid={`risk-tab-${tab.to.split('/')[2] ?? 'exposure'}`}
          >
            {t(tab.label)}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<ExposureTab />} />
        <Route path="traders" element={<TradersTab />} />
        <Route path="margin" element={<MarginCallsTab />} />
        <Route path="routing" element={<RoutingTab />} />
        <Route path="levels" element={<LevelsTab />} />
        <Route path="*" element={<Navigate to="/risk" replace />} />
      </Routes>
    </div>
  );
}
