/** Inline stroke icons (24px grid), so no icon font or request is needed. */
const PATHS: Record<string, string> = {
  globe:
    'M12 3a9 9 0 100 18 9 9 0 000-18zm0 0c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9m0-18C9.5 5.6 8.2 8.6 8.2 12s1.3 6.4 3.8 9M3.5 9h17M3.5 15h17',
  chevronDown: 'M6 9l6 6 6-6',
  chevronRight: 'M9 6l6 6-6 6',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 8a7 7 0 0114 0',
  wallet: 'M3 7a2 2 0 012-2h12v4M3 7v10a2 2 0 002 2h14V9H5a2 2 0 01-2-2zm13 6h.01',
  deposit: 'M12 4v12m0 0l-4-4m4 4l4-4M5 20h14',
  withdraw: 'M12 20V8m0 0l-4 4m4-4l4 4M5 4h14',
  history: 'M3 12a9 9 0 109-9 9 9 0 00-6.4 2.6L3 8m0-5v5h5m4-1v5l3 2',
  platform: 'M3 5h18v11H3zM8 20h8m-4-4v4',
  settings:
    'M12 15a3 3 0 100-6 3 3 0 000 6zm7.4-3a7.4 7.4 0 00-.1-1.3l2-1.6-2-3.4-2.4 1a7.3 7.3 0 00-2.2-1.3L14.3 3h-4l-.4 2.4a7.3 7.3 0 00-2.2 1.3l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 000 2.6l-2 1.6 2 3.4 2.4-1a7.3 7.3 0 002.2 1.3l.4 2.4h4l.4-2.4a7.3 7.3 0 002.2-1.3l2.4 1 2-3.4-2-1.6c.1-.4.1-.9.1-1.3z',
  financial: 'M4 20V10m6 10V4m6 16v-7m4 7H2',
  logout: 'M15 12H4m0 0l4-4m-4 4l4 4M14 4h5a1 1 0 011 1v14a1 1 0 01-1 1h-5',
  menu: 'M4 7h16M4 12h16M4 17h16',
  close: 'M6 6l12 12M18 6L6 18',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  copy: 'M16 17a4 4 0 10-8 0m12 3a3 3 0 00-3-3m-10 3a3 3 0 013-3m3-5a3 3 0 100-6 3 3 0 000 6zm6-1a2.5 2.5 0 100-5m-12 5a2.5 2.5 0 110-5',
  bot: 'M12 3v3m-6 3h12a2 2 0 012 2v6a2 2 0 01-2 2H6a2 2 0 01-2-2v-6a2 2 0 012-2zm3 4h.01M15 13h.01M9 16h6',
  trophy: 'M8 4h8v5a4 4 0 01-8 0zm0 2H5a3 3 0 003 3m8-3h3a3 3 0 01-3 3m-4 4v4m-4 3h8',
  news: 'M4 5h13v14H6a2 2 0 01-2-2zm13 4h3v8a2 2 0 01-2 2M8 9h5m-5 4h5m-5 4h3',
  exchange: 'M4 8h13l-3-3m6 11H7l3 3',
  bolt: 'M13 3L5 13h6l-1 8 8-10h-6z',
  lock: 'M6 11h12v9H6zm2 0V8a4 4 0 018 0v3',
  chart: 'M4 19l5-6 4 3 7-9',
  phone: 'M8 3h8a1 1 0 011 1v16a1 1 0 01-1 1H8a1 1 0 01-1-1V4a1 1 0 011-1zm3 15h2',
  qr: 'M4 4h6v6H4zm10 0h6v6h-6zM4 14h6v6H4zm10 0h2v2h-2zm4 0h2v2h-2zm-4 4h2v2h-2zm4 0h2v2h-2z',
  search: 'M11 18a7 7 0 100-14 7 7 0 000 14zm10 3l-5-5',
  plus: 'M12 5v14M5 12h14',
  check: 'M5 12l5 5 9-10',
  alert: 'M12 8v5m0 3h.01M10.3 3.9L2.6 17.5A2 2 0 004.3 20.5h15.4a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z',
  home: 'M3 11l9-7 9 7v9a1 1 0 01-1 1h-5v-6h-6v6H4a1 1 0 01-1-1z',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 3a3 3 0 100-6 3 3 0 000 6z',
  eyeOff:
    'M3 3l18 18M10.6 10.6a2 2 0 002.8 2.8M9.9 5.2A10.8 10.8 0 0112 5c6.4 0 10 7 10 7a17.6 17.6 0 01-3.2 4.1M6.6 6.6C3.9 8.3 2 12 2 12s3.6 7 10 7c1.7 0 3.2-.4 4.5-1.1',
  download: 'M12 4v11m0 0l-4-4m4 4l4-4M4 19h16',
  doc: 'M7 3h7l5 5v13H7zm7 0v5h5M10 13h6m-6 4h6',
  star: 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z',
  swap: 'M7 4v15m0 0l-3-3m3 3l3-3M17 20V5m0 0l-3 3m3-3l3 3',
  arrowLeft: 'M19 12H5m0 0l6-6m-6 6l6 6',
  clock: 'M12 21a9 9 0 100-18 9 9 0 000 18zm0-13v4l3 2',
};

export function Icon({
  name,
  size = 20,
  className,
}: {
  name: keyof typeof PATHS | string;
  size?: number;
  className?: string;
}) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name] ?? PATHS.alert} />
    </svg>
  );
}
