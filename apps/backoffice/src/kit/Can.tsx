import type { ReactNode } from 'react';
import { useSession } from '../session';

/** Shows its children only to staff holding `permission` (the server refuses the call anyway). */
export function Can({ permission, children }: { permission: string; children: ReactNode }) {
  const { can } = useSession();
  return can(permission) ? children : null;
}
