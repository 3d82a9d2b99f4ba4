import { localeEntry } from '@broker/i18n/locales';
import { useI18n } from '../i18n';
import { ADMIN_LOCALES, ADMIN_THEMES } from '../lib/preferences';
import { useTheme } from '../theme';
import { Dropdown } from './Dropdown';

/** zh-CN / English, each in its own language. */
export function LanguageSwitch({ showText = true }: { showText?: boolean }) {
  const { locale, setLocale, t } = useI18n();
  const options = ADMIN_LOCALES.map((code) => ({
    value: code,
    label: localeEntry(code).name,
    lead: <span className="bo-lang-code">{code === 'en' ? 'EN' : '中'}</span>,
  }));
  return (
    <Dropdown
      label={t('admin.lang.label')}
      icon="globe"
      value={locale}
      options={options}
      onChange={setLocale}
      {...(showText ? { triggerText: localeEntry(locale).name } : {})}
      className="bo-lang-switch"
    />
  );
}

/** Navy, dark or white; each option shows a swatch drawn with that theme's own tokens. */
export function ThemeSwitch() {
  const { theme, setTheme } = useTheme();
  const { t } = useI18n();
  const options = ADMIN_THEMES.map((name) => ({
    value: name,
    label: t(`admin.theme.${name}`),
    lead: (
      <span className="bo-swatch" data-theme={name}>
        <span />
      </span>
    ),
  }));
  return (
    <Dropdown
      label={t('admin.theme.label')}
      icon="contrast"
      value={theme}
      options={options}
      onChange={setTheme}
    />
  );
}
