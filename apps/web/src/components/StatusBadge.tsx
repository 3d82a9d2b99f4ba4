import type { ReactNode } from 'react';
import { Icon } from './Icon';

export type TStatusTone = 'good' | 'stopped' | 'waiting' | 'warning' | 'neutral';

const ICONS = {
  good: 'check',
  stopped: 'close',
  waiting: 'clock',
  warning: 'alert',
  neutral: 'alert',
} as const;

/**
 * A state word with an icon and a tone, so that it reads without colour: good (green), stopped (red),
 * waiting and warning (amber), neutral. Styles: status-badge.css.
 */
export function StatusBadge({
  tone,
  children,
  testId,
  state,
}: {
  tone: TStatusTone;
  children: ReactNode;
  testId?: string;
  state?: string;
}) {
  return (
    <span className="ui-status" data-tone={tone} data-testid={testId} data-state={state}>
      <Icon name={ICONS[tone]} size={14} />
      {children}
    </span>
  );
}
