import { useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../../i18n';
import { axisLabel, formatDay, niceTicks } from './format';

export type TTone = 'brand' | 'up' | 'down' | 'warning' | 'muted';

export interface TSeries {
  key: string;
  label: string;
  tone: TTone;
  values: readonly number[];
}

const TONE: Record<TTone, string> = {
  brand: 'var(--brand)',
  up: 'var(--up)',
  down: 'var(--down)',
  warning: 'var(--warning)',
  muted: 'var(--text-faint)',
};

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 52 };

/** The width of an element, followed as it changes. */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(200, Math.round(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A day chart drawn as SVG without a library: lines or (grouped) bars per UTC day. With `signed`,
 * bars above zero take the up colour and below zero the down colour. The picture is labelled and
 * summarised for screen readers, and a hidden table carries every value.
 */
export function DayChart({
  kind,
  title,
  days,
  series,
  format,
  signed = false,
  integer = false,
  testId,
}: {
  kind: 'line' | 'bar';
  title: string;
  days: readonly string[];
  series: readonly TSeries[];
  format: (value: number) => string;
  signed?: boolean;
  /** Whole-number values (people, deals): the axis steps by whole numbers. */
  integer?: boolean;
  testId?: string;
}) {
  const { t, intl } = useI18n();
  const titleId = useId();
  const descId = useId();
  const { ref, width } = useWidth<HTMLDivElement>(640);
  const [hover, setHover] = useState<number | null>(null);
  const n = days.length;
  const plotW = Math.max(1, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const all = series.flatMap((s) => s.values);
  const ticks = niceTicks(Math.min(0, ...all), Math.max(0, ...all), 4, integer);
  const low = ticks[0] ?? 0;
  const high = ticks.at(-1) ?? 1;
  const y = (v: number) => PAD.top + plotH - ((v - low) / (high - low || 1)) * plotH;
  const band = plotW / Math.max(1, n);
  const x = (i: number) => PAD.left + (i + 0.5) * band;
  const labelEvery = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 64))));
  const empty = all.every((v) => v === 0);
  const withYear = n > 0 && days[0]?.slice(0, 4) !== days.at(-1)?.slice(0, 4);

  const summary = series
    .map((s) => {
      const total = s.values.reduce((a, b) => a + b, 0);
      let peak = 0;
      s.values.forEach((v, i) => {
        if (Math.abs(v) > Math.abs(s.values[peak] ?? 0)) peak = i;
      });
      return t('admin.audit.chart.summary', {
        series: s.label,
        total: format(total),
        peak: format(s.values[peak] ?? 0),
        day: days[peak] ? formatDay(days[peak] as string, intl, true) : '',
      });
    })
    .join(' ');

  const onPointer = (event: React.PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * width;
    const index = Math.floor((px - PAD.left) / band);
    setHover(index >= 0 && index < n ? index : null);
  };

  const groupW = Math.max(1, Math.min(band * 0.72, 48));
  const barW = groupW / Math.max(1, series.length);
  const zeroY = y(0);

  return (
    <figure className="card audit-chart" data-testid={testId} data-kind={kind}>
      <figcaption className="audit-chart-head">
        <span id={titleId} className="audit-chart-title">
          {title}
        </span>
        <span className="audit-chart-legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.key} className="audit-legend-item">
              <span className="audit-swatch" style={{ background: signed ? TONE.up : TONE[s.tone] }} />
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={ref} className="audit-chart-plot">
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-labelledby={titleId}
          aria-describedby={descId}
          onPointerMove={onPointer}
          onPointerLeave={() => setHover(null)}
        >
          <desc id={descId}>{summary}</desc>
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={PAD.left}
                x2={width - PAD.right}
                y1={y(tick)}
                y2={y(tick)}
                className={tick === 0 ? 'audit-axis-zero' : 'audit-grid'}
              />
              <text
                x={PAD.left - 8}
                y={y(tick)}
                className="audit-tick"
                textAnchor="end"
                dominantBaseline="middle"
              >
                {axisLabel(tick, (ticks[1] ?? 1) - (ticks[0] ?? 0), intl)}
              </text>
            </g>
          ))}
          {days.map((day, i) =>
            i % labelEvery === 0 ? (
              <text key={day} x={x(i)} y={HEIGHT - 8} className="audit-tick" textAnchor="middle">
                {formatDay(day, intl, withYear && (i === 0 || day.endsWith('-01-01')))}
              </text>
            ) : null,
          )}
          {hover !== null ? (
            <rect
              x={PAD.left + hover * band}
              y={PAD.top}
              width={band}
              height={plotH}
              className="audit-hover-band"
            />
          ) : null}
          {kind === 'bar'
            ? series.map((s, si) =>
                s.values.map((v, i) => {
                  if (v === 0) return null;
                  const top = Math.min(y(v), zeroY);
                  const h = Math.max(1, Math.abs(y(v) - zeroY));
                  const fill = signed ? (v >= 0 ? TONE.up : TONE.down) : TONE[s.tone];
                  return (
                    <rect
                      key={`${s.key}-${days[i]}`}
                      x={x(i) - groupW / 2 + si * barW}
                      y={top}
                      width={Math.max(1, barW - (series.length > 1 ? 1 : 0))}
                      height={h}
                      rx={Math.min(3, barW / 3)}
                      fill={fill}
                    />
                  );
                }),
              )
            : series.map((s) => (
                <g key={s.key}>
                  <polyline
                    points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
                    fill="none"
                    stroke={TONE[s.tone]}
                    strokeWidth={2}
                    strokeLinejoin="round"
                    strokeLinecap="round"
                  />
                  {n <= 45 ? (
                    s.values.map((v, i) => (
                      <circle
                        key={days[i]}
                        cx={x(i)}
                        cy={y(v)}
                        r={hover === i ? 4 : 2.5}
                        fill={TONE[s.tone]}
                      />
                    ))
                  ) : hover !== null && s.values[hover] !== undefined ? (
                    <circle cx={x(hover)} cy={y(s.values[hover] ?? 0)} r={4} fill={TONE[s.tone]} />
                  ) : null}
                </g>
              ))}
        </svg>
        {empty ? <div className="audit-chart-empty">{t('admin.audit.chart.empty')}</div> : null}
        {hover !== null && days[hover] ? (
          <div
            className="audit-chart-tip"
            style={{
              left: Math.min(Math.max(x(hover), 80), width - 80),
            }}
            aria-hidden="true"
          >
            <strong>{formatDay(days[hover] as string, intl, true)}</strong>
            {series.map((s) => (
              <span key={s.key}>
                <span
                  className="audit-swatch"
                  style={{
                    background: signed ? ((s.values[hover] ?? 0) >= 0 ? TONE.up : TONE.down) : TONE[s.tone],
                  }}
                />
                {s.label}: {format(s.values[hover] ?? 0)}
              </span>
            ))}
          </div>
        ) : null}
      </div>
      <table className="audit-sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.audit.chart.day')}</th>
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, i) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {series.map((s) => (
                <td key={s.key}>{format(s.values[i] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
