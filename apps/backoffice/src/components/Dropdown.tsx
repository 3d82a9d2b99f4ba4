import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon';

export interface TDropdownOption<V extends string> {
  value: V;
  label: string;
  lead?: ReactNode;
}

interface TDropdownProps<V extends string> {
  /** Accessible name of the trigger, e.g. "Language". */
  label: string;
  value: V;
  options: readonly TDropdownOption<V>[];
  onChange(value: V): void;
  icon: string;
  /** Text next to the icon on the trigger; hidden on narrow screens. */
  triggerText?: string;
  align?: 'start' | 'end';
  className?: string;
}

/** A small single-choice menu: a button that opens a list of options. */
export function Dropdown<V extends string>({
  label,
  value,
  options,
  onChange,
  icon,
  triggerText,
  align = 'end',
  className,
}: TDropdownProps<V>) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    const selected = menuRef.current?.querySelector<HTMLElement>('[aria-checked="true"]');
    (selected ?? menuRef.current?.querySelector<HTMLElement>('[role="menuitemradio"]'))?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End')
      return;
    event.preventDefault();
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next = 0;
    if (event.key === 'ArrowDown') next = (index + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'End') next = items.length - 1;
    items[next]?.focus();
  };

  const choose = (next: V) => {
    setOpen(false);
    buttonRef.current?.focus();
    if (next !== value) onChange(next);
  };

  return (
    <div className={`bo-dropdown${className ? ` ${className}` : ''}`} ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="bo-iconbtn bo-dropdown-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={triggerText ? `${label}: ${triggerText}` : label}
        title={label}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name={icon} />
        {triggerText ? <span className="bo-dropdown-text">{triggerText}</span> : null}
        <Icon name="chevronDown" size={14} className="bo-dropdown-caret" />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          className={`bo-menu bo-menu-${align}`}
          onKeyDown={onMenuKey}
        >
          <div className="bo-menu-label">{label}</div>
          {options.map((option) => (
            <button
              key={option.value}
              type="button"
              role="menuitemradio"
              aria-checked={option.value === value}
              className="bo-menu-item"
              onClick={() => choose(option.value)}
            >
              {option.lead ? <span className="bo-menu-lead">{option.lead}</span> : null}
              <span className="bo-menu-text">{option.label}</span>
              {option.value === value ? <Icon name="check" size={16} className="bo-menu-check" /> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
