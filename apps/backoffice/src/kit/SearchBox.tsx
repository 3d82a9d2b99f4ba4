import { useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icon';

/**
 * A search field kept in the address: what is typed is applied 400 ms after the last keystroke
 * (`onChange` with the trimmed text, or null when empty), and a new `value` (Back, a link) shows in it.
 */
export function SearchBox({
  value,
  onChange,
  label,
  testId,
  className,
}: {
  value: string;
  onChange: (value: string | null) => void;
  /** The placeholder and the accessible name. */
  label: string;
  testId?: string;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const apply = useRef(onChange);
  apply.current = onChange;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => apply.current(text.trim() || null), 400);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <label className={className ? `kit-search ${className}` : 'kit-search'}>
      <Icon name="user" size={15} />
      <input
        className="input"
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={label}
        aria-label={label}
        maxLength={64}
        spellCheck={false}
        data-testid={testId}
      />
    </label>
  );
}
