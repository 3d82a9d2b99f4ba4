import { useEffect } from 'react';
import { Link, useMatches } from 'react-router';
import { paths } from '../app/paths';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { Icon } from './Icon';

const DISMISSED_KEY = 'download-prompt-dismissed';

/**
 * The app download prompt, driven by the shared download-prompt flag (spec 2.3); offered on mobile.
 * A page whose route says `downloadPrompt: false` (the terminal: the prompt would cover the chart's
 * time axis and the order buttons) does not show it; the flag stays set for the next page.
 */
export function DownloadPrompt() {
  const { t, lang } = useI18n();
  const { downloadPrompt, setDownloadPrompt, device } = useShell();
  const matches = useMatches();
  const allowed = !matches.some(
    (match) => (match.handle as { downloadPrompt?: boolean } | undefined)?.downloadPrompt === false,
  );
  useEffect(() => {
    if (device === 'mobile' && !window.localStorage.getItem(DISMISSED_KEY)) setDownloadPrompt(true);
  }, [device, setDownloadPrompt]);
  // The server renders no prompt, so its messages are not among those the page inlines: it waits
  // for the whole catalog (an empty title reads "not here yet"), instead of showing empty and then
  // growing when the text arrives (a layout shift of 0.014 on a phone's markets page).
  if (!downloadPrompt || !allowed || !t('download.promptTitle')) return null;
  const dismiss = () => {
    window.localStorage.setItem(DISMISSED_KEY, '1');
    setDownloadPrompt(false);
  };
  return (
    <aside className="download-prompt" data-testid="download-prompt">
      <Icon name="phone" size={22} />
      <div className="download-prompt-text">
        <strong>{t('download.promptTitle')}</strong>
        <span>{t('download.promptText')}</span>
      </div>
      <Link className="btn btn-primary btn-sm" to={paths.qrcode(lang)} onClick={dismiss}>
        {t('download.get')}
      </Link>
      <button type="button" className="icon-button" aria-label={t('common.close')} onClick={dismiss}>
        <Icon name="close" size={18} />
      </button>
    </aside>
  );
}
