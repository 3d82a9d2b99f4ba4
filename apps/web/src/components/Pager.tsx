import { useI18n } from '../lib/i18n';
import { Icon } from './Icon';

/**
 * "21–40 of 45" with previous and next page buttons. `name` prefixes the test ids (`history-pager`,
 * `financial-range`, ...); `className` adds the page's own spacing.
 */
export function Pager({
  page,
  size,
  total,
  onPage,
  name = 'history',
  className,
}: {
  page: number;
  size: number;
  total: number;
  onPage(page: number): void;
  name?: string;
  className?: string;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return (
    <nav
      className={className ? `hi-pager ${className}` : 'hi-pager'}
      aria-label={t('history.pager.label')}
      data-testid={`${name}-pager`}
    >
      <span className="hi-pager-range" data-testid={`${name}-range`}>
        {t('history.pager.range', { first, last, total })}
      </span>
      <div className="hi-pager-buttons">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          data-testid={`${name}-prev`}
        >
          <Icon name="arrowLeft" size={14} />
          {t('history.pager.previous')}
        </button>
        <span className="hi-pager-page">{t('history.pager.page', { page, pages })}</span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
          data-testid={`${name}-next`}
        >
          {t('history.pager.next')}
          <Icon name="chevronRight" size={14} />
        </button>
      </div>
    </nav>
  );
}
