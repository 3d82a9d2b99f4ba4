import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { callRoute } from '../lib/api';
import { useI18n } from '../lib/i18n';
import { useDismiss } from '../lib/use-dismiss';
import { Icon } from './Icon';

export interface TCountryOption {
  twoCharCode: string;
  code: string;
  codes: string[];
  nameEn: string;
  name: string;
  flag: string;
  group: string;
}

export interface TPhoneValue {
  twoCharCode: string;
  number: string;
}

let cache: Promise<TCountryOption[]> | null = null;

/** The calling-code list from the server, with names localized through Intl.DisplayNames. */
function loadCountries(lang: string, intl: string): Promise<TCountryOption[]> {
  cache ??= callRoute('countrylist', { list: lang.startsWith('zh') ? 'zh' : 'en' }, lang).then((answer) => {
    if (!answer.succeed || !answer.Data) {
      cache = null;
      throw new Error(answer.message);
    }
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([intl], { type: 'region' });
    } catch {
      names = null;
    }
    return answer.Data.flatMap((group) =>
      group.data.map((c) => ({
        twoCharCode: c.twoCharCode,
        code: c.code,
        codes: c.codes,
        nameEn: c.nameEn,
        name: names?.of(c.twoCharCode) ?? c.name,
        flag: c.flag,
        group: group.name,
      })),
    );
  });
  return cache;
}

/** "001787" -> "+1 787" for display. */
export function displayCode(code: string): string {
  const digits = code.replace(/^00/, '');
  return digits.length > 3 && digits.startsWith('1') ? `+1 ${digits.slice(1)}` : `+${digits}`;
}

/** Phone number input with a searchable calling-code picker grouped A to Z (spec 3). */
export function PhoneField({
  value,
  onChange,
  error,
  label,
}: {
  value: TPhoneValue;
  onChange(value: TPhoneValue): void;
  error?: string | undefined;
  label: string;
}) {
  const { t, lang, intl } = useI18n();
  const [countries, setCountries] = useState<TCountryOption[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const ref = useRef<HTMLDivElement>(null);
  const inputId = useId();

  useEffect(() => {
    loadCountries(lang, intl).then(setCountries, () => setFailed(true));
  }, [lang, intl]);

  useDismiss(ref, open, () => setOpen(false));

  const selected = countries?.find((c) => c.twoCharCode === value.twoCharCode);
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase().replace(/^\+/, '');
    const matches = (countries ?? []).filter(
      (c) =>
        !q ||
        c.name.toLowerCase().includes(q) ||
        c.nameEn.toLowerCase().includes(q) ||
        c.twoCharCode.toLowerCase() === q ||
        c.codes.some((code) => code.replace(/^00/, '').startsWith(q)),
    );
    const byGroup = new Map<string, TCountryOption[]>();
    for (const c of matches) byGroup.set(c.group, [...(byGroup.get(c.group) ?? []), c]);
    return [...byGroup.entries()];
  }, [countries, query]);

  return (
    <div className="field phone-field" ref={ref}>
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="phone-row">
        <button
          type="button"
          className="input phone-code"
          aria-haspopup="true"
          aria-expanded={open}
          aria-label={t('phone.chooseCountry')}
          data-testid="phone-country"
          onClick={() => setOpen((v) => !v)}
        >
          {selected ? (
            <>
              <img src={selected.flag} alt="" width={20} height={15} />
              <span className="num">{displayCode(selected.code)}</span>
            </>
          ) : (
            <span className="num">+</span>
          )}
          <Icon name="chevronDown" size={14} />
        </button>
        <input
          id={inputId}
          className="input"
          type="tel"
          name="phone"
          inputMode="tel"
          autoComplete="tel-national"
          value={value.number}
          aria-invalid={!!error}
          onChange={(e) => onChange({ ...value, number: e.target.value })}
        />
      </div>
      <span className="field-error">{error}</span>
      {open && (
        <div className="phone-picker dropdown-menu" data-testid="phone-picker">
          <div className="phone-search">
            <Icon name="search" size={16} />
            <input
              className="input"
              type="search"
              placeholder={t('phone.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="phone-list">
            {failed && <p className="phone-empty">{t('errors.network')}</p>}
            {!failed && !countries && <div className="spinner phone-spinner" />}
            {countries && groups.length === 0 && <p className="phone-empty">{t('phone.noMatch')}</p>}
            {groups.map(([letter, items]) => (
              <section key={letter}>
                <h5 className="phone-group">{letter}</h5>
                {items.map((c) => (
                  <button
                    key={c.twoCharCode}
                    type="button"
                    className="dropdown-item phone-option"
                    data-country={c.twoCharCode}
                    aria-current={c.twoCharCode === value.twoCharCode ? 'true' : undefined}
                    onClick={() => {
                      onChange({ ...value, twoCharCode: c.twoCharCode });
                      setOpen(false);
                      setQuery('');
                    }}
                  >
                    <img src={c.flag} alt="" width={20} height={15} loading="lazy" />
                    <span className="phone-option-name">{c.name}</span>
                    <span className="phone-option-code num">{displayCode(c.code)}</span>
                  </button>
                ))}
              </section>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
