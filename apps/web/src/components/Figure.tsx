import type { ReactNode } from 'react';
import { changeClass } from '../lib/market-format';

/** A term and its value in a figures grid (`<dl className="ui-figures">`). Styles: figure.css. */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="ui-figure">
      <dt>{label}</dt>
      <dd className="num" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** A figure whose colour follows its sign (rise, fall), with the sign written out for who cannot see colour. */
export function Signed({
  value,
  children,
  testId,
}: {
  value: string | null;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={`num ui-signed ${value ? changeClass(value) : ''}`} data-testid={testId}>
      {children}
    </span>
  );
}
