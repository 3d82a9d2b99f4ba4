import {
  isLocaleCode,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  LOCALES,
} from '@broker/i18n/locales';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { switchLanguagePath } from '../app/paths';
import { writeCookie } from '../lib/cookies';
import { useI18n } from '../lib/i18n';
import { useDismiss } from '../lib/use-dismiss';
import { Icon } from './Icon';

/** Replaces the first path segment with the chosen language and reloads the same page (spec 2.3). */
export function LanguageSwitch() {
  const { t } = useI18n();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const pathLang = location.pathname.split('/')[1];
  const current = isLocaleCode(pathLang) ? LOCALES.find((l) => l.code === pathLang) : undefined;
  const label = current?.name ?? 'English';

  useDismiss(ref, open, () => setOpen(false));

  const choose = (code: string) => {
    writeCookie(LANGUAGE_COOKIE, code, LANGUAGE_COOKIE_MAX_AGE_SECONDS);
    window.location.assign(switchLanguagePath(location.pathname, code) + location.search + location.hash);
  };

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className="header-chip"
        aria-haspopup="true"
        aria-expanded={open}
        // The name starts with the visible language name (WCAG 2.5.3) and says what the button changes.
        aria-label={`${label} · ${t('header.language')}`}
        data-testid="language-switch"
        onClick={() => setOpen((v) => !v)}
      >
        <Icon name="globe" size={18} />
        <span className="header-chip-label">{label}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <ul className="dropdown-menu language-menu" aria-label={t('header.language')}>
          {LOCALES.map((locale) => (
            <li key={locale.code}>
              <button
                type="button"
                aria-current={locale.code === current?.code ? 'true' : undefined}
                lang={locale.iso}
                className="dropdown-item"
                data-lang={locale.code}
                onClick={() => choose(locale.code)}
              >
                <span>{locale.name}</span>
                {locale.code === current?.code && <Icon name="check" size={16} />}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
