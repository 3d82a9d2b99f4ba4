import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';

/**
 * A modal dialog: focus moves into it and back, Escape and the backdrop close it (not while
 * `busy`), and the page behind does not scroll.
 */
export function Dialog({
  title,
  subtitle,
  onClose,
  busy = false,
  children,
  footer,
  testId,
  size = 'sm',
}: {
  title: string;
  subtitle?: ReactNode;
  onClose(): void;
  busy?: boolean;
  children?: ReactNode;
  footer: ReactNode;
  testId?: string;
  size?: 'sm' | 'md';
}) {
  const { t } = useI18n();
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const busyRef = useRef(busy);
  busyRef.current = busy;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first = panel?.querySelector<HTMLElement>('input:not([disabled]), [data-autofocus]');
    (first ?? panel)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busyRef.current) closeRef.current();
      if (event.key !== 'Tab' || !panel) return;
      const focusable = [
        ...panel.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled]), a[href]'),
      ];
      const head = focusable[0];
      const tail = focusable.at(-1);
      if (!head || !tail) return;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      before?.focus?.();
    };
  }, []);

  return createPortal(
    <div
      className="tr-dialog-backdrop"
      onPointerDown={(e) => e.target === e.currentTarget && !busy && onClose()}
    >
      <div
        ref={panelRef}
        className={`tr-dialog tr-dialog-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
      >
        <header className="tr-dialog-head">
          <div>
            <h2 id={titleId}>{title}</h2>
            {subtitle && <p className="tr-dialog-sub">{subtitle}</p>}
          </div>
          <button
            type="button"
            className="tr-icon-btn"
            aria-label={t('common.close')}
            onClick={onClose}
            disabled={busy}
          >
            <Icon name="close" size={16} />
          </button>
        </header>
        {children && <div className="tr-dialog-body">{children}</div>}
        <footer className="tr-dialog-foot">{footer}</footer>
      </div>
    </div>,
    document.body,
  );
}
