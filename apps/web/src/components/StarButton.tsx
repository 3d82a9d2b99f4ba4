import { useI18n } from '../lib/i18n';
import { Icon } from './Icon';

/** The favourite toggle of a symbol row (markets list, symbol page, the terminal's watchlist). */
export function StarButton({
  active,
  symbol,
  onToggle,
}: {
  active: boolean;
  symbol: string;
  onToggle(symbol: string): void;
}) {
  const { t } = useI18n();
  const label = t(active ? 'markets.favourite.remove' : 'markets.favourite.add');
  return (
    <button
      type="button"
      className={`mk-star${active ? ' active' : ''}`}
      aria-pressed={active}
      aria-label={`${label}: ${symbol}`}
      title={label}
      data-testid="favourite-toggle"
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onToggle(symbol);
      }}
    >
      <Icon name="star" size={16} />
    </button>
  );
}
