import { type ReactNode, useId, useMemo } from 'react';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { decimalPlaces, parseNumber, type TParsedNumber, toInputText } from './decimal';
import {
  pointsText,
  stepVolume,
  stopProblem,
  type TSide,
  type TStop,
  type TVolumeProblem,
  type TVolumeSpec,
} from './ticket-rules';

/**
 * Numbers in the page's locale: `read` turns what the trader typed into a plain decimal string
 * (null when it is not a number), `input` shows a plain decimal as an input's text ("0,01" in
 * German), `ambiguity` is the message for a number that could be read two ways.
 */
export function useNumbers() {
  const { t, intl } = useI18n();
  return useMemo(() => {
    const parse = (text: string): TParsedNumber => parseNumber(text, intl);
    return {
      parse,
      read: (text: string): string | null => {
        const parsed = parse(text);
        return parsed.ok ? parsed.value : null;
      },
      input: (value: string) => toInputText(value, intl),
      ambiguity: (text: string): string | null => {
        const parsed = parse(text);
        return !parsed.ok && parsed.problem === 'ambiguous'
          ? t('trade.number.ambiguous', { example: formatDecimal(intl, '1.5') })
          : null;
      },
    };
  }, [t, intl]);
}

/** The translated reason a volume is refused, with the symbol's limits. */
export function useVolumeMessage() {
  const { t, intl } = useI18n();
  const numbers = useNumbers();
  /** `text`: what is typed in the volume field; `problem`: what volumeProblem found in it. */
  return (problem: TVolumeProblem | null, spec: TVolumeSpec, text?: string): string | null => {
    const ambiguity = text === undefined ? null : numbers.ambiguity(text);
    if (ambiguity) return ambiguity;
    if (!problem) return null;
    const lots = (value: string) => formatDecimal(intl, value);
    switch (problem) {
      case 'min':
        return t('trade.volume.min', { min: lots(spec.minVolume) });
      case 'max':
        return t('trade.volume.max', { max: lots(spec.maxVolume) });
      case 'step':
        return t('trade.volume.step', { step: lots(spec.volumeStep) });
      default:
        return t('trade.volume.format');
    }
  };
}

/** Why a take-profit or stop-loss is refused: "must be above 67,000.00" and the like. */
/** `distance`: the symbol's stops level in points (a stop nearer to the market is refused). */
export function useStopMessage(distance = 0) {
  const { t, intl } = useI18n();
  return (o: {
    side: TSide;
    stop: TStop;
    price: bigint | null;
    typed: boolean;
    reference: bigint | null;
    digits: number;
  }): string | null => {
    if (!o.typed) return null;
    if (o.price === null) return t('trade.price.format');
    if (o.reference === null) return null;
    if (!stopProblem(o.side, o.stop, o.price, o.reference, distance)) return null;
    const above = (o.side === 'buy') === (o.stop === 'takeProfit');
    // The nearest allowed price: the reference, moved away by the stops level.
    const gap = BigInt(Math.max(0, distance - 1));
    const bound = above ? o.reference + gap : o.reference - gap;
    const price = formatDecimal(intl, pointsText(bound, o.digits), o.digits);
    return t(above ? 'trade.stops.above' : 'trade.stops.below', { price });
  };
}

export function VolumeStepper({
  value,
  onChange,
  spec,
  label,
  error,
  testId,
  showLimits = true,
}: {
  value: string;
  onChange(value: string): void;
  spec: TVolumeSpec;
  label: string;
  error: string | null;
  testId: string;
  showLimits?: boolean;
}) {
  const { t, intl } = useI18n();
  const numbers = useNumbers();
  const id = useId();
  const lots = (v: string) => formatDecimal(intl, v);
  const step = (direction: 1 | -1) =>
    onChange(numbers.input(stepVolume(numbers.read(value), spec, direction)));
  return (
    <div className="tr-field">
      <label className="tr-label" htmlFor={id}>
        {label}
      </label>
      <div className={`tr-stepper${error ? ' invalid' : ''}`}>
        <button
          type="button"
          className="tr-step"
          aria-label={t('trade.volume.less')}
          onClick={() => step(-1)}
          data-testid={`${testId}-down`}
        >
          −
        </button>
        <input
          id={id}
          className="tr-input num"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
              e.preventDefault();
              step(e.key === 'ArrowUp' ? 1 : -1);
            }
          }}
          data-testid={testId}
        />
        <button
          type="button"
          className="tr-step"
          aria-label={t('trade.volume.more')}
          onClick={() => step(1)}
          data-testid={`${testId}-up`}
        >
          +
        </button>
      </div>
      {error ? (
        <span className="tr-error" role="alert">
          {error}
        </span>
      ) : (
        showLimits && (
          <span className="tr-hint num">
            {t('trade.volume.limits', {
              min: lots(spec.minVolume),
              step: lots(spec.volumeStep),
              max: lots(spec.maxVolume),
            })}
          </span>
        )
      )}
    </div>
  );
}

export function PriceInput({
  label,
  value,
  onChange,
  placeholder,
  error,
  hint,
  testId,
  onClear,
  suffix,
  action,
  digits,
}: {
  label: ReactNode;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  error?: string | null;
  hint?: ReactNode;
  testId: string;
  onClear?: () => void;
  suffix?: string;
  action?: ReactNode;
  /** A price's decimals: the field then shows how its text was understood ("= 74.000,00"). */
  digits?: number;
}) {
  const { t, intl } = useI18n();
  const numbers = useNumbers();
  const id = useId();
  const understood = digits === undefined ? null : numbers.read(value);
  return (
    <div className="tr-field">
      <div className="tr-label-row">
        <label className="tr-label" htmlFor={id}>
          {label}
        </label>
        {understood !== null && (
          <span className="tr-hint num" data-testid={`${testId}-understood`}>
            = {formatDecimal(intl, understood, Math.max(digits ?? 0, decimalPlaces(understood)))}
          </span>
        )}
        {action}
      </div>
      <div className={`tr-input-wrap${error ? ' invalid' : ''}`}>
        <input
          id={id}
          className="tr-input num"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
        {suffix && <span className="tr-suffix">{suffix}</span>}
        {onClear && value !== '' && (
          <button type="button" className="tr-clear" aria-label={t('trade.stops.clear')} onClick={onClear}>
            ×
          </button>
        )}
      </div>
      {error ? (
        <span className="tr-error" role="alert">
          {error}
        </span>
      ) : (
        hint && <span className="tr-hint num">{hint}</span>
      )}
    </div>
  );
}

/** A label and a figure, in the account bar, the ticket summary and the dialogs. */
export function Figure({
  label,
  children,
  tone = '',
  testId,
  value,
}: {
  label: string;
  children: ReactNode;
  tone?: string;
  testId?: string;
  value?: string;
}) {
  return (
    <div className="tr-figure">
      <dt>{label}</dt>
      <dd className={`num ${tone}`} data-testid={testId} data-value={value}>
        {children}
      </dd>
    </div>
  );
}
