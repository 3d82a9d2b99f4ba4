import { useI18n } from '../../i18n';
import { Segmented } from '../../kit/Segmented';

export type TScope = 'real' | 'demo' | 'all';

/** Which accounts the figures cover: real money by default. */
export function ScopeSelect({ value, onChange }: { value: TScope; onChange: (scope: TScope) => void }) {
  const { t } = useI18n();
  return (
    <Segmented
      classPrefix="risk-seg"
      value={value}
      onChange={onChange}
      label={t('admin.risk.scope.label')}
      testId="risk-scope"
      options={[
        { value: 'real', label: t('admin.risk.scope.real') },
        { value: 'demo', label: t('admin.risk.scope.demo') },
        { value: 'all', label: t('admin.risk.scope.all') },
      ]}
    />
  );
}
