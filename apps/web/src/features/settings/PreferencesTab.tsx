import { KlineColor, type TKlineColor } from '@broker/domain/kline-color';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { adoptStoredAppearance, showAppearance, THEMES, type TTheme } from '../../lib/appearance';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { SettingsCard, SwitchRow } from './controls';
import {
  DISPLAY_KEYS,
  NOTIFICATION_KEYS,
  patchOf,
  rollBack,
  settingValue,
  type TChange,
  type TSettings,
  withChange,
} from './preference-change';
import { useSettingsCall } from './settings-api';

type TLoad = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready' };
type TSaveState = { status: 'idle' | 'saving' | 'saved' } | { status: 'failed'; message: string };

/** Theme, chart colours, notifications and display: each change is shown and saved at once. */
export function Component() {
  const { t } = useI18n();
  const call = useSettingsCall();
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [settings, setSettings] = useState<TSettings | null>(null);
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  // The latest settings for the save callbacks, which finish after later renders.
  const latest = useRef<TSettings | null>(null);
  const pending = useRef(0);
  const [toastVisible, setToastVisible] = useState(false);

  // "Saving…" shows while a change is on its way, "saved" a moment after the last one.
  useEffect(() => {
    if (save.status === 'saving') setToastVisible(true);
    if (save.status === 'idle' || save.status === 'failed') setToastVisible(false);
    if (save.status !== 'saved') return;
    const timer = setTimeout(() => setToastVisible(false), 2500);
    return () => clearTimeout(timer);
  }, [save]);

  const show = useCallback((next: TSettings) => {
    latest.current = next;
    setSettings(next);
  }, []);

  const fetchSettings = useCallback(async () => {
    setLoad({ status: 'loading' });
    const answer = await call('settings', {});
    if (!answer.succeed || !answer.Data) {
      setLoad({ status: 'failed', message: failureText(answer, t) });
      return;
    }
    show(answer.Data);
    adoptStoredAppearance(answer.Data);
    setLoad({ status: 'ready' });
  }, [call, t, show]);

  useEffect(() => {
    void fetchSettings();
  }, [fetchSettings]);

  const change = async (next: TChange) => {
    const current = latest.current;
    if (!current || settingValue(current, next) === next.value) return;
    const previous = settingValue(current, next);
    show(withChange(current, next));
    showAppearanceOf(next);
    pending.current += 1;
    setSave({ status: 'saving' });
    const answer = await call('savesettings', patchOf(next));
    pending.current -= 1;
    if (answer.succeed && answer.Data) {
      showAppearanceOf(next, true);
      // Later changes may still be on their way: only the last answer is the whole truth.
      if (pending.current === 0) show(answer.Data);
      setSave((s) => (s.status === 'failed' ? s : { status: pending.current ? 'saving' : 'saved' }));
      return;
    }
    const now = latest.current ?? current;
    const restored = rollBack(now, next, previous);
    if (restored !== now) {
      show(restored);
      showAppearanceOf({ ...next, value: previous } as TChange);
    }
    setSave({ status: 'failed', message: failureText(answer, t) });
  };

  if (load.status === 'loading' || (load.status === 'ready' && !settings)) return <PreferencesSkeleton />;
  if (load.status === 'failed' || !settings) {
    return (
      <div className="card" data-testid="settings-load-error">
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name="alert" size={26} />
          </div>
          <h3>{t('settings.loadFailed')}</h3>
          <p>{load.status === 'failed' ? load.message : ''}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void fetchSettings()}>
            {t('common.retry')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="st-stack" data-testid="preferences">
      {/* Autosave status, fixed at the bottom so it is seen wherever the trader scrolled to. */}
      <div
        className="st-toast"
        aria-live="polite"
        data-testid="save-status"
        data-status={save.status}
        data-visible={toastVisible || save.status === 'failed'}
        data-tone={save.status === 'failed' ? 'error' : 'info'}
      >
        {save.status === 'saving' && (
          <>
            <span className="spinner st-spinner-sm" /> {t('settings.saving')}
          </>
        )}
        {save.status === 'saved' && (
          <>
            <Icon name="check" size={16} /> {t('settings.saved')}
          </>
        )}
        {save.status === 'failed' && (
          <>
            <span role="alert" data-testid="save-error">
              {t('settings.saveFailed', { reason: save.message })}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={t('common.close')}
              onClick={() => setSave({ status: 'idle' })}
            >
              <Icon name="close" size={16} />
            </button>
          </>
        )}
      </div>

      <SettingsCard title={t('settings.theme.title')} text={t('settings.theme.text')}>
        <div className="st-choices st-choices-3" role="radiogroup" aria-label={t('settings.theme.title')}>
          {THEMES.map((theme) => (
            <ThemeChoice
              key={theme}
              theme={theme}
              checked={settings.theme === theme}
              onSelect={() => void change({ field: 'theme', value: theme })}
            />
          ))}
        </div>
      </SettingsCard>

      <SettingsCard title={t('settings.kline.title')} text={t('settings.kline.text')}>
        <div className="st-choices" role="radiogroup" aria-label={t('settings.kline.title')}>
          {([KlineColor.GREEN_UP, KlineColor.RED_UP] as const).map((kline) => (
            <label key={kline} className="st-choice" data-testid={`kline-${kline}`}>
              <input
                type="radio"
                name="klineColor"
                className="st-radio"
                checked={settings.klineColor === kline}
                onChange={() => void change({ field: 'klineColor', value: kline })}
              />
              <CandlePreview klineColor={kline} />
              <span className="st-choice-label">
                {t(kline === KlineColor.RED_UP ? 'settings.kline.redUp' : 'settings.kline.greenUp')}
              </span>
            </label>
          ))}
        </div>
      </SettingsCard>

      <SettingsCard title={t('settings.notification.title')} text={t('settings.notification.text')}>
        <div className="st-rows">
          {NOTIFICATION_KEYS.map((key) => (
            <SwitchRow
              key={key}
              label={t(`settings.notification.${key}`)}
              hint={t(`settings.notification.${key}Hint`)}
              checked={settings.notification[key]}
              testId={`notification-${key}`}
              onChange={(value) => void change({ field: 'notification', key, value })}
            />
          ))}
        </div>
      </SettingsCard>

      <SettingsCard title={t('settings.display.title')} text={t('settings.display.text')}>
        <div className="st-rows">
          {DISPLAY_KEYS.map((key) => (
            <SwitchRow
              key={key}
              label={t(`settings.display.${key}`)}
              hint={t(`settings.display.${key}Hint`)}
              checked={settings.display[key]}
              testId={`display-${key}`}
              onChange={(value) => void change({ field: 'display', key, value })}
            />
          ))}
        </div>
      </SettingsCard>
    </div>
  );
}

/** Theme and kline colour are visible on every page: show them here and in the other tabs. */
function showAppearanceOf(change: TChange, saved = false) {
  if (change.field === 'theme') showAppearance({ theme: change.value }, { saved });
  if (change.field === 'klineColor') showAppearance({ klineColor: change.value }, { saved });
}

function ThemeChoice({ theme, checked, onSelect }: { theme: TTheme; checked: boolean; onSelect(): void }) {
  const { t } = useI18n();
  return (
    <label className="st-choice" data-testid={`theme-${theme}`}>
      <input type="radio" name="theme" className="st-radio" checked={checked} onChange={onSelect} />
      {/* The swatch carries the theme's own attribute, so it shows that theme's tokens. */}
      <span className="st-swatch" data-theme={theme} aria-hidden="true">
        <span className="st-swatch-bar" />
        <span className="st-swatch-body">
          <span className="st-swatch-card">
            <span className="st-swatch-line" />
            <span className="st-swatch-line short" />
          </span>
          <span className="st-swatch-accent" />
        </span>
      </span>
      <span className="st-choice-label">{t(`settings.theme.${theme}`)}</span>
    </label>
  );
}

/** A short run of candles, mostly rising, in the colours the choice gives them. */
const PREVIEW_CANDLES = [
  { open: 44, close: 36, high: 32, low: 48 },
  { open: 36, close: 40, high: 33, low: 44 },
  { open: 40, close: 30, high: 26, low: 42 },
  { open: 30, close: 22, high: 18, low: 33 },
  { open: 22, close: 27, high: 19, low: 31 },
  { open: 27, close: 16, high: 12, low: 29 },
  { open: 16, close: 10, high: 6, low: 19 },
] as const;

function CandlePreview({ klineColor }: { klineColor: TKlineColor }) {
  const rise = klineColor === KlineColor.RED_UP ? 'var(--down)' : 'var(--up)';
  const fall = klineColor === KlineColor.RED_UP ? 'var(--up)' : 'var(--down)';
  return (
    <svg className="st-candles" viewBox="6 2 124 52" aria-hidden="true">
      {PREVIEW_CANDLES.map((c, i) => {
        const x = 12 + i * 18;
        const color = c.close < c.open ? rise : fall;
        const top = Math.min(c.open, c.close);
        return (
          <g key={x} stroke={color} fill={color}>
            <line x1={x + 4} x2={x + 4} y1={c.high} y2={c.low} strokeWidth="1.5" />
            <rect x={x} y={top} width="8" height={Math.max(2, Math.abs(c.open - c.close))} rx="1.5" />
          </g>
        );
      })}
    </svg>
  );
}

function PreferencesSkeleton() {
  const { t } = useI18n();
  return (
    <div className="st-stack" aria-busy="true" data-testid="settings-loading">
      <span className="st-sr-only">{t('settings.loading')}</span>
      {[3, 2, 4].map((rows, i) => (
        <div key={`${rows}-${i}`} className="card st-card">
          <div className="skeleton st-skeleton-title" />
          <div className="skeleton st-skeleton-text" />
          {Array.from({ length: rows }, (_, row) => (
            <div key={row} className="skeleton st-skeleton-row" />
          ))}
        </div>
      ))}
    </div>
  );
}
