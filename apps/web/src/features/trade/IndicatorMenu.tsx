import { useId, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { useDismiss } from '../../lib/use-dismiss';
import {
  defaultParams,
  INDICATOR_KINDS,
  INDICATOR_SPECS,
  paramsProblem,
  type TIndicator,
  type TIndicatorKind,
} from './indicators';

/** A parameter as typed: the reader's decimal comma is taken as a point. */
const readNumber = (text: string) =>
  text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));

/**
 * The chart toolbar's indicators menu: the indicators on the chart with their parameters (changed
 * as soon as they are valid) and a remove button each, and a list to add another. A disclosure: the
 * button toggles the panel, Escape or a click outside closes it and focus returns to the button.
 */
export function IndicatorMenu({
  indicators,
  onChange,
}: {
  indicators: readonly TIndicator[];
  onChange(next: TIndicator[]): void;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [adding, setAdding] = useState<TIndicatorKind>('sma');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  useDismiss(rootRef, open, close);

  return (
    <div className="tr-ind" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`tr-tf tr-ind-button${indicators.length ? ' active' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close() : setOpen(true))}
        data-testid="indicators-button"
      >
        {t('trade.indicators.button')}
        {indicators.length > 0 && <span className="num"> {indicators.length}</span>}
      </button>
      {open && (
        <section
          id={panelId}
          className="tr-ind-panel"
          aria-label={t('trade.indicators.title')}
          data-testid="indicators-panel"
        >
          <h2 className="tr-ind-title">{t('trade.indicators.title')}</h2>
          {indicators.length === 0 ? (
            <p className="tr-ind-empty">{t('trade.indicators.none')}</p>
          ) : (
            <ul className="tr-ind-list">
              {indicators.map((indicator, index) => (
                <IndicatorRow
                  // An indicator may be on the chart twice: rows are its place and kind (see IndicatorRow).
                  key={`${indicator.kind}-${index}`}
                  indicator={indicator}
                  onParams={(params) =>
                    onChange(indicators.map((item, i) => (i === index ? { ...item, params } : item)))
                  }
                  onRemove={() => onChange(indicators.filter((_, i) => i !== index))}
                />
              ))}
            </ul>
          )}
          <div className="tr-ind-add">
            <div className="tr-ind-pick">
              <label className="tr-ind-label" htmlFor={`${panelId}-kind`}>
                {t('trade.indicators.addLabel')}
              </label>
              <select
                id={`${panelId}-kind`}
                value={adding}
                onChange={(e) => setAdding(e.target.value as TIndicatorKind)}
                data-testid="indicators-kind"
              >
                {INDICATOR_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`trade.indicators.kind.${kind}`)}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => onChange([...indicators, { kind: adding, params: defaultParams(adding) }])}
              data-testid="indicators-add"
            >
              {t('trade.indicators.add')}
            </button>
          </div>
          <p className="tr-ind-note">{t('trade.indicators.saved')}</p>
        </section>
      )}
    </div>
  );
}

function IndicatorRow({
  indicator,
  onParams,
  onRemove,
}: {
  indicator: TIndicator;
  onParams(params: number[]): void;
  onRemove(): void;
}) {
  const { t, intl } = useI18n();
  const specs = INDICATOR_SPECS[indicator.kind].params;
  const [texts, setTexts] = useState(() => indicator.params.map((p) => formatDecimal(intl, String(p))));
  const values = texts.map(readNumber);
  // Another indicator moved into this row (one above was removed): show its parameters.
  const shown = indicator.params.join(',');
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    if (values.join(',') !== shown) setTexts(indicator.params.map((p) => formatDecimal(intl, String(p))));
  }
  const problem = paramsProblem(indicator.kind, values);
  const name = t(`trade.indicators.kind.${indicator.kind}`);
  const baseId = useId();

  const edit = (i: number, text: string) => {
    const next = texts.map((x, j) => (j === i ? text : x));
    setTexts(next);
    const typed = next.map(readNumber);
    if (!paramsProblem(indicator.kind, typed)) onParams(typed);
  };

  return (
    <li className="tr-ind-row" data-testid="indicator-row" data-kind={indicator.kind}>
      <div className="tr-ind-row-head">
        <span className="tr-ind-name">{name}</span>
        <button
          type="button"
          className="tr-ind-remove"
          aria-label={t('trade.indicators.remove', { name })}
          onClick={onRemove}
          data-testid="indicator-remove"
        >
          ×
        </button>
      </div>
      {specs.length > 0 && (
        <div className="tr-ind-params">
          {specs.map((spec, i) => {
            const id = `${baseId}-${spec.name}`;
            const wrong = problem === spec.name;
            return (
              <div key={spec.name} className="tr-ind-param">
                <label htmlFor={id}>{t(`trade.indicators.param.${spec.name}`)}</label>
                <input
                  id={id}
                  className="num"
                  inputMode="decimal"
                  value={texts[i] ?? ''}
                  onChange={(e) => edit(i, e.target.value)}
                  aria-invalid={wrong || undefined}
                  aria-describedby={wrong ? `${id}-error` : undefined}
                  data-testid={`indicator-param-${spec.name}`}
                />
                {wrong && (
                  <span id={`${id}-error`} className="tr-ind-error" role="alert">
                    {indicator.kind === 'macd' &&
                    spec.name === 'fast' &&
                    Number.isInteger(values[0]) &&
                    (values[0] as number) >= spec.min &&
                    (values[0] as number) <= spec.max
                      ? t('trade.indicators.fastSlow')
                      : t('trade.indicators.range', {
                          min: formatDecimal(intl, String(spec.min)),
                          max: formatDecimal(intl, String(spec.max)),
                        })}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      )}
    </li>
  );
}
