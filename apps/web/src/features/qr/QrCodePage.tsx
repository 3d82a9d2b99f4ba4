import { useEffect, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

/** Scan-to-phone page: a QR code of this portal in the current language. */
export function Component() {
  const { t, lang } = useI18n();
  const [svg, setSvg] = useState<string | null>(null);
  const [target, setTarget] = useState('');

  useEffect(() => {
    const url = `${window.location.origin}/${lang}`;
    setTarget(url);
    let cancelled = false;
    void import('qrcode').then((QRCode) =>
      QRCode.toString(url, {
        type: 'svg',
        margin: 1,
        errorCorrectionLevel: 'M',
        color: { dark: '#0b1530', light: '#ffffff' },
      }).then((markup) => {
        if (!cancelled) setSvg(markup);
      }),
    );
    return () => {
      cancelled = true;
    };
  }, [lang]);

  return (
    <section className="qr-page">
      <div className="qr-card card">
        <div className="qr-copy">
          <span className="eyebrow">{t('qr.eyebrow')}</span>
          <h1>{t('qr.title')}</h1>
          <p>{t('qr.text')}</p>
          <ol className="qr-steps">
            <li>{t('qr.step1')}</li>
            <li>{t('qr.step2')}</li>
            <li>{t('qr.step3')}</li>
          </ol>
        </div>
        <div className="qr-box" data-testid="qr-code">
          {svg ? (
            <div
              className="qr-svg"
              role="img"
              aria-label={t('qr.alt')}
              // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG produced locally by the qrcode library
              dangerouslySetInnerHTML={{ __html: svg }}
            />
          ) : (
            <div className="qr-svg skeleton" />
          )}
          <p className="qr-url num">{target || '\u00a0'}</p>
          <p className="qr-hint">
            <Icon name="phone" size={16} /> {t('qr.hint')}
          </p>
        </div>
      </div>
    </section>
  );
}
