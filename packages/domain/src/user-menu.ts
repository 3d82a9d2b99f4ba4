/**
 * Header user-menu commands (spec 2.3): 1 withdrawal, 2 deposit, 3 account (each in a new tab),
 * 4 nothing, 5 log out.
 */
export type TUserMenuAction =
  | { kind: 'openInNewTab'; section: 'withdrawal' | 'deposit' | 'account' }
  | { kind: 'none' }
  | { kind: 'logout' };

export function userMenuAction(command: number): TUserMenuAction {
  switch (command) {
    case 1:
      return { kind: 'openInNewTab', section: 'withdrawal' };
    case 2:
      return { kind: 'openInNewTab', section: 'deposit' };
    case 3:
      return { kind: 'openInNewTab', section: 'account' };
    case 5:
      return { kind: 'logout' };
    default:
      return { kind: 'none' };
  }
}

/** Where a page goes after logout (spec 4): personal-centre pages go to the language home, others stay. */
export function pathAfterLogout(pathname: string, lang: string): string {
  const rest = pathname.split('/').slice(2).join('/');
  return rest.startsWith('personalCenter') ? `/${lang}` : pathname;
}
