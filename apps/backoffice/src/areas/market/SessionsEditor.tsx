import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import type { TInstrumentForm, TProblems } from './form';
import { hhmm, PROBLEM_TEXT, weekdayNames } from './format';

type TDays = TInstrumentForm['days'];

const FULL = () => [{ from: '00:00', to: '24:00' }];
/** Presets brokers use most: around the clock, the forex week, weekdays only. */
const PRESETS: Record<'always' | 'forex' | 'weekdays', () => TDays> = {
  always: () => [0, 1, 2, 3, 4, 5, 6].map(FULL),
  forex: () => [
    [{ from: hhmm(22 * 60), to: '24:00' }],
    FULL(),
    FULL(),
    FULL(),
    FULL(),
    [{ from: '00:00', to: hhmm(22 * 60) }],
    [],
  ],
  weekdays: () => [[], FULL(), FULL(), FULL(), FULL(), FULL(), []],
};

/** Opening hours per weekday (UTC), several ranges a day; a day without ranges is closed. */
export function SessionsEditor({
  days,
  onChange,
  problems,
  weekProblem,
  disabled = false,
}: {
  days: TDays;
  onChange: (days: TDays) => void;
  problems: TProblems;
  weekProblem?: string | undefined;
  disabled?: boolean;
}) {
  const { t, intl } = useI18n();
  const names = weekdayNames(intl, 'long');
  const set = (day: number, ranges: TDays[number]) => onChange(days.map((r, d) => (d === day ? ranges : r)));
  return (
    <div className="mk-sessions" data-testid="sessions-editor">
      <div className="mk-sessions-tools">
        <span className="kit-hint">{t('admin.market.sessions.utc')}</span>
        <div className="kit-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={disabled}
            onClick={() => onChange(PRESETS.always())}
          >
            {t('admin.market.sessions.presetAlways')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={disabled}
            onClick={() => onChange(PRESETS.forex())}
          >
            {t('admin.market.sessions.presetForex')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={disabled}
            onClick={() => onChange(PRESETS.weekdays())}
          >
            {t('admin.market.sessions.presetWeekdays')}
          </button>
        </div>
      </div>
      <ul className="mk-days">
        {days.map((ranges, day) => {
          const problem = problems[`days.${day}`];
          return (
            <li key={day} className="mk-day" data-day={day}>
              <span className="mk-day-name">{names[day]}</span>
              <div className="mk-day-ranges">
                {ranges.length === 0 ? (
                  <span className="mk-day-closed">{t('admin.market.sessions.closed')}</span>
                ) : null}
                {ranges.map((range, index) => (
                  <span key={index} className="mk-range">
                    <input
                      className="input mk-time"
                      value={range.from}
                      inputMode="numeric"
                      placeholder="00:00"
                      disabled={disabled}
                      aria-invalid={Boolean(problem)}
                      aria-label={t('admin.market.sessions.from', { day: names[day] ?? '' })}
                      onChange={(e) =>
                        set(
                          day,
                          ranges.map((r, i) => (i === index ? { ...r, from: e.target.value } : r)),
                        )
                      }
                    />
                    <span aria-hidden="true">–</span>
                    <input
                      className="input mk-time"
                      value={range.to}
                      inputMode="numeric"
                      placeholder="24:00"
                      disabled={disabled}
                      aria-invalid={Boolean(problem)}
                      aria-label={t('admin.market.sessions.to', { day: names[day] ?? '' })}
                      onChange={(e) =>
                        set(
                          day,
                          ranges.map((r, i) => (i === index ? { ...r, to: e.target.value } : r)),
                        )
                      }
                    />
                    <button
                      type="button"
                      className="bo-iconbtn mk-range-remove"
                      disabled={disabled}
                      aria-label={t('admin.market.sessions.remove')}
                      onClick={() =>
                        set(
                          day,
                          ranges.filter((_, i) => i !== index),
                        )
                      }
                    >
                      <Icon name="close" size={14} />
                    </button>
                  </span>
                ))}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm mk-range-add"
                  disabled={disabled || ranges.length >= 6}
                  onClick={() =>
                    set(day, [...ranges, ranges.length === 0 ? FULL()[0]! : { from: '', to: '' }])
                  }
                >
                  {t('admin.market.sessions.add')}
                </button>
              </div>
              {problem ? (
                <span className="field-error mk-day-error" role="alert">
                  {t(PROBLEM_TEXT[problem])}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {weekProblem ? (
        <span className="field-error" role="alert">
          {weekProblem}
        </span>
      ) : null}
    </div>
  );
}
