import { Link } from 'react-router';
import { paths, wayIn } from '../../app/paths';
import { shippedOnly, type TUpcomingFeature } from '../../app/upcoming';
import { FlashPrice } from '../../components/FlashPrice';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { formatDecimal, useKlineColor } from '../../lib/market-format';
import { useQuotes } from '../../lib/market-stream';
import { useShell } from '../../lib/store';
import { HomeTicker } from './HomeTicker';

const ASSETS = [
  { key: 'forex', symbols: ['EUR/USD', 'GBP/USD', 'USD/JPY'], icon: 'exchange' },
  { key: 'metals', symbols: ['XAU/USD', 'XAG/USD'], icon: 'bolt' },
  { key: 'energy', symbols: ['WTI', 'BRENT'], icon: 'chart' },
  { key: 'indices', symbols: ['US500', 'NAS100', 'GER40'], icon: 'financial' },
  { key: 'crypto', symbols: ['BTC/USDT', 'ETH/USDT'], icon: 'wallet' },
] as const;

/** The features section: each card only once its feature has shipped (app/upcoming.ts). */
const FEATURES: readonly { key: string; icon: string; feature: TUpcomingFeature }[] = [
  { key: 'copy', icon: 'copy', feature: 'copyTrading' },
  { key: 'strategies', icon: 'bot', feature: 'strategies' },
  { key: 'contests', icon: 'trophy', feature: 'contests' },
  { key: 'news', icon: 'news', feature: 'news' },
];

const ACCOUNTS: readonly { key: string; feature?: TUpcomingFeature }[] = [
  { key: 'demo' },
  { key: 'experience' },
  { key: 'real' },
  { key: 'mt', feature: 'metaTrader' },
];
const TRUST = ['kyc', 'negative', 'security', 'support'] as const;

/** The instrument of the hero's terminal preview. */
const PREVIEW_SYMBOL = 'XAUUSD';
const PREVIEW_CANDLES = [38, 44, 41, 52, 49, 58, 55, 63, 60, 70, 66, 74, 71, 80, 77, 86];

/**
 * The hero's terminal preview: a drawn chart in the trader's kline colours (rise and fall) and the
 * instrument's live Sell (bid) and Buy (ask) prices from the market stream.
 */
function TerminalPreview() {
  const { t, intl } = useI18n();
  const klineColor = useKlineColor();
  const quote = useQuotes([PREVIEW_SYMBOL])[PREVIEW_SYMBOL];
  return (
    <div className="preview mk-scope" data-kline={klineColor} aria-hidden="true" data-testid="hero-preview">
      <div className="preview-bar">
        <span className="preview-dot" />
        <span className="preview-dot" />
        <span className="preview-dot" />
        <span className="preview-title">XAU/USD · H1</span>
      </div>
      <svg className="preview-chart" viewBox="0 0 320 150" preserveAspectRatio="none">
        <defs>
          <linearGradient id="pv-fill" x1="0" x2="0" y1="0" y2="1">
            <stop offset="0%" stopColor="var(--brand)" stopOpacity="0.35" />
            <stop offset="100%" stopColor="var(--brand)" stopOpacity="0" />
          </linearGradient>
        </defs>
        {[30, 60, 90, 120].map((y) => (
          <line key={y} x1="0" x2="320" y1={y} y2={y} stroke="var(--border)" strokeWidth="1" />
        ))}
        {PREVIEW_CANDLES.map((h, i) => {
          const x = 10 + i * 19;
          const rises = i === 0 || h >= (PREVIEW_CANDLES[i - 1] ?? 0);
          const colour = rises ? 'var(--rise)' : 'var(--fall)';
          const top = 150 - h - 10;
          return (
            <g key={x} data-candle={rises ? 'rise' : 'fall'}>
              <line x1={x + 5} x2={x + 5} y1={top - 8} y2={top + 26} stroke={colour} strokeWidth="1.5" />
              <rect x={x} y={top} width="10" height="18" rx="1.5" fill={colour} />
            </g>
          );
        })}
        <path
          d="M0 120 L40 110 L80 112 L120 96 L160 92 L200 78 L240 74 L280 60 L320 52 L320 150 L0 150Z"
          fill="url(#pv-fill)"
        />
      </svg>
      <div className="preview-ticket">
        {(['sell', 'buy'] as const).map((side) => {
          // Sell at the bid in the falling colour, buy at the ask in the rising one, as the terminal.
          const tone = side === 'sell' ? 'fall' : 'rise';
          const value = side === 'sell' ? quote?.bid : quote?.ask;
          return (
            <div key={side} data-testid={`hero-${side}`}>
              <span className="preview-label">{t(`home.preview.${side}`)}</span>
              {quote && value ? (
                <FlashPrice
                  value={value}
                  text={formatDecimal(intl, value, quote.digits)}
                  className={`preview-price ${tone}`}
                />
              ) : (
                <span className={`preview-price ${tone} num`}>—</span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function SectionHead({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div className="section-head">
      <h2>{title}</h2>
      {subtitle && <p>{subtitle}</p>}
    </div>
  );
}

export function HomePage() {
  const { t, lang, formatNumber } = useI18n();
  const { user } = useShell();
  // A visitor registers (and then lands on the demo account form); a trader goes to their accounts.
  const accountsPath = wayIn(lang, !!user);
  const features = shippedOnly(FEATURES);
  const accounts = shippedOnly(ACCOUNTS);
  return (
    <div className="home">
      <section className="hero">
        <div className="hero-inner">
          <div className="hero-copy">
            <span className="eyebrow">{t('home.hero.eyebrow')}</span>
            <h1>{t('home.hero.title')}</h1>
            <p className="hero-sub">{t('home.hero.subtitle')}</p>
            <div className="hero-cta">
              <Link to={accountsPath} className="btn btn-primary btn-lg" data-testid="hero-open-account">
                {t('home.hero.openAccount')}
              </Link>
              <Link to={accountsPath} className="btn btn-secondary btn-lg" data-testid="hero-try-demo">
                {t('home.hero.tryDemo', { amount: formatNumber(100_000) })}
              </Link>
            </div>
            <ul className="hero-points">
              {(['assets', 'leverage', 'protection'] as const).map((key) => (
                <li key={key}>
                  <Icon name="check" size={16} />
                  {t(`home.hero.point.${key}`)}
                </li>
              ))}
            </ul>
          </div>
          <TerminalPreview />
        </div>
      </section>

      <HomeTicker />

      <section className="section" id="markets">
        <SectionHead title={t('home.markets.title')} subtitle={t('home.markets.subtitle')} />
        <div className="asset-grid">
          {ASSETS.map((asset) => (
            <article key={asset.key} className="asset-card">
              <div className="asset-icon">
                <Icon name={asset.icon} size={22} />
              </div>
              <h3>{t(`home.markets.${asset.key}.title`)}</h3>
              <p>{t(`home.markets.${asset.key}.text`)}</p>
              <div className="asset-symbols">
                {asset.symbols.map((s) => (
                  <span key={s} className="badge">
                    {s}
                  </span>
                ))}
              </div>
            </article>
          ))}
        </div>
      </section>

      <section className="section section-alt">
        <SectionHead title={t('home.accounts.title')} subtitle={t('home.accounts.subtitle')} />
        <div className="account-grid">
          {accounts.map(({ key }) => (
            <article key={key} className={`account-card${key === 'real' ? ' featured' : ''}`}>
              <h3>{t(`home.accounts.${key}.title`)}</h3>
              <p className="account-figure">
                {t(`home.accounts.${key}.figure`, { amount: formatNumber(100_000), cap: formatNumber(100) })}
              </p>
              <p>{t(`home.accounts.${key}.text`)}</p>
            </article>
          ))}
        </div>
      </section>

      {features.length > 0 && (
        <section className="section" data-testid="home-features">
          <SectionHead title={t('home.features.title')} subtitle={t('home.features.subtitle')} />
          <div className="feature-grid">
            {features.map((feature) => (
              <article
                key={feature.key}
                className="feature-card"
                // The navigation's anchors to copy trading and strategies land on their cards.
                id={feature.feature === 'copyTrading' ? 'copy-trading' : feature.feature}
              >
                <div className="feature-icon">
                  <Icon name={feature.icon} size={24} />
                </div>
                <div>
                  <h3>{t(`home.features.${feature.key}.title`)}</h3>
                  <p>{t(`home.features.${feature.key}.text`)}</p>
                </div>
              </article>
            ))}
          </div>
        </section>
      )}

      <section className="section section-alt">
        <SectionHead title={t('home.trust.title')} />
        <div className="trust-grid">
          {TRUST.map((key) => (
            <div key={key} className="trust-item">
              <Icon
                name={
                  key === 'kyc'
                    ? 'shield'
                    : key === 'negative'
                      ? 'lock'
                      : key === 'security'
                        ? 'shield'
                        : 'user'
                }
                size={22}
              />
              <div>
                <h3>{t(`home.trust.${key}.title`)}</h3>
                <p>{t(`home.trust.${key}.text`)}</p>
              </div>
            </div>
          ))}
        </div>
      </section>

      <section className="section cta-band">
        <div className="cta-inner">
          <div>
            <h2>{t('home.cta.title')}</h2>
            <p>{t('home.cta.text')}</p>
          </div>
          <div className="cta-actions">
            <Link to={accountsPath} className="btn btn-primary btn-lg" data-testid="cta-open-account">
              {t('home.hero.openAccount')}
            </Link>
            <Link to={paths.qrcode(lang)} className="btn btn-secondary btn-lg">
              <Icon name="download" size={18} />
              {t('nav.download')}
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
