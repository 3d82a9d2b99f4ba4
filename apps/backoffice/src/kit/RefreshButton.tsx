import { Icon } from '../components/Icon';

/** Asks a list again: an icon button that spins and waits while the list loads. */
export function RefreshButton({
  onRefresh,
  refreshing,
  label,
  className,
}: {
  onRefresh: () => void;
  refreshing: boolean;
  /** The accessible name and tooltip (the area's word for it). */
  label: string;
  /** The area's class beside the button's, for where it sits in its filters. */
  className?: string;
}) {
  return (
    <button
      type="button"
      className={`btn btn-secondary btn-sm${className ? ` ${className}` : ''}`}
      onClick={onRefresh}
      disabled={refreshing}
      aria-label={label}
      title={label}
    >
      <Icon name="refresh" size={14} className={refreshing ? 'bo-spin' : undefined} />
    </button>
  );
}
