import { dateText } from '../lib/date-text';
import { useI18n } from '../lib/i18n';
import { formatDecimal } from '../lib/market-format';

/**
 * A line chart of a curve (a return index, a simulated balance, a backtest's equity): one SVG path
 * scaled to the points, a dashed line at the first value, the first and last day and the range beside
 * it. The values are parsed only to place the points; every figure shown is the server's string.
 * Styles: curve-chart.css.
 */
export function CurveChart({
  points,
  label,
  height = 180,
  compact = false,
  testId,
}: {
  points: { day: string; value: string }[];
  label: string;
  height?: number;
  compact?: boolean;
  testId?: string;
}) {
  const { t, intl } = useI18n();
  if (points.length < 2)
    return (
      <p className="ui-curve-empty" data-testid={testId}>
        {t('common.curve.empty')}
      </p>
    );
  const values = points.map((p) => Number(p.value));
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const width = 600;
  const pad = 6;
  const x = (i: number) => pad + (i * (width - 2 * pad)) / (points.length - 1);
  const y = (v: number) => pad + ((max - v) * (height - 2 * pad)) / span;
  const path = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const first = points[0] as { day: string; value: string };
  const last = points[points.length - 1] as { day: string; value: string };
  const rising = (values[values.length - 1] as number) >= (values[0] as number);
  const baseline = y(values[0] as number);
  const area = `${path} L${x(points.length - 1).toFixed(1)},${height - pad} L${pad},${height - pad} Z`;
  const minText = points[values.indexOf(min)]?.value ?? '';
  const maxText = points[values.indexOf(max)]?.value ?? '';
  const summary = t('common.curve.summary', {
    from: dateText(intl, first.day),
    to: dateText(intl, last.day),
    start: formatDecimal(intl, first.value),
    end: formatDecimal(intl, last.value),
  });
  return (
    <figure className="ui-curve" data-compact={compact ? 'true' : undefined} data-testid={testId}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}. ${summary}`}
        className="ui-curve-svg"
        data-trend={rising ? 'up' : 'down'}
      >
        <path d={area} className="ui-curve-area" />
        <line x1={pad} x2={width - pad} y1={baseline} y2={baseline} className="ui-curve-base" />
        <path d={path} className="ui-curve-line" vectorEffect="non-scaling-stroke" />
      </svg>
      {!compact && (
        <figcaption className="ui-curve-caption">
          <span>{dateText(intl, first.day)}</span>
          <span className="num">
            {t('common.curve.range', {
              min: formatDecimal(intl, minText),
              max: formatDecimal(intl, maxText),
            })}
          </span>
          <span>{dateText(intl, last.day)}</span>
        </figcaption>
      )}
    </figure>
  );
}
