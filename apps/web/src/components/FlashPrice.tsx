import { useEffect, useRef, useState } from 'react';
import { direction } from '../lib/market-format';

/** How long a changed price keeps its tint. */
export const FLASH_MS = 700;

/**
 * A live price that flashes in the rise or fall colour when it changes (the colours follow the
 * user's kline colour through --rise and --fall). With `tone`, the text keeps the colour of the
 * last move.
 *
 * The flash is a tint switched on and, `FLASH_MS` later, off again on the element itself: two
 * repaints of one cell per change, and no React render to end it. A fading animation repainted the
 * cell on every frame while prices streamed (issue 21, item 14: a third of the home page's main
 * thread at 4× CPU throttling), and an opacity fade gave every cell a compositor layer of its own.
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
  const [move, setMove] = useState<{ dir: 1 | -1; n: number } | null>(null);
  if (value !== previous) {
    const dir = direction(previous, value);
    setPrevious(value);
    if (dir !== 0) setMove((m) => ({ dir, n: (m?.n ?? 0) + 1 }));
  }
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!move || !element) return;
    const name = move.dir > 0 ? 'flash-rise' : 'flash-fall';
    element.classList.remove('flash-rise', 'flash-fall');
    element.classList.add(name);
    const timer = window.setTimeout(() => element.classList.remove(name), FLASH_MS);
    return () => window.clearTimeout(timer);
  }, [move]);
  const toneClass = tone && move ? (move.dir > 0 ? ' rise' : ' fall') : '';
  return (
    <span ref={ref} className={`flash num${toneClass}${className ? ` ${className}` : ''}`} data-value={value}>
      {text}
    </span>
  );
}
