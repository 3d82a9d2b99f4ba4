import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from '../components/Icon';
import { useI18n } from '../i18n';

/**
 * A panel from the right edge (the whole width on a phone) for one item of a list. Escape, the scrim
 * and the close button call `onClose`; focus moves in when it opens, stays in while it is open (it is
 * modal) and goes back when it closes. A dialog opened over it handles its own keys.
 */
export function Drawer({
  title,
  subtitle,
  children,
  footer,
  onClose,
  testId,
  className,
  focusFirstField = false,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  testId?: string;
  /** An area's own class beside `kit-drawer`, for what it tunes inside (its code, its facts). */
  className?: string;
  /** A form drawer opens on its first field instead of the close button. */
  focusFirstField?: boolean;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves in once, when the drawer opens.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current
      ?.querySelector<HTMLElement>(
        focusFirstField ? 'input:not([disabled]), select, textarea, button' : '.kit-drawer-close',
      )
      ?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (document.querySelector('.kit-backdrop')) return;
      if (event.key === 'Escape') close.current();
      if (event.key !== 'Tab' || !box.current) return;
      const focusable = [
        ...box.current.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]',
        ),
      ];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('bo-noscroll');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('bo-noscroll');
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="kit-drawer-backdrop">
      <button
        type="button"
        className="kit-drawer-scrim"
        aria-label={t('admin.kit.close')}
        onClick={onClose}
      />
      <div
        ref={box}
        className={className ? `kit-drawer ${className}` : 'kit-drawer'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="kit-drawer-head">
          <div className="kit-drawer-title">
            <h2 id={titleId}>{title}</h2>
            {subtitle ? <div className="kit-drawer-sub">{subtitle}</div> : null}
          </div>
          <button
            type="button"
            className="bo-iconbtn kit-drawer-close"
            onClick={onClose}
            aria-label={t('admin.kit.close')}
          >
            <Icon name="close" size={16} />
          </button>
        </header>
        <div className="kit-drawer-body">{children}</div>
        {footer ? <footer className="kit-drawer-foot">{footer}</footer> : null}
      </div>
    </div>
  );
}

/** A titled block inside a drawer. */
export function DrawerSection({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className="kit-drawer-section" aria-labelledby={id} data-testid={testId}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** Label and value pairs; a third element `true` gives the pair the whole width. */
export function Facts({
  items,
  testId,
}: {
  items: readonly (readonly [string, ReactNode] | readonly [string, ReactNode, boolean] | null | false)[];
  testId?: string;
}) {
  return (
    <dl className="kit-facts" data-testid={testId}>
      {items.map((item) =>
        item ? (
          <div key={item[0]} className={item[2] ? 'kit-fact kit-fact-wide' : 'kit-fact'}>
            <dt>{item[0]}</dt>
            <dd>{item[1]}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
