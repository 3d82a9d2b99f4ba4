import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';

/**
 * A panel from the right edge for a long form (the whole width on a phone). Escape and the close
 * button call `onClose`; focus moves in when it opens and back when it closes.
 */
export function Drawer({
  title,
  subtitle,
  children,
  footer,
  onClose,
  testId,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      // A dialog opened over the drawer handles its own Escape.
      if (event.key === 'Escape' && !document.querySelector('.kit-backdrop')) close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="mk-drawer-backdrop">
      <button type="button" className="mk-drawer-scrim" aria-label={t('admin.kit.close')} onClick={onClose} />
      <div
        ref={box}
        className="mk-drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="mk-drawer-head">
          <div className="mk-drawer-title">
            <h2 id={titleId}>{title}</h2>
            {subtitle ? <div className="mk-drawer-sub">{subtitle}</div> : null}
          </div>
          <button type="button" className="bo-iconbtn" onClick={onClose} aria-label={t('admin.kit.close')}>
            <Icon name="close" size={16} />
          </button>
        </header>
        <div className="mk-drawer-body">{children}</div>
        {footer ? <footer className="mk-drawer-foot">{footer}</footer> : null}
      </div>
    </div>
  );
}
