import { changedKeys } from '@broker/domain/market/market-config';
import { useI18n } from '../../i18n';
import { FIELD_LABEL, formatValue } from './format';

/**
 * "Field: before → after" for every key whose value differs. For a group's overrides an absent key
 * reads as "inherits" with the instrument's value from `inherited`.
 */
export function ChangeList({
  before,
  after,
  inherited,
  defaultLeverage,
  testId,
}: {
  before: object | null;
  after: object | null;
  inherited?: object | undefined;
  defaultLeverage?: number | undefined;
  testId?: string;
}) {
  const { t, intl } = useI18n();
  const b = before as Record<string, unknown> | null;
  const a = after as Record<string, unknown> | null;
  const base = inherited as Record<string, unknown> | undefined;
  const keys = changedKeys(b, a);
  const context = { intl, t, defaultLeverage };
  const label = (key: string) => (FIELD_LABEL[key] ? t(FIELD_LABEL[key]) : key);
  const show = (key: string, value: unknown) =>
    value === undefined && base
      ? t('admin.market.value.inherits', { value: formatValue(key, base[key], context) })
      : formatValue(key, value, context);
  if (keys.length === 0) return <p className="kit-hint">{t('admin.market.changes.none')}</p>;
  return (
    <dl className="mk-changes" data-testid={testId}>
      {keys.map((key) => (
        <div key={key} className="mk-change" data-key={key}>
          <dt>{label(key)}</dt>
          <dd>
            <span className="mk-before">{show(key, b?.[key])}</span>
            <span className="mk-arrow" role="img" aria-label={t('admin.market.changes.to')}>
              →
            </span>
            <span className="mk-after">{show(key, a?.[key])}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
