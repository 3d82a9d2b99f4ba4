import { useI18n } from '../../i18n';

export type TScope = 'real' | 'demo' | 'all';

/** A row of mutually exclusive buttons (scope, period, filter). */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  label: string;
  testId?: string;
}) {
  return (
    <div className="risk-seg" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          className="risk-seg-item"
          onClick={() => onChange(option.value)}
          data-value={option.value}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** Which accounts the figures cover: real money by default. */
export function ScopeSelect({ value, onChange }: { value: TScope; onChange: (scope: TScope) => void }) {
  const { t } = useI18n();
  return (
    <Segmented
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
