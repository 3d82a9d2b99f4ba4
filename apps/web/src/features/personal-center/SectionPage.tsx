import { useMatches } from 'react-router';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { SECTION_ICONS } from './PersonalCenterLayout';
import { SectionHeader } from './SectionHeader';

type TSection = keyof typeof SECTION_ICONS;

/** Deposit, withdrawal, history, platform, setting and financial: filled in by their own features. */
export function Component() {
  const { t } = useI18n();
  const matches = useMatches();
  const section = ([...matches]
    .reverse()
    .map((m) => (m.handle as { section?: TSection } | undefined)?.section)
    .find(Boolean) ?? 'account') as TSection;
  return (
    <>
      <SectionHeader title={t(`pc.menu.${section}`)} subtitle={t(`pc.${section}.subtitle`)} />
      <div className="card" data-testid={`pc-section-${section}`}>
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name={SECTION_ICONS[section]} size={26} />
          </div>
          <h2>{t(`pc.${section}.emptyTitle`)}</h2>
          <p>{t(`pc.${section}.emptyText`)}</p>
        </div>
      </div>
    </>
  );
}
