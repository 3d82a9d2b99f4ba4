import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { FlashPrice } from '../../components/FlashPrice';
import { fetchData } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal, formatPercent, useKlineColor } from '../../lib/market-format';
import { type TNamedQuote, useMergedQuotes, useQuotes } from '../../lib/market-stream';

function TickerItems({ quotes, copy }: { quotes: TNamedQuote[]; copy: boolean }) {
  const { lang, intl } = useI18n();
  return (
    <ul className="ticker-group" aria-hidden={copy || undefined}>
      {quotes.map((quote) => (
        <li key={quote.symbol}>
          <Link
            to={paths.symbol(lang, quote.symbol)}
            className={`ticker-item${quote.status === 'closed' ? ' is-closed' : ''}`}
            tabIndex={copy ? -1 : undefined}
            title={quote.name}
            data-symbol={copy ? undefined : quote.symbol}
          >
            <span className="ticker-symbol">{quote.symbol}</span>
            <FlashPrice value={quote.bid} text={formatDecimal(intl, quote.bid, quote.digits)} tone />
            <span className={`ticker-change num ${changeClass(quote.change)}`}>
              {formatPercent(intl, quote.changePercent)}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The live ticker under the hero: the hot symbols, streamed, each linking to its symbol page. */
export function HomeTicker() {
  const { t, lang } = useI18n();
  const klineColor = useKlineColor();
  const [items, setItems] = useState<TNamedQuote[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    fetchData('currencyhot', {}, lang).then(
      (data) => !cancelled && setItems(data),
      () => !cancelled && setItems([]),
    );
    return () => {
      cancelled = true;
    };
  }, [lang]);

  const symbols = useMemo(() => (items ?? []).map((q) => q.symbol), [items]);
  const quotes = useMergedQuotes(items ?? [], useQuotes(symbols));
  if (items && items.length === 0) return null;

  return (
    <section
      className="ticker mk-scope"
      data-kline={klineColor}
      aria-label={t('home.ticker.label')}
      data-testid="home-ticker"
    >
      <div className="ticker-viewport">
        {items === null ? (
          <ul className="ticker-group" aria-hidden="true">
            {Array.from({ length: 8 }, (_, i) => (
              <li key={i} className="ticker-item">
                <span className="skeleton ticker-skeleton" />
              </li>
            ))}
          </ul>
        ) : (
          <div className="ticker-track">
            <TickerItems quotes={quotes} copy={false} />
            <TickerItems quotes={quotes} copy />
          </div>
        )}
      </div>
      <Link to={paths.markets(lang)} className="ticker-all">
        {t('home.ticker.all')}
      </Link>
    </section>
  );
}
