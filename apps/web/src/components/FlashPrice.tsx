import { useState } from 'react';
import { direction } from '../lib/market-format';

/**
 * A live price that flashes in the rise or fall colour when it changes (the colours follow the
 * user's kline colour through --rise and --fall). With `tone`, the text keeps the colour of the
 * last move.
 */
export function FlashPrice({
  value,
  text,
  tone = false,
  className = '',
}: {
  value: string;
  text: string;
  tone?: boolean;
  className?: string;
}) {
  const [previous, setPrevious] = useState(value);
  const [flash, setFlash] = useState<{ dir: 1 | -1; n: number } | null>(null);
  if (value !== previous) {
    const dir = direction(previous, value);
    setPrevious(value);
    if (dir !== 0) setFlash((f) => ({ dir, n: (f?.n ?? 0) + 1 }));
  }
  const name = flash ? (flash.dir > 0 ? 'rise' : 'fall') : '';
  // Two identical animations alternate so that every change restarts the flash.
  const flashClass = flash ? ` flash-${name}-${flash.n % 2}` : '';
  const toneClass = tone && flash ? ` ${name}` : '';
  return (
    <span
      className={`flash num${flashClass}${toneClass}${className ? ` ${className}` : ''}`}
      data-value={value}
    >
      {text}
    </span>
  );
}
