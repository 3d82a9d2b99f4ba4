import type { TKlineColor } from '@broker/domain/kline-color';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

/**
 * Shared state of the portal shell (spec 2.3 download-prompt flag, the signed-in user, the kline
 * colour the server rendered the page with).
 */
interface TShellState {
  user: { name: string } | null;
  device: 'mobile' | 'desktop';
  /** The kline colour of the server's render (cookie, else country default); see useKlineColor. */
  klineColor: TKlineColor;
  downloadPrompt: boolean;
  setDownloadPrompt(value: boolean): void;
  /** Shows a new display name (the trader changed their nick) without a reload. */
  rename(name: string): void;
  clear(): void;
}

const ShellContext = createContext<TShellState | null>(null);

export function ShellProvider({
  user: initialUser,
  device,
  klineColor,
  children,
}: {
  user: { name: string } | null;
  device: 'mobile' | 'desktop';
  klineColor: TKlineColor;
  children: ReactNode;
}) {
  const [user, setUser] = useState(initialUser);
  const [downloadPrompt, setDownloadPrompt] = useState(false);
  const value = useMemo<TShellState>(
    () => ({
      user,
      device,
      klineColor,
      downloadPrompt,
      setDownloadPrompt,
      rename: (name) => setUser((current) => (current ? { ...current, name } : current)),
      clear: () => {
        setUser(null);
        setDownloadPrompt(false);
      },
    }),
    [user, device, klineColor, downloadPrompt],
  );
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

export function useShell(): TShellState {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell outside ShellProvider');
  return value;
}
