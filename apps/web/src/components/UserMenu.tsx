import { pathAfterLogout, userMenuAction } from '@broker/domain/user-menu';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { callRoute } from '../lib/api';
import { removeCookie } from '../lib/cookies';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { useDismiss } from '../lib/use-dismiss';
import { Icon } from './Icon';

const COMMANDS = [
  { command: 1, key: 'header.user.withdrawal', icon: 'withdraw' },
  { command: 2, key: 'header.user.deposit', icon: 'deposit' },
  { command: 3, key: 'header.user.account', icon: 'wallet' },
  { command: 4, key: 'header.user.help', icon: 'doc' },
  { command: 5, key: 'header.user.logout', icon: 'logout' },
] as const;

/** Logout (spec 4): clear shared state, remove the token and user-info cookies, reload. */
export async function logout(lang: string, pathname: string, clear: () => void) {
  await callRoute('logout', {}, lang);
  clear();
  removeCookie('token');
  removeCookie('userInfo');
  const next = pathAfterLogout(pathname, lang);
  if (next === pathname) window.location.reload();
  else window.location.assign(next);
}

export function UserMenu({ name }: { name: string }) {
  const { t, lang } = useI18n();
  const shell = useShell();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useDismiss(ref, open, () => setOpen(false));

  const run = (command: number) => {
    const action = userMenuAction(command);
    setOpen(false);
    if (action.kind === 'logout') void logout(lang, location.pathname, shell.clear);
  };

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className="header-chip user-chip"
        aria-haspopup="true"
        aria-expanded={open}
        data-testid="user-menu"
        onClick={() => setOpen((v) => !v)}
      >
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        {/* A phone hides the name beside the avatar: the button is named by the hidden copy. */}
        <span className="header-chip-label user-name" aria-hidden="true">
          {name}
        </span>
        <span className="sr-only">{name}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <ul className="dropdown-menu user-dropdown">
          {COMMANDS.map((item) => {
            const action = userMenuAction(item.command);
            return (
              <li key={item.command}>
                {action.kind === 'openInNewTab' ? (
                  // Spec 2.3: commands 1 to 3 open the personal-centre page in a new tab. A real link
                  // (not window.open) so it can be middle-clicked, copied and announced as a link.
                  <a
                    href={`/${lang}/personalCenter/${action.section}`}
                    target="_blank"
                    rel="noopener"
                    className="dropdown-item"
                    data-command={item.command}
                    onClick={() => setOpen(false)}
                  >
                    <Icon name={item.icon} size={18} />
                    <span>{t(item.key)}</span>
                    <span className="sr-only"> ({t('header.user.newTab')})</span>
                  </a>
                ) : (
                  <button
                    type="button"
                    className={`dropdown-item${item.command === 5 ? ' danger' : ''}`}
                    data-command={item.command}
                    onClick={() => run(item.command)}
                  >
                    <Icon name={item.icon} size={18} />
                    <span>{t(item.key)}</span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
